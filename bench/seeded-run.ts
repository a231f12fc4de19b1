/**
 * One solve of one request with a given seed (the automatic selection), printing one JSON line:
 * cost, gap against BKS when given, routes used and iterations; for comparing two worktrees seed
 * by seed. REQUEST is a request file or `gh:INDEX:SEEDBASE`, the generated instance
 * ghLike(INDEX, SEEDBASE) of bench/gh-like.ts (indices 3, 4, 5: types C2, R2, RC2).
 * `SOLVER_CLOCK=cpu taskset -c 0 node --import tsx bench/seeded-run.ts REQUEST SECONDS SEED [BKS]`
 */
import { readFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { selectStrategy } from "../strategies/select.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";
import { ghLike } from "./gh-like.js";

const [file, secondsArg, seedArg, bksArg] = process.argv.slice(2);
const request: SolveRequestInput = file!.startsWith("gh:")
  ? ghLike(Number(file!.split(":")[1]), Number(file!.split(":")[2] ?? 1)).request
  : (JSON.parse(readFileSync(file!, "utf8")) as SolveRequestInput);
const { problem } = compileRequest(request);
const strategy = selectStrategy(problem);
const budget = Budget.forSeconds(Number(secondsArg), Number(seedArg), undefined, undefined, benchSettings);
const solution = strategy.solve(problem, budget);
const score = evaluateSolution(problem, solution);
const bks = bksArg ? Number(bksArg) : NaN;
const routes = solution.routes.filter((r) => r.length > 0).length;
console.log(
  JSON.stringify({
    file: file!.split("/").pop(),
    seed: Number(seedArg),
    strategy: strategy.name,
    feasible: score.feasible,
    cost: Math.round(score.cost * 10) / 10,
    gap: Math.round(((score.cost - bks) / bks) * 10000) / 100,
    routes,
    iterations: budget.iterationCount,
  }),
);
