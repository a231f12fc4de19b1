import { expect } from "chai";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SolvedResult, UnassignedNode } from "../../clients/typescript/src/index.js";
import { checkDistanceResult, type ConstraintRequestFields } from "../../checker/check-result.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import type { PlainCvrpRequest } from "../helpers/requests.js";
import { asSolveRequest, sdkClient, TEST_WAIT } from "../helpers/sdk.js";
import { expectMatchesSchema } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Request = PlainCvrpRequest & ConstraintRequestFields & Record<string, unknown>;

const example = (name: string) => JSON.parse(readFileSync(new URL(`../../examples/${name}.json`, import.meta.url), "utf8")) as Request;
const golden = JSON.parse(readFileSync(new URL("../fixtures/v1-results.json", import.meta.url), "utf8")) as Record<
  string,
  { outcome: { result?: Record<string, unknown> } }
>;

/** Customers on the x axis at the given positions, depot 0 at x = 0; one solve second, seed 1. */
function onLine(xs: number[], vehicles: number, extra: Record<string, unknown> = {}): Request {
  const all = [0, ...xs];
  return {
    node_num: all.length,
    vehicle_num: vehicles,
    node_positions: all.map((x) => [x, 0]),
    distance_matrix: [],
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: all.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: Array(vehicles).fill(100),
    time_limit_seconds: 1,
    seed: 1,
    ...extra,
  };
}

/** The time dimension with wide windows, no service, speed 1 (a minute per distance unit). */
function timed(r: Request): Request {
  return {
    ...r,
    node_time_windows: r.node_demands.map(() => [0, 10000]),
    node_service_time: r.node_demands.map(() => 0),
    vehicle_speeds: r.start_nodes.map(() => 1),
  };
}

type Solved = SolvedResult & {
  route_details: Record<
    string,
    {
      stops?: number;
      shift?: number[] | null;
      max_distance?: number | null;
      max_stops?: number | null;
      max_duration_minutes: number | null;
      cost: number;
    }
  >;
};

async function solve(
  client: ApiClient,
  body: Request,
): Promise<{ id: string; polled: { success: boolean; result: unknown; error: string | null; code?: string; diagnostics?: string[] } }> {
  const { data, response } = await client.POST("/api/v1/solve", { body: body as never });
  expect(response.status, JSON.stringify(data)).to.equal(200);
  const id = data!.request_id;
  return { id, polled: await pollUntil(client, id, isFinished, 60_000) };
}

function solvedOf(polled: { success: boolean; result: unknown; error: string | null }): Solved {
  expect(polled.success, polled.error ?? "").to.equal(true);
  return polled.result as Solved;
}

/** Which vehicle serves `node` (its label), or null. */
function vehicleOf(result: Solved, node: number): string | null {
  return Object.entries(result.routes).find(([, route]) => route.slice(1, -1).includes(node))?.[0] ?? null;
}

/**
 * End to end on the real stack: optional stops, skills, shifts and route limits through
 * submit, poll, callback, validate and the SDK, each result checked by the independent checker.
 */
describe("optional stops, unassigned with reasons, skills, shifts and route limits (end to end)", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;
  let account: { user: string; key: string; headers: Record<string, string> };
  let receiver: Server;
  let receiverUrl: string;
  const received: { path: string; body: string }[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ path: req.url ?? "", body });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    stack = await startStack({ workers: 1 });
    account = await stack.account("fleet-21", "pro");
    client = apiClient(stack.api.url, account.headers);
  });
  after(async () => {
    await stack?.stop();
    receiver?.close();
  });

  it("gives a request without these fields exactly the result it gave before them", async () => {
    for (const name of ["small-cvrp", "time-windows", "multi-depot-cost"]) {
      const { polled } = await solve(client, { ...example(name), seed: 1, max_iterations: 300 });
      const { time: _t, solver_version: _v, request_id: _id, ...result } = solvedOf(polled) as unknown as Record<string, unknown>;
      expect(result, name).to.deep.equal(golden[name]!.outcome.result);
    }
  });

  it("skips an optional stop whose detour costs more than its penalty, and prices the skip into total_cost", async () => {
    // 0-1-2-0 is 40; taking node 3 (x = 200) too would add 360 against a penalty of 5.
    const request = onLine([10, 20, 200], 1, { node_skip_penalties: [null, null, 1000, 5] });
    const result = solvedOf((await solve(client, request)).polled);
    expect(result.routes).to.deep.equal({ "Vehicle 0": [0, 1, 2, 0] });
    expect(result.unassigned).to.deep.equal([
      {
        node: 3,
        reason: "skipped_cheaper",
        message:
          "node 3 is optional and was left out: its skip penalty 5 is less than the 360 " +
          "its cheapest feasible insertion into this plan would add",
        evidence: { skip_penalty: 5, insertion_cost: 360 },
      },
    ]);
    expect(result.skip_penalty_total).to.equal(5);
    expect(result.total_cost).to.equal(45);
    expect(result.route_details["Vehicle 0"]!.cost).to.equal(40);
    checkDistanceResult(request, result);
  });

  it("serves a node only by a vehicle with every skill it needs", async () => {
    // Vehicle 0 costs 1 per unit, vehicle 1 (the only refrigerated one) 2: without skills vehicle 0 would take everything.
    const request = onLine([10, 12], 2, {
      objective: "min_total_cost",
      vehicle_unit_distance_costs: [1, 2],
      node_skills: [null, ["refrigerated"], []],
      vehicle_skills: [[], ["refrigerated"]],
    });
    const result = solvedOf((await solve(client, request)).polled);
    expect(vehicleOf(result, 1)).to.equal("Vehicle 1");
    expect(result.total_cost).to.equal(48);
  });

  it("keeps each vehicle inside its shift, and reports the shift in route_details", async () => {
    // Node 2 (x = 100) is a 200-minute round trip: vehicle 0's shift [0, 150] cannot take it, vehicle 1 (dearer) must;
    // node 1 (x = -10, the other way) is cheapest on vehicle 0.
    const request = timed(
      onLine([-10, 100], 2, { objective: "min_total_cost", vehicle_unit_distance_costs: [1, 3], vehicle_time_windows: [[0, 150], null] }),
    );
    const result = solvedOf((await solve(client, request)).polled);
    expect(vehicleOf(result, 2)).to.equal("Vehicle 1");
    expect(vehicleOf(result, 1)).to.equal("Vehicle 0");
    expect(result.route_details["Vehicle 0"]!.shift).to.deep.equal([0, 150]);
    expect(result.route_details["Vehicle 1"]!.shift).to.equal(null);
    checkDistanceResult({ ...request, objective: "min_total_distance" } as Request, { ...result, total_cost: result.total_distance! });
  });

  it("keeps each route within its vehicle's distance, stops and working-hours caps", async () => {
    // Vehicle 0 costs 1 per unit, vehicle 1 5; nodes 1-3 one side of the depot, node 4 (x = 40) the other.
    // Capped at 50 distance units or 1 hour, vehicle 0 cannot reach node 4 (80 there and back); capped
    // at 2 stops, it serves node 4 and one other, and vehicle 1 the other two.
    const caps = (extra: Record<string, unknown>) =>
      timed(onLine([-1, -2, -3, 40], 2, { objective: "min_total_cost", vehicle_unit_distance_costs: [1, 5], ...extra }));
    const distance = solvedOf((await solve(client, caps({ vehicle_max_distance: [50, null] }))).polled);
    expect(vehicleOf(distance, 4)).to.equal("Vehicle 1");
    expect(distance.route_details["Vehicle 0"]).to.include({ max_distance: 50 });
    const stops = solvedOf((await solve(client, caps({ vehicle_max_stops: [2, null] }))).polled);
    expect(stops.routes["Vehicle 0"]!.length - 2).to.equal(2);
    expect(stops.route_details["Vehicle 0"]).to.include({ stops: 2, max_stops: 2 });
    const hours = solvedOf((await solve(client, caps({ max_working_hours: 10, vehicle_max_working_hours: [1, null] }))).polled);
    expect(vehicleOf(hours, 4)).to.equal("Vehicle 1");
    expect(hours.route_details["Vehicle 0"]!.max_duration_minutes).to.equal(60);
    expect(hours.route_details["Vehicle 1"]!.max_duration_minutes).to.equal(600);
  });

  it(
    "returns a node no vehicle can serve in unassigned under allow_unassigned, and " +
      "fails naming the rule without it; validate says the same",
    async () => {
      const request = onLine([10, 20, 30], 2, { node_skills: [null, null, ["crane"], null], vehicle_skills: [["lift"], []] });
      const { data: check } = await client.POST("/api/v1/solve/validate", { body: request as never });
      const proof = {
        kind: "no_vehicle_with_skills",
        message: 'node 2 needs the skills ["crane"], which no vehicle has all of (vehicle 0, the closest, lacks ["crane"])',
        node: 2,
        evidence: { required_skills: ["crane"], missing_skills: ["crane"], vehicle: "Vehicle 0" },
      };
      expect(check!.result).to.deep.include({ infeasible: true, infeasibilities: [proof] });

      const failed = await solve(client, request);
      expect(failed.polled).to.deep.include({ success: false, result: null, code: "no_feasible_solution", diagnostics: [proof.message] });
      expect(failed.polled.error).to.equal(`No feasible solution exists: ${proof.message}`);

      const allowed = { ...request, allow_unassigned: true, callback_url: `${receiverUrl}/unassigned` };
      const { data: allowedCheck } = await client.POST("/api/v1/solve/validate", { body: allowed as never });
      expect(allowedCheck!.result).to.deep.include({ infeasible: false, infeasibilities: [{ ...proof, may_be_unassigned: true }] });
      const solved = await solve(client, allowed);
      const result = solvedOf(solved.polled);
      expect(result.unassigned).to.deep.equal([
        { node: 2, reason: "no_vehicle_with_skills", message: proof.message, evidence: proof.evidence },
      ]);
      expect(result.skip_penalty_total).to.equal(0);
      expect(result.total_cost).to.equal(60);
      checkDistanceResult(allowed, result);
      // The one callback carries exactly the poll's body, unassigned included.
      const deadline = Date.now() + 20_000;
      while (!received.some((r) => r.path === "/unassigned") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const hit = received.find((r) => r.path === "/unassigned");
      expect(hit, "callback received").to.not.equal(undefined);
      expect(JSON.parse(hit!.body)).to.deep.equal(solved.polled);
      await expectMatchesSchema("#/components/schemas/CompletionCallbackBody", JSON.parse(hit!.body));
    },
  );

  it(
    "proves a shift too short, per-vehicle working hours too short and a distance " +
      "cap too short before solving, and returns the same reasons in unassigned",
    async () => {
      // Node 2 needs "a" (only vehicle 0, shift [0, 90], a 100-minute trip); node 3 needs "b" (only
      // vehicle 1, 1.25 working hours, a 90-minute trip); node 4 is 140 there and back against caps of 100 and 120.
      const request = timed(
        onLine([10, 50, 45, 70], 2, {
          node_skills: [null, null, ["a"], ["b"], null],
          vehicle_skills: [["a"], ["b"]],
          vehicle_time_windows: [[0, 90], null],
          vehicle_max_working_hours: [null, 1.25],
          vehicle_max_distance: [100, 120],
          allow_unassigned: true,
        }),
      );
      const { data } = await client.POST("/api/v1/solve/validate", { body: request as never });
      const report = data!.result as {
        infeasible: boolean;
        infeasibilities: { kind: string; node: number; message: string; evidence: object; may_be_unassigned?: boolean }[];
      };
      expect(report.infeasible).to.equal(false);
      const proofs = [...report.infeasibilities].sort((x, y) => x.node - y.node);
      expect(proofs.map((i) => [i.kind, i.node, i.evidence, i.may_be_unassigned])).to.deep.equal([
        ["shift_too_short", 2, { earliest_return: 100, shift_start: 0, shift_end: 90, late_by: 10, vehicle: "Vehicle 0" }, true],
        ["working_hours_too_short", 3, { round_trip_minutes: 90, cap_minutes: 75, vehicle: "Vehicle 1" }, true],
        ["distance_limit", 4, { round_trip_distance: 140, max_distance: 120, vehicle: "Vehicle 1" }, true],
      ]);
      const result = solvedOf((await solve(client, request)).polled);
      expect(vehicleOf(result, 1), "node 1 is served").to.not.equal(null);
      expect(result.unassigned).to.deep.equal(
        proofs.map((i) => ({ node: i.node, reason: i.kind, message: i.message, evidence: i.evidence })),
      );
      // Without allow_unassigned the same request fails before solving, with these reasons.
      const { allow_unassigned: _allow, ...strict } = request;
      const failed = (await solve(client, strict as Request)).polled;
      expect(failed).to.deep.include({ success: false, code: "no_feasible_solution" });
      expect([...failed.diagnostics!].sort()).to.deep.equal(proofs.map((i) => i.message).sort());
    },
  );

  it("answers depot skills, a depot skip penalty, a backwards shift and a zero cap with 422s naming field and index", async () => {
    const request = onLine([10, 20], 2, {
      node_skip_penalties: [3, null, null],
      node_skills: [["x"], null, null],
      vehicle_time_windows: [[100, 50], null],
      vehicle_max_stops: [0, null],
    });
    const { error, response } = await client.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(422);
    expect((error as unknown as { detail: { loc: string[]; msg: string }[] }).detail.map((d) => [d.loc.join("."), d.msg])).to.deep.equal([
      ["body.vehicle_max_stops.0", "must be >= 1"],
    ]);
    const { error: crossError } = await client.POST("/api/v1/solve", { body: { ...request, vehicle_max_stops: [1, null] } as never });
    expect(
      (crossError as unknown as { detail: { loc: string[]; msg: string }[] }).detail.map((d) => [d.loc.join("."), d.msg]),
    ).to.deep.equal([
      ["body.node_skip_penalties.0", "node 0 is a depot (a start or end node) and is never skipped: its skip penalty must be null (got 3)"],
      ["body.node_skills.0", 'node 0 is a depot (a start or end node) and needs no skills: its skills must be null or [] (got ["x"])'],
      ["body.vehicle_time_windows.0", "vehicle 0's shift ends (50) before it starts (100)"],
    ]);
  });

  it("solves examples/service-constraints.json (every field at once) through the SDK, typed, and the checker accepts it", async () => {
    const request = example("service-constraints");
    const sdk = sdkClient(stack.baseUrl, account);
    const done = await sdk.solve(asSolveRequest({ ...request, seed: 1 }), TEST_WAIT);
    if (!done.success) throw new Error(done.error);
    const unassigned: UnassignedNode[] = done.result.unassigned ?? [];
    expect(unassigned.map((u) => u.node)).to.include(11);
    expect(unassigned.find((u) => u.node === 11)!.reason).to.equal("no_vehicle_with_skills");
    for (const u of unassigned.filter((u) => u.node !== 11)) expect(u.reason, `node ${u.node}`).to.equal("skipped_cheaper");
    checkDistanceResult(request, done.result);
    // Refrigerated nodes 1 and 3 on vehicles 0 or 1, the tail-lift node 5 on vehicle 1.
    expect(vehicleOf(done.result as Solved, 5)).to.equal("Vehicle 1");
  });
});
