/**
 * Solves one request file in this process and prints one JSON line: cost, feasibility, strategy,
 * seconds, the time to the first feasible solution, the iterations and CPU seconds of the search
 * (bench/search-speed.ts reads them) and the process's peak RSS. `bench/xxl.ts`
 * runs it once per instance, so each peak belongs to one instance alone:
 * `node --import tsx bench/solve-one.ts REQUEST.json SECONDS [STRATEGY] [SEED]` (seed 1 unless given).
 */
import { readFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { solverClockIsCpu } from "../strategies/core/clock.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { findStrategy } from "../strategies/registry.js";
import { selectStrategy } from "../strategies/select.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";

const [file, secondsArg, pinned, seedArg] = process.argv.slice(2);
const started = performance.now();
const request = JSON.parse(readFileSync(file!, "utf8")) as SolveRequestInput;
const { problem } = compileRequest(request);
const strategy = pinned ? findStrategy(pinned) : selectStrategy(problem);
const support = strategy.supports(problem);
if (!support.ok) throw new Error(support.reason);
// What start-up used counts against the limit, on the solver's clock: CPU seconds under SOLVER_CLOCK=cpu.
const used = process.cpuUsage();
const startup = solverClockIsCpu() ? (used.user + used.system) / 1e6 : (performance.now() - started) / 1000;
const budget = Budget.forSeconds(Number(secondsArg) - startup, seedArg ? Number(seedArg) : 1, undefined, undefined, benchSettings);
let firstFeasibleSeconds: number | null = null;
budget.onImprovement(() => {
  firstFeasibleSeconds ??= (performance.now() - started) / 1000;
});
const cpuBefore = process.cpuUsage();
const solution = strategy.solve(problem, budget);
const cpu = process.cpuUsage(cpuBefore);
const score = evaluateSolution(problem, solution);
console.log(
  JSON.stringify({
    strategy: strategy.name,
    feasible: score.feasible,
    cost: score.cost,
    seconds: (performance.now() - started) / 1000,
    firstFeasibleSeconds,
    iterations: budget.iterationCount,
    searchCpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
