import { expect } from "chai";
import fc from "fast-check";
import { scaledRequest } from "../../bench/scale-request.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { normaliseScale } from "../../strategies/core/normalise.js";
import { hasDenseMatrix } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { arbitraryRequest } from "./random-problems.js";

/** Some solution with every customer on a random vehicle, in random order: feasible or not. */
function randomSolution(customers: Int32Array, vehicles: number, rng: Rng): number[][] {
  const routes: number[][] = Array.from({ length: vehicles }, () => []);
  for (const c of rng.shuffle(Array.from(customers))) routes[rng.int(vehicles)]!.push(c);
  return routes;
}

describe("solving in other units (core/normalise.ts)", () => {
  it("leaves problems of the benchmarks' scale as they are", () => {
    fc.assert(
      fc.property(arbitraryRequest(), (req) => {
        const { problem } = compileRequest(req);
        expect(normaliseScale(problem)).to.equal(problem);
      }),
      { numRuns: 100, seed: 20 },
    );
  });

  for (const factor of [1e-3, 1e5, 1e9]) {
    it(`brings a problem x ${factor} back to the usual range, with every solution's feasibility and cost order unchanged`, () => {
      fc.assert(
        fc.property(arbitraryRequest(), fc.integer({ min: 1, max: 1000 }), (req, seed) => {
          const { problem } = compileRequest(scaledRequest(req, factor));
          const rescaled = normaliseScale(problem);
          if (hasDenseMatrix(problem) && problem.customers.length > 1) {
            expect(Math.max(...rescaled.dist)).to.be.within(1, 2 ** 17);
          }
          const rng = new Rng(seed);
          const costs: [number, number][] = [];
          for (let k = 0; k < 5; k++) {
            const s = { routes: randomSolution(problem.customers, problem.vehicleCount, rng) };
            const a = evaluateSolution(problem, s);
            const b = evaluateSolution(rescaled, s);
            expect(b.feasible).to.equal(a.feasible);
            costs.push([a.cost, b.cost]);
          }
          // Power-of-two factors: one common ratio, exactly.
          const ratios = costs.filter(([a]) => a > 0).map(([a, b]) => b / a);
          for (const r of ratios) expect(r).to.equal(ratios[0]);
        }),
        { numRuns: 100, seed: 21 },
      );
    });
  }
});
