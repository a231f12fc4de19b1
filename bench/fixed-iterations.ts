/**
 * Search speed without the clock: solves one request for a fixed number of iterations and prints
 * the CPU seconds it took, the cost and a digest of the routes (the same iterations give the same
 * routes, so two builds whose digests agree did the same work, and their CPU seconds compare
 * the code): `node --import tsx bench/fixed-iterations.ts REQUEST.json ITERATIONS [STRATEGY]`.
 * `--compiled` solves with the production build in dist/ (`make build`), the code the workers run,
 * through its solveRequest: the digest is then of the answer's routes.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { findStrategy } from "../strategies/registry.js";
import { selectStrategy } from "../strategies/select.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { compiledSolver } from "./compiled-solver.js";
import { benchSettings } from "./settings-env.js";

const args = process.argv.slice(2);
const compiled = args.includes("--compiled");
const [file, iterationsArg, pinned] = args.filter((a) => a !== "--compiled");
const request = JSON.parse(readFileSync(file!, "utf8")) as SolveRequestInput;
const digestOf = (routes: unknown) => createHash("sha256").update(JSON.stringify(routes)).digest("hex").slice(0, 12);

if (compiled) {
  const { solveRequest } = await compiledSolver();
  const cpuBefore = process.cpuUsage();
  // A deadline far away: the iteration cap alone stops the search.
  const outcome = solveRequest(request, {
    requestId: "fixed-iterations",
    timeLimitSeconds: 3600,
    maxIterations: Number(iterationsArg),
    seed: 1,
    strategy: pinned,
  });
  const cpu = process.cpuUsage(cpuBefore);
  if (outcome.status !== "solved") throw new Error(`not solved: ${outcome.error}`);
  console.log(
    JSON.stringify({
      strategy: outcome.result.strategy ?? pinned ?? "selected",
      compiled: true,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      cost: outcome.result.total_cost,
      digest: digestOf(outcome.result.routes),
    }),
  );
} else {
  const { problem } = compileRequest(request);
  const strategy = pinned ? findStrategy(pinned) : selectStrategy(problem);
  const cpuBefore = process.cpuUsage();
  // A deadline far away: the iteration cap alone stops the search.
  const budget = Budget.forSeconds(3600, 1, Number(iterationsArg), undefined, benchSettings);
  const solution = strategy.solve(problem, budget);
  const cpu = process.cpuUsage(cpuBefore);
  const score = evaluateSolution(problem, solution);
  console.log(
    JSON.stringify({
      strategy: strategy.name,
      iterations: budget.iterationCount,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      cost: score.cost,
      feasible: score.feasible,
      digest: digestOf(solution.routes),
    }),
  );
}
