import { expect } from "chai";
import { solveRequest } from "../../src/problem/solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

/** Customers 1..6 on a line, 10 apart; the plan serves 1, 3, 2 on vehicle 0 and 4 on vehicle 1. */
function request(extra: Record<string, unknown> = {}): SolveRequestInput {
  const line = Array.from({ length: 7 }, (_, i) => [10 * i, 0]);
  return {
    node_num: 7,
    vehicle_num: 2,
    node_positions: line,
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 2, 2, 1, 1, 1],
    vehicles_capacity: [3, 10],
    node_time_windows: line.map((_, i) => (i === 2 ? [0, 30] : [0, 1000])),
    node_service_time: line.map(() => 0),
    vehicle_speeds: [1, 1],
    node_skills: line.map((_, i) => (i === 4 ? ["cold"] : null)),
    vehicle_skills: [["cold"], []],
    vehicle_max_distance: [50, null],
    initial_routes: [[1, 3, 2], [4]],
    max_iterations: 0,
    ...extra,
  } as SolveRequestInput;
}

describe("evaluate only: the failure message of an infeasible given plan", () => {
  it("names every broken rule with its amount: customers left out, late stops, load, skills, distance cap", () => {
    const out = solveRequest(request(), { requestId: "plan", timeLimitSeconds: 5 });
    expect(out.status).to.equal("failed");
    if (out.status !== "failed") return;
    expect(out.strategy).to.equal("evaluate");
    expect(out.code).to.equal("no_feasible_solution");
    expect(out.diagnostics).to.deep.equal([
      "2 customer(s) that must be served are not in the plan (nodes 5, 6)",
      "hard time windows missed at 1 stop(s) by 10 min in total (node 2 on vehicle 0 10 min late)",
      "skills missing on 1 route(s) (vehicle 1 serves node 4 without its skills)",
      "distance caps exceeded on 1 route(s) (vehicle 0 drives 60 against its vehicle_max_distance 50)",
      "capacity exceeded on 1 route(s) by 2 in total (vehicle 0 carries 5 against its capacity 3)",
    ]);
    expect(out.error).to.equal(`The given plan (initial_routes) is infeasible: ${out.diagnostics.join("; ")}`);
  });

  it("answers a feasible plan as it is; optional customers left out add their penalty, allow_unassigned lists required ones", () => {
    const feasible = request({
      initial_routes: [[1, 2, 3], [4]],
      vehicles_capacity: [5, 10],
      vehicle_skills: [["cold"], ["cold"]],
      vehicle_max_distance: [null, null],
      node_skip_penalties: [null, null, null, null, null, 7, null],
      allow_unassigned: true,
    });
    const out = solveRequest(feasible, { requestId: "plan", timeLimitSeconds: 5 });
    expect(out.status, out.status === "failed" ? out.error : "").to.equal("solved");
    if (out.status !== "solved") return;
    expect(out.result.routes).to.deep.equal({ "Vehicle 0": [0, 1, 2, 3, 0], "Vehicle 1": [0, 4, 0] });
    expect(out.result.total_cost).to.equal(60 + 80 + 7);
    expect(out.result.skip_penalty_total).to.equal(7);
    expect(out.result.unassigned!.map((u) => u.node)).to.deep.equal([5, 6]);
    expect(out.result.iterations).to.equal(0);
  });
});
