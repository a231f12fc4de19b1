import { expect } from "chai";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { findStrategy } from "../../strategies/registry.js";
import { benchmarkRequest } from "../helpers/benchmark-fixtures.js";

const root = join(import.meta.dirname, "..", "..");
/** Digests of hgs's routes on main before the constraint fields existed (bench/same-routes.ts --write). */
const stored = JSON.parse(readFileSync(join(root, "bench", "same-routes-main.json"), "utf8")) as Record<string, { digest: string; cost: number }>;

/**
 * A request without the constraint fields (constraints.md) must solve exactly as before they
 * existed: the same routes and cost for a fixed seed and iteration budget, on the paths the rules
 * touched most (the general search's route model, time segments, penalties, local search and
 * recreate; the genetic search's windows), compared with bench/same-routes.ts's stored digests.
 */
describe("requests without the constraint fields solve exactly as before (bench/same-routes-main.json)", function () {
  this.timeout(300_000);

  const cases = [
    { name: "C101", file: "Solomon/C101", iterations: 300 },
    { name: "X110-HD", file: "HFVRP/X110-HD", iterations: 1500 },
    { name: "PR11A", file: "MDVRPTW/PR11A", iterations: 800 },
  ];
  for (const c of cases) {
    it(`${c.name}: hgs, seed 1, ${c.iterations} iterations: the stored routes and cost`, () => {
      // The benchmark's request, carried in test/fixtures/benchmarks/ (benchmark-fixtures.test.ts checks it is the same).
      const request = benchmarkRequest(c.file);
      const { problem } = compileRequest(request);
      expect(problem.rules ?? null).to.equal(null);
      const solution = findStrategy("hgs").solve(problem, Budget.forSeconds(3600, 1, c.iterations));
      const digest = createHash("sha256").update(JSON.stringify(solution.routes)).digest("hex").slice(0, 16);
      expect(digest).to.equal(stored[c.name]!.digest);
      expect(Number(evaluateSolution(problem, solution).cost.toFixed(6))).to.equal(stored[c.name]!.cost);
    });
  }
});
