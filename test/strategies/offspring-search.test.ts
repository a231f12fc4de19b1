import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { Solution } from "../../strategies/core/problem.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { hgs } from "../../strategies/hgs/index.js";
import type { OffspringSearch } from "../../strategies/settings.js";
import { benchmarkRequest } from "../helpers/benchmark-fixtures.js";

/**
 * The genetic search's education of an offspring from the customers whose route neighbours
 * changed (settings.ts offspringSearch): on Solomon's C101 under windows and on CMT13 (a
 * duration cap), a fixed iteration budget gives a feasible plan, the same one for the same seed,
 * no dearer than the savings it starts from.
 */
describe("genetic search: the offspring's education from its changed customers", function () {
  this.timeout(120_000);

  const solve = (file: string, offspringSearch: OffspringSearch, iterations: number): Solution => {
    const { problem } = compileRequest(benchmarkRequest(file));
    return hgs.solve(problem, Budget.forSeconds(3600, 1, iterations, undefined, { hgs: { windowsMethod: "genetic", offspringSearch } }));
  };

  for (const { file, iterations } of [
    // The first 100 iterations educate the first population; the rest are offspring.
    { file: "Solomon/C101", iterations: 150 },
    { file: "CMT/CMT13", iterations: 120 },
  ]) {
    it(`${file}: feasible, the same routes for the same seed, no dearer than the savings`, () => {
      const { problem } = compileRequest(benchmarkRequest(file));
      const changed = solve(file, "changedCustomers", iterations);
      const score = evaluateSolution(problem, changed);
      expect(score.feasible).to.equal(true);
      expect(changed.routes, "same seed, same routes").to.deep.equal(solve(file, "changedCustomers", iterations).routes);
      const savings = evaluateSolution(problem, clarkeWrightSolution(problem));
      expect(score.cost).to.be.at.most(savings.cost + 1e-6);
    });
  }
});
