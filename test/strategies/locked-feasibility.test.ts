import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { stripViolations } from "../../strategies/core/ejection-repair.js";
import { restoreFeasibility, solveFeasibly } from "../../strategies/core/feasibility.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Workspace } from "../../strategies/core/workspace.js";
import { expectLocksKept } from "./replan-problems.js";
import { stubSearch } from "./stub-strategy.js";

/**
 * Twelve customers of demand 1 on a line, three vehicles of capacity 4 (every unit used), each
 * with its first two stops locked: the locked stops of vehicle 0 lie at the far end, so the
 * cheapest plans overload the routes that pass the other customers.
 */
function lockedTightLine(): CompiledProblem {
  const n = 13;
  return compileRequest({
    node_num: n,
    vehicle_num: 3,
    node_positions: Array.from({ length: n }, (_, i) => [i * 10, 0]),
    distance_matrix: [],
    start_nodes: [0, 0, 0],
    end_nodes: [0, 0, 0],
    node_demands: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: [4, 4, 4],
    initial_routes: [
      [11, 12],
      [1, 2],
      [3, 4],
    ],
    vehicle_locked_stops: [2, 2, 2],
  }).problem;
}

/** Feasible by the evaluator, with every locked stop at its route's head. */
function expectFeasibleWithLocks(p: CompiledProblem, s: Solution | null, what: string): void {
  expect(s, what).to.not.equal(null);
  expect(evaluateSolution(p, s!).feasible, `${what}: feasible`).to.equal(true);
  expectLocksKept(p, s!.routes, what);
}

describe("the feasibility phase with locked stops (core/feasibility.ts)", () => {
  it("repairs an overloaded plan without moving a locked stop", () => {
    const p = lockedTightLine();
    const overloaded: Solution = {
      routes: [
        [11, 12],
        [1, 2, 5, 6, 7, 8, 9, 10],
        [3, 4],
      ],
    };
    expect(evaluateSolution(p, overloaded).feasible).to.equal(false);
    expectFeasibleWithLocks(p, restoreFeasibility(p, Budget.forSeconds(2, 1), overloaded), "repaired");
  });

  it("takes only unlocked customers off an overloaded route, though the locked ones are the dearest", () => {
    const p = lockedTightLine();
    // Vehicle 0's locked stops are the farthest: without the locks they would go first.
    const ws = new Workspace(p, {
      routes: [
        [11, 12, 5, 6, 7, 8],
        [1, 2],
        [3, 4],
      ],
    });
    stripViolations(ws);
    expect(ws.routes[0]!.slice(0, 2), "vehicle 0's locked head").to.deep.equal([11, 12]);
    expect(ws.routes[0], "vehicle 0 within its capacity").to.have.length(4);
    expect(ws.scores[0]!.feasible).to.equal(true);
  });

  it("builds a feasible plan from the locked stops alone", () => {
    const p = lockedTightLine();
    expectFeasibleWithLocks(p, restoreFeasibility(p, Budget.forSeconds(2, 1)), "built");
  });

  it("repairs the end of a search that never finds a feasible plan under locks", () => {
    const p = lockedTightLine();
    // The locked heads, then every other customer on vehicle 1: never feasible.
    const stubborn = stubSearch("stubborn", (problem, budget) => {
      while (!budget.tick());
      const rest = Array.from(problem.customers).filter((c) => problem.locks!.vehicle[c]! < 0);
      return {
        routes: [
          [11, 12],
          [1, 2, ...rest],
          [3, 4],
        ],
      };
    });
    const answer = solveFeasibly(stubborn, p, new Budget(performance.now() + 60_000, 1, 1000));
    expectFeasibleWithLocks(p, answer, "the answer");
  });
});
