import { expect } from "chai";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

interface ErrorBody {
  success: boolean;
  error: string;
  code: string;
  request_id: string;
  result: null;
  detail?: { loc: string[]; msg: string; type: string }[];
}

/** Every error row of the spec this foundation owns, each body checked against the document. */
describe("submit and poll errors", function () {
  this.timeout(60_000);
  let stack: Stack;
  let headers: Record<string, string>;
  const valid = () => ({ ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 30 }), time_limit_seconds: 1 });

  async function submit(
    body: unknown,
    extraHeaders: Record<string, string> = {},
    rawBody?: string,
  ): Promise<{ status: number; body: ErrorBody; headers: Headers }> {
    const res = await fetch(`${stack.baseUrl}/api/v1/solve`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers, ...extraHeaders },
      body: rawBody ?? JSON.stringify(body),
    });
    const parsed = (await res.json()) as ErrorBody;
    await expectMatchesSpec("submitSolve", res.status, parsed);
    return { status: res.status, body: parsed, headers: res.headers };
  }

  before(async () => {
    stack = await startStack({ workers: 0, env: { MAX_BODY_BYTES: String(256 * 1024) } });
    headers = (await stack.account("carol", "starter")).headers;
  });
  after(async () => {
    await stack?.stop();
  });

  describe("authentication (401/403)", () => {
    it("401 when a header is missing", async () => {
      const r = await submit(valid(), { "X-Api-Key": "" });
      expect(r.status).to.equal(401);
      expect(r.body.error).to.equal("missing user-name or key header");
      expect(r.body.code).to.equal("missing_credentials");
    });
    it("401 for a wrong key and for an unknown user, with the same text", async () => {
      const wrongKey = await submit(valid(), { "X-Api-Key": "vrp_" + "x".repeat(40) });
      const unknownUser = await submit(valid(), { "X-User-Name": "nobody" });
      for (const r of [wrongKey, unknownUser]) {
        expect(r.status).to.equal(401);
        expect(r.body.error).to.equal("invalid username or API key (or expired/revoked)");
      }
    });
    it("403 for a plan without API access", async () => {
      const free = await stack.account("freddy", "free");
      const r = await submit(valid(), free.headers);
      expect(r.status).to.equal(403);
      expect(r.body.code).to.equal("api_access_not_in_plan");
      expect(r.body.error).to.match(/does not support API access/);
    });
    it("401 on poll without credentials", async () => {
      const res = await fetch(`${stack.baseUrl}/api/v1/solve/result/00000000-0000-4000-8000-000000000000`);
      expect(res.status).to.equal(401);
      await expectMatchesSpec("getSolveResult", 401, await res.json());
    });
  });

  describe("validation (422)", () => {
    it("gives the exact message for time_limit_seconds", async () => {
      for (const bad of [0, -3, 2.5, "10"]) {
        const r = await submit({ ...valid(), time_limit_seconds: bad });
        expect(r.status).to.equal(422);
        expect(r.body.error).to.equal("Validation failed");
        expect(r.body.detail).to.deep.include({
          loc: ["body", "time_limit_seconds"],
          msg: "time_limit_seconds must be a positive integer",
          type: r.body.detail![0]!.type,
        });
      }
    });
    it("gives the exact message for a depot with demand", async () => {
      const body = valid();
      body.node_demands[0] = 4;
      const r = await submit(body);
      expect(r.status).to.equal(422);
      expect(r.body.detail!.map((d) => [d.loc, d.msg])).to.deep.include([["body"], "Depot/start/end node 0 demand must be 0 (got 4)"]);
    });
    it("reports all cross-field problems in one answer", async () => {
      const body = { ...valid(), start_nodes: [0], end_nodes: [0, 9], vehicles_capacity: [10, 10, 10], node_demands: [0, 1] };
      const r = await submit(body);
      expect(r.status).to.equal(422);
      const locs = r.body.detail!.map((d) => d.loc.join("."));
      expect(locs).to.include.members(["body.start_nodes", "body.vehicles_capacity", "body.node_demands", "body.end_nodes.1"]);
    });
    it("reports schema and cross-field problems together when the rules can still be checked", async () => {
      const body = { ...valid(), time_limit_seconds: 0, colour: "red", node_demands: [4, 1, 1, 1, 1, 1], end_nodes: [0, 9] };
      const r = await submit(body);
      expect(r.status).to.equal(422);
      expect(r.body.error).to.equal("Validation failed");
      expect(r.body.detail).to.deep.include({
        loc: ["body", "time_limit_seconds"],
        msg: "time_limit_seconds must be a positive integer",
        type: r.body.detail!.find((d) => d.loc[1] === "time_limit_seconds")!.type,
      });
      expect(r.body.detail).to.deep.include({ loc: ["body"], msg: "Depot/start/end node 0 demand must be 0 (got 4)", type: "value_error" });
      expect(r.body.detail!.map((d) => d.loc.join("."))).to.include.members(["body.colour", "body.end_nodes.1"]);
      // A schema error in a field the rules read: only the schema's answer, the rules are not guessed at.
      const typed = await submit({ ...valid(), node_num: "six", node_demands: [4, 1, 1, 1, 1, 1] });
      expect(typed.status).to.equal(422);
      expect(typed.body.detail!.map((d) => d.loc.join("."))).to.deep.equal(["body.node_num"]);
    });
    it("rejects a ragged matrix, missing fields, unknown fields and wrong types", async () => {
      const ragged = valid();
      ragged.distance_matrix[2] = [1, 2];
      expect((await submit(ragged)).body.detail!.map((d) => d.loc.join("."))).to.include("body.distance_matrix.2");
      const { node_num: _n, ...missing } = valid();
      expect((await submit({ ...missing, colour: "red" })).body.detail!.map((d) => d.loc.join("."))).to.include.members([
        "body.node_num",
        "body.colour",
      ]);
      expect((await submit({ ...valid(), vehicle_num: "two" })).status).to.equal(422);
    });
    it("requires min_total_cost cost arrays of vehicle_num non-negative entries", async () => {
      const r = await submit({ ...valid(), objective: "min_total_cost", vehicle_fixed_costs: [1], vehicle_unit_distance_costs: [1, -2] });
      expect(r.status).to.equal(422);
      const locs = r.body.detail!.map((d) => d.loc.join("."));
      expect(locs).to.include.members(["body.vehicle_fixed_costs", "body.vehicle_unit_distance_costs.1"]);
    });
    it("ignores cost arrays under min_total_distance", async () => {
      const r = await submit({ ...valid(), vehicle_fixed_costs: [1], vehicle_unit_distance_costs: [-5] });
      expect(r.status).to.equal(200);
    });
    it("refuses callback URLs that are not http(s) or point at private addresses", async () => {
      for (const url of ["ftp://example.com/x", "http://10.0.0.1/hook", "http://user:pw@example.com/"]) {
        const r = await submit({ ...valid(), callback_url: url });
        expect(r.status, url).to.equal(422);
        expect(
          r.body.detail!.some((d) => d.loc.join(".") === "body.callback_url"),
          url,
        ).to.equal(true);
      }
    });
    it("rejects a time window whose start is after its end", async () => {
      const body = valid();
      const r = await submit({
        ...body,
        node_time_windows: body.node_demands.map((_, i) => (i === 2 ? [50, 10] : [0, 600])),
        node_service_time: body.node_demands.map(() => 0),
        vehicle_speeds: [1, 1],
      });
      expect(r.status).to.equal(422);
      expect(r.body.detail!.map((d) => d.loc.join("."))).to.include("body.node_time_windows.2");
    });
  });

  describe("bodies (400/413/415)", () => {
    it("400 with the envelope for malformed JSON", async () => {
      const r = await submit(null, {}, '{"node_num": 3,');
      expect(r.status).to.equal(400);
      expect(r.body.code).to.equal("malformed_json");
    });
    it("415 for a body that is not JSON", async () => {
      const r = await submit(null, { "content-type": "text/plain" }, "node_num=3");
      expect(r.status).to.equal(415);
      expect(r.body.code).to.equal("unsupported_media_type");
    });
    it("413 for a body over the configured limit", async () => {
      const r = await submit(null, {}, JSON.stringify({ ...valid(), name: "x".repeat(300 * 1024) }));
      expect(r.status).to.equal(413);
      expect(r.body.code).to.equal("payload_too_large");
    });
  });

  describe("plan limits (400)", () => {
    it("gives the spec's text for node and vehicle counts over the plan", async () => {
      const nodes = await submit({ ...cvrpRequest({ customers: 210, vehicles: 2, capacity: 2000 }), time_limit_seconds: 1 });
      expect(nodes.status).to.equal(400);
      expect(nodes.body.error).to.equal("Node count (211) exceeds plan limit (200). Please upgrade your plan");
      const vehicles = await submit({ ...cvrpRequest({ customers: 5, vehicles: 25, capacity: 30 }), time_limit_seconds: 1 });
      expect(vehicles.status).to.equal(400);
      expect(vehicles.body.error).to.equal("Vehicle count (25) exceeds plan limit (20). Please upgrade your plan");
    });
  });

  describe("time limit and the plan", () => {
    it("replaces a time_limit_seconds above the plan maximum by it, silently, and uses it when omitted", async () => {
      const { time_limit_seconds: _omit, ...withoutLimit } = valid();
      const cases: [Record<string, unknown>, number][] = [
        [{ ...valid(), time_limit_seconds: 3600 }, 30],
        [withoutLimit, 30],
        [{ ...valid(), time_limit_seconds: 7 }, 7],
      ];
      for (const [body, expected] of cases) {
        const r = await submit(body);
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        expect(r.body.success).to.equal(true);
        expect((await stack.task(r.body.request_id))?.timeLimitSeconds, JSON.stringify(body.time_limit_seconds)).to.equal(expected);
      }
    });
  });

  it("answers unknown paths with a 404 envelope", async () => {
    const res = await fetch(`${stack.baseUrl}/api/v1/nope`, { headers });
    expect(res.status).to.equal(404);
    const body = (await res.json()) as ErrorBody;
    expect(body.success).to.equal(false);
    expect(body.code).to.equal("not_found");
  });
});
