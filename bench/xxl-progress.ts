/**
 * One large-strategy solve with its progress: the best solution's gap to `BKS` and its route count
 * every 5 (solver-clock) seconds, then the final gap and the peak RSS. Used to compare settings
 * of strategies/large/settings.ts mid-run as well as at the end (BENCHMARKS.md):
 * `SOLVER_CLOCK=cpu [LARGE_FIRST_ROUND=0.3] node --import tsx bench/xxl-progress.ts REQUEST.json SECONDS BKS`.
 */
import { readFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { findStrategy } from "../strategies/registry.js";
import { compileRequest } from "../src/problem/compile-request.js";
import { solverNow } from "../strategies/core/clock.js";
import { benchSettings } from "./settings-env.js";
const [file, secondsArg, bksArg] = process.argv.slice(2);
const t0 = solverNow();
const { problem } = compileRequest(JSON.parse(readFileSync(file!, "utf8")));
const budget = Budget.forSeconds(Number(secondsArg) - (solverNow() - t0) / 1000, 1, undefined, undefined, benchSettings);
const bks = Number(bksArg);
let last = 0;
budget.onImprovement((s) => {
  const now = (solverNow() - t0) / 1000;
  if (now - last < 5) return;
  last = now;
  const sc = evaluateSolution(problem, s);
  console.log(
    `t=${now.toFixed(1)} gap=${((100 * (sc.cost - bks)) / bks).toFixed(2)} routes=${s.routes.filter((r) => r.length > 0).length}`,
  );
});
const sol = findStrategy("large").solve(problem, budget);
const sc = evaluateSolution(problem, sol);
const loads = sol.routes
  .filter((r) => r.length > 0)
  .map((r) => r.reduce((a, c) => a + problem.demand[c]!, 0))
  .sort((a, b) => a - b);
console.log(
  `route loads (capacity ${problem.capacity[0]}): smallest ` +
    `${loads.slice(0, 5).join(", ")}; spare in all ` +
    `${loads.reduce((a, l) => a + problem.capacity[0]! - l, 0)}`,
);
console.log(
  `final t=${((solverNow() - t0) / 1000).toFixed(1)} feasible=${sc.feasible} gap=${((100 * (sc.cost - bks)) / bks).toFixed(3)} ` +
    `routes=${sol.routes.filter((r) => r.length > 0).length} rss=${Math.round(process.resourceUsage().maxRSS / 1024)}`,
);
