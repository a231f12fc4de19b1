import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { exact, fitsExhaustive, solutionCount } from "../../strategies/exact/index.js";
import { hgs } from "../../strategies/hgs/index.js";
import { selectStrategy } from "../../strategies/select.js";
import { arbitraryRequest } from "./random-problems.js";
import { twoLockedRoutes } from "./replan-problems.js";

/** A random solution: customers shuffled and dealt to random vehicles. */
function randomSolution(p: CompiledProblem, rng: Rng): Solution {
  const routes: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  const customers = Array.from(p.customers);
  rng.shuffle(customers);
  for (const c of customers) routes[Math.floor(rng.next() * p.vehicleCount)]!.push(c);
  return { routes };
}

describe("exact (exhaustive search for tiny problems)", () => {
  it("counts the solutions as n! * C(n+k-1, k-1) and gives up past its cap", () => {
    expect(solutionCount(3, 1)).to.equal(6);
    expect(solutionCount(2, 2)).to.equal(6); // [ab|], [ba|], [a|b], [b|a], [|ab], [|ba]
    expect(solutionCount(5, 3)).to.equal(120 * 21);
    expect(solutionCount(6, 3)).to.equal(Number.POSITIVE_INFINITY);
    expect(solutionCount(6, 3, 1e6)).to.equal(720 * 28);
    expect(solutionCount(8, 1)).to.equal(Number.POSITIVE_INFINITY);
    expect(solutionCount(3, 10)).to.equal(6 * 220);
    expect(fitsExhaustive(3, 1)).to.equal(true);
    expect(fitsExhaustive(5, 5)).to.equal(true);
    // One customer, 2,000 vehicles: only 2,000 solutions, but each walks the whole fleet.
    expect(fitsExhaustive(1, 2000)).to.equal(false);
  });

  it("finds a feasible solution no dearer than any other the evaluator scores, with every feature on", () => {
    let compared = 0;
    fc.assert(
      fc.property(arbitraryRequest(5), fc.integer({ min: 1, max: 1e6 }), (request, seed) => {
        const { problem } = compileRequest(request);
        if (!exact.supports(problem).ok) return;
        const found = evaluateSolution(problem, exact.solve(problem, Budget.forSeconds(5, 1)));
        const rivals: Solution[] = [];
        const rng = new Rng(seed);
        for (let i = 0; i < 300; i++) rivals.push(randomSolution(problem, rng));
        if (hgs.supports(problem).ok) rivals.push(hgs.solve(problem, new Budget(performance.now() + 5000, seed, 300)));
        for (const rival of rivals) {
          const score = evaluateSolution(problem, rival);
          if (!score.feasible) continue;
          compared++;
          expect(found.feasible, JSON.stringify(request)).to.equal(true);
          expect(found.cost, JSON.stringify({ request, rival })).to.be.at.most(score.cost + 1e-9 * Math.max(1, score.cost));
        }
      }),
      { numRuns: 150, seed: 7 },
    );
    expect(compared, "enough feasible rivals were compared").to.be.greaterThan(1000);
  });

  it("keeps every vehicle's locked stops, also on a vehicle the cheapest plan without them would leave empty", () => {
    // Without locks one route (27) is cheapest; vehicle 1 locks stop 2, so it must drive.
    const { problem } = compileRequest(twoLockedRoutes());
    const solution = exact.solve(problem, Budget.forSeconds(5, 1));
    const score = evaluateSolution(problem, solution);
    expect(score.feasible).to.equal(true);
    expect(solution.routes[0]![0]).to.equal(1);
    expect(solution.routes[1]![0]).to.equal(2);
    expect(score.cost).to.equal(45.5);
  });

  it("is chosen for a handful of stops and declines anything with more solutions than its cap", () => {
    const tiny = compileRequest({
      node_num: 4,
      vehicle_num: 1,
      distance_matrix: [
        [0, 3, 4, 5],
        [3, 0, 2, 4],
        [4, 2, 0, 3],
        [5, 4, 3, 0],
      ],
      start_nodes: [0],
      end_nodes: [0],
      node_demands: [0, 1, 2, 1],
      vehicles_capacity: [10],
    }).problem;
    expect(selectStrategy(tiny).name).to.equal("exact");
    const n = 9;
    const matrix = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Math.abs(i - j)));
    const bigger = compileRequest({
      node_num: n,
      vehicle_num: 2,
      distance_matrix: matrix,
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: matrix[0]!.map((_, i) => (i === 0 ? 0 : 1)),
      vehicles_capacity: [10, 10],
    }).problem;
    expect(exact.supports(bigger).ok).to.equal(false);
    expect(selectStrategy(bigger).name).to.not.equal("exact");
  });

  it("stops at its deadline and still answers a solution", () => {
    const { problem } = compileRequest({
      node_num: 7,
      vehicle_num: 3,
      distance_matrix: Array.from({ length: 7 }, (_, i) => Array.from({ length: 7 }, (_, j) => Math.abs(i - j))),
      start_nodes: [0, 0, 0],
      end_nodes: [0, 0, 0],
      node_demands: [0, 1, 1, 1, 1, 1, 1],
      vehicles_capacity: [2, 2, 2],
    });
    const aborted = new Budget(performance.now() + 5000, 1, undefined, () => true);
    const solution = exact.solve(problem, aborted);
    expect(solution.routes).to.have.length(3);
  });
});
