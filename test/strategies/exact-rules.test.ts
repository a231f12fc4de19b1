import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { exact, fitsExhaustive } from "../../strategies/exact/index.js";
import { selectStrategy } from "../../strategies/select.js";

const oneCustomer = {
  node_num: 2,
  distance_matrix: [
    [0, 10],
    [10, 0],
  ],
  vehicle_num: 2,
  start_nodes: [0, 0],
  end_nodes: [0, 0],
  node_demands: [0, 3],
  vehicles_capacity: [5, 5],
};

/** Every way to serve a subset of the customers, in every order, on every vehicle: the reference optimum. */
function bruteForce(p: CompiledProblem): number {
  let best = Number.POSITIVE_INFINITY;
  const customers = Array.from(p.customers);
  const assign = (i: number, routes: number[][]): void => {
    if (i === customers.length) {
      const score = evaluateSolution(p, { routes: routes.map((r) => r.slice()) });
      if (score.feasible) best = Math.min(best, score.cost);
      return;
    }
    const c = customers[i]!;
    if (Number.isFinite(p.rules!.skipPenalty[c]!)) assign(i + 1, routes);
    for (const route of routes) {
      for (let pos = 0; pos <= route.length; pos++) {
        route.splice(pos, 0, c);
        assign(i + 1, routes);
        route.splice(pos, 1);
      }
    }
  };
  assign(
    0,
    Array.from({ length: p.vehicleCount }, () => []),
  );
  return best;
}

/** Tiny requests with the constraint fields go to the exhaustive search, which honours them. */
describe("exact with optional stops, skills and route limits", function () {
  this.timeout(60_000);

  it("solves a one-customer request under each rule (hgs needs two customers, the savings ignore rules)", () => {
    const cases: [Record<string, unknown>, Record<string, number[]>, number][] = [
      [{ node_skip_penalties: [null, 5] }, {}, 5],
      [{ node_skip_penalties: [null, 50] }, { "Vehicle 1": [0, 1, 0] }, 20],
      [{ node_skills: [null, ["x"]], vehicle_skills: [[], ["x"]] }, { "Vehicle 1": [0, 1, 0] }, 20],
      [{ vehicle_max_distance: [10, 30] }, { "Vehicle 1": [0, 1, 0] }, 20],
      [{ node_skills: [null, ["y"]], vehicle_skills: [[], ["x"]], allow_unassigned: true }, {}, 0],
    ];
    for (const [fields, routes, cost] of cases) {
      const outcome = solveRequest({ ...oneCustomer, ...fields } as SolveRequestInput, { requestId: "t", timeLimitSeconds: 5, seed: 1 });
      expect(outcome.status, JSON.stringify(fields)).to.equal("solved");
      if (outcome.status !== "solved") continue;
      expect(outcome.result.strategy).to.equal("exact");
      expect(outcome.result.routes, JSON.stringify(fields)).to.deep.equal(routes);
      expect(outcome.result.total_cost, JSON.stringify(fields)).to.equal(cost);
    }
  });

  it("finds the optimum of random tiny problems with optional stops, skills and caps (checked by brute force with the evaluator)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 2 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 10, maxLength: 10 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        (customers, vehicles, coords, penalties, flags) => {
          const n = customers + 1;
          const positions = Array.from({ length: n }, (_, i) => [coords[(2 * i) % 10]!, coords[(2 * i + 1) % 10]!]);
          const request = {
            node_num: n,
            node_positions: positions,
            distance_matrix: [],
            vehicle_num: vehicles,
            start_nodes: Array(vehicles).fill(0),
            end_nodes: Array(vehicles).fill(0),
            node_demands: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 2)),
            vehicles_capacity: Array(vehicles).fill(5),
            node_skip_penalties: Array.from({ length: n }, (_, i) => (i === 0 ? null : penalties[i - 1]!)),
            node_skills: Array.from({ length: n }, (_, i) => (i > 0 && flags[i] ? ["cold"] : null)),
            vehicle_skills: Array.from({ length: vehicles }, (_, v) => (flags[0] || v === 1 ? ["cold"] : [])),
            vehicle_max_stops: Array.from({ length: vehicles }, () => (flags[5] ? 2 : null)),
            allow_unassigned: true,
          } as unknown as SolveRequestInput;
          const p = compileRequest(request).problem;
          expect(fitsExhaustive(p.customers.length, p.vehicleCount, p.customers.length)).to.equal(true);
          expect(selectStrategy(p).name).to.equal("exact");
          const solution: Solution = exact.solve(p, Budget.forSeconds(10, 1));
          const score = evaluateSolution(p, solution);
          // allow_unassigned: every customer may be left out, required ones only when nothing serves them.
          const reference = bruteForce(p);
          if (Number.isFinite(reference) && score.missing.length === 0) expect(score.cost).to.be.closeTo(reference, 1e-6);
          const served = solution.routes.flat().length;
          expect(served + score.skipped.length + score.missing.length).to.equal(p.customers.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
