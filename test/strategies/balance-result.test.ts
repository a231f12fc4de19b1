import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest, type SolveOutcome } from "../../src/problem/solve-request.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { balanceInstance, type BalanceMeasure } from "./balance-problems.js";

type Solved = Extract<SolveOutcome, { status: "solved" }>["result"];

function solved(outcome: SolveOutcome): Solved {
  expect(outcome.status, outcome.status === "failed" ? outcome.error : "").to.equal("solved");
  return (outcome as Extract<SolveOutcome, { status: "solved" }>).result;
}

/** Depot 0 at the origin; customers 1, 2 at distance 10 east, 3 at 20 west; service 5 each. */
function line(balance?: { measure: BalanceMeasure; cost_per_unit: number }): SolveRequestInput {
  return {
    node_num: 4,
    vehicle_num: 2,
    node_positions: [
      [0, 0],
      [10, 0],
      [10, 0],
      [-20, 0],
    ],
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [3, 3],
    node_time_windows: [
      [0, 1000],
      [0, 1000],
      [50, 1000],
      [0, 1000],
    ],
    node_service_time: [0, 5, 5, 5],
    vehicle_speeds: [1, 1],
    ...(balance ? { balance } : {}),
  } as SolveRequestInput;
}

describe("balance in the evaluator and the result: the price of the largest workload, apart", function () {
  this.timeout(120_000);

  it("prices the largest workload of the used routes in each measure, in the plan's cost and in no route's", () => {
    const plan = { routes: [[1, 2], [3]] };
    // Vehicle 0: 20 driven, 2 stops; it leaves late enough to reach node 2 at 50 without waiting,
    // so its working day is 20 + 10 service = 30 minutes, as the working hours cap counts it.
    // Vehicle 1: 40 driven, 1 stop, 45 minutes.
    const expected: Record<BalanceMeasure, [number, number]> = { stops: [2, 1], distance: [20, 40], duration: [30, 45] };
    const plain = evaluateSolution(compileRequest(line()).problem, plan);
    expect(plain.balance).to.equal(undefined);
    for (const measure of ["stops", "distance", "duration"] as const) {
      const p = compileRequest(line({ measure, cost_per_unit: 3 })).problem;
      const score = evaluateSolution(p, plan);
      expect(score.balance!.workloads, measure).to.deep.equal(expected[measure]);
      expect(score.balance!.cost, measure).to.equal(3 * Math.max(...expected[measure]));
      expect(score.cost, measure).to.be.closeTo(plain.cost + 3 * Math.max(...expected[measure]), 1e-9);
      expect(score.routes.map((r) => r.cost)).to.deep.equal(plain.routes.map((r) => r.cost));
    }
    // An unused vehicle has no workload, and a plan on no route no term.
    const p = compileRequest(line({ measure: "distance", cost_per_unit: 3 })).problem;
    expect(evaluateSolution(p, { routes: [[1, 2, 3], []] }).balance!.workloads).to.deep.equal([60, 0]);
  });

  it("gives each route's workload and the term apart in the result, as the independent checker counts them", () => {
    for (const measure of ["stops", "distance", "duration"] as const) {
      for (const seed of [1, 2]) {
        const req = balanceInstance(10, 3, seed, true, { measure, cost_per_unit: 2 });
        const result = solved(solveRequest(req, { requestId: "balance", timeLimitSeconds: 10, seed, maxIterations: 100 }));
        expect(result.balance_cost, measure).to.be.a("number");
        const details = Object.values(result.route_details);
        expect(details.every((d) => typeof d.balance_measure === "number")).to.equal(true);
        const routeCosts = details.reduce((s, d) => s + d.cost, 0);
        expect(result.total_cost, "total_cost = route costs + balance_cost").to.be.closeTo(routeCosts + result.balance_cost!, 1e-6);
        checkDistanceResult(req as never, result as never);
      }
    }
  });

  it("leaves a request without balance as it was: no balance_cost, no balance_measure", () => {
    const req = balanceInstance(8, 2, 3, true);
    const result = solved(solveRequest(req, { requestId: "balance", timeLimitSeconds: 10, seed: 1, maxIterations: 50 }));
    expect(result).to.not.have.property("balance_cost");
    for (const d of Object.values(result.route_details)) expect(d).to.not.have.property("balance_measure");
    checkDistanceResult(req as never, result as never);
  });
});
