/**
 * Trace of one solve's improvements: CPU seconds, iteration, cost and route count of each new
 * best (to see when and how the route count changes): `node --import tsx bench/trace-best.ts REQUEST.json SECONDS [SEED]`.
 * Counts CPU seconds when SOLVER_CLOCK=cpu.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { selectStrategy } from "../strategies/select.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";

const [file, secondsArg, seedArg, dump] = process.argv.slice(2);
const request = JSON.parse(readFileSync(file!, "utf8")) as SolveRequestInput;
const { problem } = compileRequest(request);
const strategy = selectStrategy(problem);
const cpuBefore = process.cpuUsage();
const budget = Budget.forSeconds(Number(secondsArg), Number(seedArg ?? 1), undefined, undefined, benchSettings);
let last = 0;
budget.onImprovement((s) => {
  const cpu = process.cpuUsage(cpuBefore);
  const t = (cpu.user + cpu.system) / 1e6;
  if (last > 0 && t - last < 0.5) return;
  last = t;
  const routes = s.routes.filter((r) => r.length > 0).length;
  console.log(`${t.toFixed(1)}s it=${budget.iterationCount} cost=${evaluateSolution(problem, s).cost.toFixed(1)} routes=${routes}`);
});
const solution = strategy.solve(problem, budget);
const score = evaluateSolution(problem, solution);
console.log(
  JSON.stringify({
    iterations: budget.iterationCount,
    cost: score.cost,
    feasible: score.feasible,
    routes: solution.routes.filter((r) => r.length > 0).length,
    lengths: solution.routes
      .map((r) => r.length)
      .filter((l) => l > 0)
      .sort((a, b) => a - b)
      .join(" "),
  }),
);
if (dump) writeFileSync(dump, JSON.stringify(solution.routes));
