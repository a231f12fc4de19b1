import { expect } from "chai";
import type { SolveRequest, SolvedResult } from "../../clients/typescript/src/index.js";
import { checkDistanceResult, type ConstraintRequestFields } from "../../checker/check-result.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import type { PlainCvrpRequest } from "../helpers/requests.js";
import { sdkClient, TEST_WAIT } from "../helpers/sdk.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Request = PlainCvrpRequest & ConstraintRequestFields & Record<string, unknown>;
type Polled = { success: boolean; result: unknown; error: string | null; code?: string; diagnostics?: string[] };

/** 16 customers on a 4 x 4 grid around depot 0, demand 1 each, three vehicles of capacity 7 and wide windows. */
function grid(extra: Record<string, unknown> = {}): Request {
  const positions = [[25, 25], ...Array.from({ length: 16 }, (_, i) => [10 * (i % 4) + 10, 10 * Math.floor(i / 4) + 10])];
  return {
    node_num: 17,
    vehicle_num: 3,
    node_positions: positions,
    distance_matrix: [],
    start_nodes: [0, 0, 0],
    end_nodes: [0, 0, 0],
    node_demands: positions.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: [7, 7, 7],
    node_time_windows: positions.map(() => [0, 600]),
    node_service_time: positions.map((_, i) => (i === 0 ? 0 : 5)),
    vehicle_speeds: [1, 1, 1],
    time_limit_seconds: 2,
    seed: 1,
    ...extra,
  };
}

/** Each vehicle's customers in a solved result. */
const planOf = (result: SolvedResult, vehicles: number) =>
  Array.from({ length: vehicles }, (_, v) => (result.routes[`Vehicle ${v}`] ?? [0, 0]).slice(1, -1));

/**
 * End to end on the real stack (nats-server, API, worker): evaluate only, warm starts with locked
 * stops, their 422s, the validate pre-check and the strategies' features, each result checked by
 * the independent checker.
 */
describe("re-planning: evaluate only, warm starts and locked stops (end to end)", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;
  let account: { user: string; key: string; headers: Record<string, string> };

  before(async () => {
    stack = await startStack({ workers: 1 });
    account = await stack.account("replan-37", "pro");
    client = apiClient(stack.api.url, account.headers);
  });
  after(async () => stack?.stop());

  async function solve(body: Request): Promise<Polled> {
    const { data, response } = await client.POST("/api/v1/solve", { body: body as never });
    expect(response.status, JSON.stringify(data)).to.equal(200);
    return pollUntil(client, data!.request_id, isFinished, 60_000);
  }
  const solvedOf = (polled: Polled) => {
    expect(polled.success, polled.error ?? "").to.equal(true);
    return polled.result as SolvedResult;
  };

  it("evaluates a solve's answer to the same cost, to the last digit, and a hand-edited plan with its cost breakdown", async () => {
    const first = solvedOf(await solve(grid()));
    const plan = planOf(first, 3);
    const evaluated = solvedOf(await solve(grid({ initial_routes: plan, max_iterations: 0 })));
    expect(evaluated.total_cost).to.equal(first.total_cost);
    expect(evaluated.routes).to.deep.equal(first.routes);
    expect(evaluated.time_windows).to.deep.equal(first.time_windows);
    expect(evaluated).to.deep.include({ strategy: "evaluate", iterations: 0 });
    checkDistanceResult(grid({ initial_routes: plan }), evaluated as never);
    // A hand edit: the last stop of the longest route moved to the head of the shortest one.
    const order = [0, 1, 2].sort((a, b) => plan[b]!.length - plan[a]!.length);
    const [from, to] = [order[0]!, order[2]!];
    const edited = plan.map((r) => r.slice());
    edited[to]!.unshift(edited[from]!.pop()!);
    const priced = solvedOf(await solve(grid({ initial_routes: edited, max_iterations: 0 })));
    expect(planOf(priced, 3)).to.deep.equal(edited);
    expect(priced.total_cost).to.be.at.least(first.total_cost);
    checkDistanceResult(grid(), priced as never);
  });

  it("answers an infeasible plan failed, naming every broken rule with its amount", async () => {
    const request = grid({
      node_time_windows: grid().node_demands.map((_, i) => (i === 16 ? [0, 20] : [0, 600])),
      initial_routes: [[1, 2, 3, 4, 5, 6, 7, 8], [16], [9, 10, 11, 12, 13]],
      max_iterations: 0,
    });
    const polled = await solve(request);
    expect(polled).to.deep.include({ success: false, result: null, code: "no_feasible_solution" });
    expect(polled.diagnostics).to.deep.equal([
      "2 customer(s) that must be served are not in the plan (nodes 14, 15)",
      "hard time windows missed at 1 stop(s) by 1.21 min in total (node 16 on vehicle 1 1.21 min late)",
      "capacity exceeded on 1 route(s) by 1 in total (vehicle 0 carries 8 against its capacity 7)",
    ]);
    expect(polled.error).to.equal(`The given plan (initial_routes) is infeasible: ${polled.diagnostics!.join("; ")}`);
  });

  it("re-plans from the previous answer through the SDK, typed: locked stops stay first, new orders are inserted", async () => {
    const first = solvedOf(await solve(grid()));
    const plan = planOf(first, 3);
    const locked = plan.map((r) => Math.min(2, r.length));
    // Two customers are left out of the plan (as new orders would be): the solver inserts them after the heads.
    const left = [1, 2].filter((v) => plan[v]!.length > 2).map((v) => plan[v]!.at(-1)!);
    // The SDK's own request type has the fields (this compiles only while it does).
    const replan: Pick<SolveRequest, "initial_routes" | "vehicle_locked_stops"> = {
      initial_routes: plan.map((r) => r.filter((c) => !left.includes(c))),
      vehicle_locked_stops: locked,
    };
    const request = { ...grid(), ...replan } as SolveRequest;
    const done = await sdkClient(stack.baseUrl, account).solve(request, TEST_WAIT);
    if (!done.success) throw new Error(done.error);
    const again = done.result;
    expect(left.length).to.be.greaterThan(0);
    checkDistanceResult(request as never, again as never);
    planOf(again, 3).forEach((route, v) => expect(route.slice(0, locked[v]), `Vehicle ${v}`).to.deep.equal(plan[v]!.slice(0, locked[v])));
    expect(again.strategy).to.equal("hgs");
  });

  it("keeps stops on their vehicles under a high reassignment cost, and lists the ones a low one lets move", async () => {
    const first = solvedOf(await solve(grid()));
    const plan = planOf(first, 3);
    // A poor hand edit: every route's last stop moved to the next vehicle.
    const edited = plan.map((r) => r.slice(0, -1));
    plan.forEach((r, v) => edited[(v + 1) % 3]!.push(r.at(-1)!));
    const price: Pick<SolveRequest, "reassignment_cost"> = { reassignment_cost: 1000 };
    const dear = grid({ initial_routes: edited, ...price });
    const kept = solvedOf(await solve(dear));
    expect(kept.reassigned_stops).to.deep.equal([]);
    expect(kept.reassignment_cost_total).to.equal(0);
    planOf(kept, 3).forEach((route, v) =>
      expect(
        [...route].sort((a, b) => a - b),
        `Vehicle ${v}`,
      ).to.deep.equal([...edited[v]!].sort((a, b) => a - b)),
    );
    checkDistanceResult(dear, kept as never);
    const cheap = grid({ initial_routes: edited, reassignment_cost: 0.01 });
    const moved = solvedOf(await solve(cheap));
    expect(moved.reassigned_stops!.length, "the edit's stops go back where they pay").to.be.greaterThan(0);
    expect(moved.total_cost).to.be.below(kept.total_cost);
    checkDistanceResult(cheap, moved as never);
  });

  it("refuses a bad plan with 422s naming field and index", async () => {
    const { error, response } = await client.POST("/api/v1/solve", {
      body: grid({ initial_routes: [[1, 2], [2, 0], null], vehicle_locked_stops: [3, 0, 0] }) as never,
    });
    expect(response.status).to.equal(422);
    const detail = (error as unknown as { code: string; detail: { loc: string[]; msg: string }[] }).detail;
    expect(detail.map((d) => [d.loc.join("."), d.msg])).to.deep.equal([
      ["body.initial_routes.1.0", "node 2 appears twice in initial_routes (first at initial_routes[0][1])"],
      [
        "body.initial_routes.1.1",
        "node 0 is a depot (a start or end node) and cannot be in initial_routes: " +
          "a route lists its customers only (its start and end nodes are implicit)",
      ],
      ["body.vehicle_locked_stops.0", "vehicle 0 locks 3 stop(s) but its initial route has 2: vehicle_locked_stops[0] must be at most 2"],
    ]);
  });

  it("proves a locked head infeasible in the validate pre-check, and lists the locked_stops feature per strategy", async () => {
    const request = grid({ initial_routes: [[1, 2, 3, 4, 5, 6, 7, 8], [], []], vehicle_locked_stops: [8, 0, 0] });
    const { data } = await client.POST("/api/v1/solve/validate", { body: request as never });
    expect(data!.result).to.deep.include({
      infeasible: true,
      infeasibilities: [
        {
          kind: "locked_stops_infeasible",
          message: "vehicle 0's 8 locked stop(s) need 8 against its capacity 7, 1 over",
          evidence: { vehicle: "Vehicle 0", locked_stops: 8, demand: 8, excess: 1 },
        },
      ],
    });
    const { data: list } = await client.GET("/api/v1/strategies");
    const claims = Object.fromEntries(list!.result.map((s) => [s.name, s.supports.includes("locked_stops")]));
    expect(claims).to.deep.equal({ "clarke-wright": false, sweep: false, alns: false, hgs: true, large: false, exact: true });
  });
});
