/**
 * One solve for bench/short-budgets.ts: the request through the service's own solveRequest (the
 * selection, the reserve for compiling and formatting, the completion), its time limit counted in
 * this process's CPU seconds from the moment the modules are loaded (as in a worker, whose modules
 * are loaded before a task arrives). Prints one JSON line: cost, feasibility, strategy,
 * iterations, the CPU seconds to the first feasible plan and to the answer.
 * The variables of bench/settings-env.ts apply (HGS_CAPACITY_METHOD, ...).
 *
 * `SOLVER_CLOCK=cpu node --import tsx bench/short-budget-solve.ts REQUEST.json SECONDS SEED`
 */
import { readFileSync } from "node:fs";
import { solveRequest } from "../src/problem/solve-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";

const [file, secondsArg, seedArg] = process.argv.slice(2);
const cpuAtLoad = process.cpuUsage();
const cpuSeconds = () => {
  const used = process.cpuUsage(cpuAtLoad);
  return (used.user + used.system) / 1e6;
};
const request = JSON.parse(readFileSync(file!, "utf8")) as SolveRequestInput;
let firstFeasible: number | null = null;
let searchStarted: number | null = null;
const stats = { iterations: 0 };
const outcome = solveRequest(request, {
  requestId: "short-budget",
  timeLimitSeconds: Number(secondsArg),
  seed: Number(seedArg ?? 1),
  settings: benchSettings,
  stats,
  observer: {
    searchStarted(budget) {
      searchStarted = cpuSeconds();
      budget.onImprovement(() => (firstFeasible ??= cpuSeconds()));
    },
  },
});
console.log(
  JSON.stringify({
    cost: outcome.status === "solved" ? outcome.result.total_cost : null,
    strategy: outcome.status === "solved" ? outcome.result.strategy : outcome.strategy,
    iterations: stats.iterations,
    searchStarted,
    firstFeasible,
    cpu: cpuSeconds(),
  }),
);
