import { expect } from "chai";
import { alignWithPlan } from "../../src/problem/align-plan.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";

/** Seven customers on a line, three vehicles at node 0; `extra` adds or overrides fields. */
function request(extra: Record<string, unknown> = {}): SolveRequestInput {
  const positions = Array.from({ length: 8 }, (_, i) => [i * 10, (i * 7) % 5]);
  return {
    node_num: 8,
    vehicle_num: 3,
    node_positions: positions,
    distance_matrix: [],
    start_nodes: [0, 0, 0],
    end_nodes: [0, 0, 0],
    node_demands: [0, 1, 1, 1, 1, 1, 1, 1],
    vehicles_capacity: [4, 4, 4],
    ...extra,
  } as SolveRequestInput;
}

describe("a re-plan's routes stay on the vehicles that drove them", () => {
  it("hands each route to the identical vehicle that had most of its stops, at the same cost", () => {
    const req = request();
    const { problem } = compileRequest(req);
    const plan = {
      routes: [
        [1, 2],
        [3, 4, 5],
        [6, 7],
      ],
    };
    const solved = {
      routes: [
        [3, 4, 5],
        [7, 6],
        [2, 1],
      ],
    };
    const aligned = alignWithPlan(problem, req, solved, plan);
    expect(aligned.routes).to.deep.equal([
      [2, 1],
      [3, 4, 5],
      [7, 6],
    ]);
    expect(evaluateSolution(problem, aligned).cost).to.be.closeTo(evaluateSolution(problem, solved).cost, 1e-9);
  });

  it("never moves a route between vehicles that differ, nor off a vehicle with locked stops", () => {
    const differing = request({ vehicles_capacity: [4, 4, 5] });
    const solved = {
      routes: [
        [3, 4, 5],
        [7, 6],
        [2, 1],
      ],
    };
    const plan = {
      routes: [
        [1, 2],
        [3, 4, 5],
        [6, 7],
      ],
    };
    // Vehicle 2 differs: only vehicles 0 and 1 may swap, and their routes share nothing with
    // the other one's plan except [3, 4, 5] (vehicle 1's): so they swap.
    expect(alignWithPlan(compileRequest(differing).problem, differing, solved, plan).routes).to.deep.equal([
      [7, 6],
      [3, 4, 5],
      [2, 1],
    ]);
    const locked = request({ initial_routes: plan.routes, vehicle_locked_stops: [0, 1, 0] });
    const aligned = alignWithPlan(
      compileRequest(locked).problem,
      locked,
      {
        routes: [
          [6, 7],
          [3, 4, 5],
          [1, 2],
        ],
      },
      plan,
    );
    expect(aligned.routes).to.deep.equal([
      [1, 2],
      [3, 4, 5],
      [6, 7],
    ]);
  });
});
