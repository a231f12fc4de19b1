/**
 * Trace of one solve as the service runs it (solveRequest: the normalised scale, the feasibility
 * phase, the strategy the selection picks), one line per new best: CPU seconds, iteration, cost
 * and routes used; then the outcome and the best routes. bench/trace-best.ts calls the strategy
 * directly, which skips both and can follow another path. SOLVER_CLOCK=cpu counts CPU seconds.
 *
 * `node --import tsx bench/trace-service.ts REQUEST.json SECONDS [SEED]`
 */
import { readFileSync } from "node:fs";
import type { Solution } from "../strategies/core/problem.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { benchSettings } from "./settings-env.js";

const [file, secondsArg, seedArg] = process.argv.slice(2);
if (!file || !secondsArg) throw new Error("usage: bench/trace-service.ts REQUEST.json SECONDS [SEED]");
const request = JSON.parse(readFileSync(file, "utf8")) as SolveRequestInput;
const { problem } = compileRequest(request);
const cpuBefore = process.cpuUsage();
let last: Solution | null = null;
const outcome = solveRequest(request, {
  requestId: "trace",
  timeLimitSeconds: Number(secondsArg),
  seed: Number(seedArg ?? 1),
  settings: benchSettings,
  observer: {
    searchStarted(budget) {
      budget.onImprovement((solution) => {
        last = solution;
        const cpu = process.cpuUsage(cpuBefore);
        const routes = solution.routes.filter((route) => route.length > 0).length;
        const cost = evaluateSolution(problem, solution).cost;
        console.log(`${((cpu.user + cpu.system) / 1e6).toFixed(2)}s it=${budget.iterationCount} cost=${cost.toFixed(2)} routes=${routes}`);
      });
    },
  },
});
console.log(outcome.status === "solved" ? `solved ${outcome.result.total_cost}` : `failed: ${outcome.error}`);
if (last) console.log(JSON.stringify((last as Solution).routes));
