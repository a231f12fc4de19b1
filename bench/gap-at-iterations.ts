/**
 * Quality at a fixed iteration budget (machine-independent, unlike a time budget): solves each
 * instance of a shared set with `hgs`, seed 1 and `max_iterations`, and prints the cost, the gap
 * to the best known and the mean gap. Used to compare two versions of the search whose routes
 * differ (e.g. a changed move): `node --import tsx bench/gap-at-iterations.ts --set HFVRP
 * --iterations 1000 [--limit K] [--seed N]`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { findStrategy } from "../strategies/registry.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";

const { values } = parseArgs({
  options: {
    set: { type: "string" },
    iterations: { type: "string", default: "1000" },
    limit: { type: "string" },
    seed: { type: "string", default: "1" },
  },
});
const benchDir = process.env.BENCH_DIR ?? join(import.meta.dirname, "..", "..", "shared", "benchmarks");
const manifest = JSON.parse(readFileSync(join(benchDir, "manifest.json"), "utf8")) as {
  name: string;
  set: string;
  bks: number;
  request?: string;
}[];
const entries = manifest.filter((e) => e.set === values.set && e.request).slice(0, values.limit ? Number(values.limit) : undefined);
const hgs = findStrategy("hgs");
const gaps: number[] = [];
for (const e of entries) {
  const { problem } = compileRequest(JSON.parse(readFileSync(join(benchDir, e.request!), "utf8")) as SolveRequestInput);
  const solution = hgs.solve(problem, Budget.forSeconds(3600, Number(values.seed), Number(values.iterations), undefined, benchSettings));
  const score = evaluateSolution(problem, solution);
  const gap = (100 * (score.cost - e.bks)) / e.bks;
  if (score.feasible) gaps.push(gap);
  console.log(`| ${e.name} | ${score.feasible ? score.cost.toFixed(2) : "infeasible"} | ${score.feasible ? gap.toFixed(2) : "-"} |`);
}
console.log(
  `${values.set} at ${values.iterations} iterations, seed ${values.seed}: feasible ` +
    `${gaps.length}/${entries.length}, mean gap ` +
    `${(gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length)).toFixed(3)}%`,
);
