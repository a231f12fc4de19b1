import { Budget } from "../../strategies/core/budget.js";
import { evaluateAnswer } from "../../strategies/core/answer-evaluation.js";
import { solveFeasibly } from "../../strategies/core/feasibility.js";
import { solveFewestVehicles } from "../../strategies/search/fewest-vehicles.js";
import { polishRoutes } from "../../strategies/ils/workspace-search.js";
import { findStrategy } from "../../strategies/registry.js";
import { selectStrategy, type SelectionRule } from "../../strategies/select.js";
import { compileRequest } from "./compile-request.js";
import { infeasibilities, type Infeasibility } from "./diagnostics.js";
import { answerViolationReasons } from "./violations.js";
import { formatAnswer, type SolvedResultObject } from "./format-result.js";
import { judgeAnswer } from "./route-rules.js";
import { completePlan } from "./complete-plan.js";
import { alignAnswer } from "./align-plan.js";
import type { SolveRequestInput } from "./request-types.js";
import { solverVersion } from "./solver-version.js";
import { initialSolution } from "./compile-plan.js";
import { searchedProblem } from "./stability-price.js";
import { EVALUATE_ONLY, judgePlan, keepCheaperPlan } from "./evaluate-plan.js";
import { planViolationReasons } from "./plan-violations.js";
import type { Solution } from "../../strategies/core/problem.js";
import { planRank } from "../../strategies/core/plan-order.js";
import type { Helpers } from "../../strategies/core/helpers.js";
import type { SettingsOverride } from "../../strategies/settings.js";

export type { SolvedResultObject } from "./format-result.js";

export interface SolveOptions {
  requestId: string;
  timeLimitSeconds: number;
  seed?: number;
  strategy?: string;
  maxIterations?: number;
  shouldAbort?: () => boolean;
  selection?: readonly SelectionRule[];
  /** Told when the search starts, to follow it (progress reports, best so far). */
  observer?: SolveObserver;
  /**
   * Filled in after solving: the strategy's iteration count (benchmarks report iterations/s) and
   * the seconds spent after the strategy returned (completing, judging, formatting).
   */
  stats?: { iterations: number; postSolveSeconds?: number };
  /** Search settings that replace the family's own (strategies/settings.ts): benchmarks only, never the service. */
  settings?: SettingsOverride;
  /** Other workers' help, given to a cooperative strategy only (strategies/core/helpers.ts). */
  helpers?: Helpers;
}

/** Follows a running search: the worker's progress reports come from here. */
export interface SolveObserver {
  /** `toResult` turns a feasible solution into the solved-result object (null if it is not feasible). */
  searchStarted(budget: Budget, strategy: string, toResult: (solution: Solution) => SolvedResultObject | null): void;
}

export type SolveOutcome =
  | { status: "solved"; result: SolvedResultObject }
  | {
      status: "failed";
      code: FailureCode;
      error: string;
      diagnostics: string[];
      infeasibilities: Infeasibility[];
      strategy: string | null;
      warnings: string[];
    };

/** Why a solve failed: no feasible plan (proven or not found), or the pinned strategy declined the problem. */
export type FailureCode = "no_feasible_solution" | "strategy_declined";

/** Route evaluations a progress report may spend pricing the insertion of unserved customers. */
const PROGRESS_PRICING_BUDGET = 200_000;

/** Headroom kept for compiling, scoring and formatting within the caller's time limit. */
const RESERVED_SECONDS = 0.15;

/**
 * One request in, one outcome out: compile, pick (or honour the pinned) strategy, solve within
 * the time limit, then re-score the strategy's answer from scratch; nothing a strategy says
 * about its own solution is trusted.
 */
export function solveRequest(request: SolveRequestInput, options: SolveOptions): SolveOutcome {
  const started = performance.now();
  const { problem, warnings, baseStartSeconds } = compileRequest(request);
  const fail = (
    error: string,
    diagnostics: string[],
    strategy: string | null,
    proven: Infeasibility[] = [],
    code: FailureCode = "no_feasible_solution",
  ): SolveOutcome => ({
    status: "failed",
    code,
    error,
    diagnostics,
    infeasibilities: proven,
    strategy,
    warnings,
  });

  // Proofs about customers that may be left unserved do not fail the task: they name those
  // customers' reasons in `unassigned`.
  const proven = infeasibilities(problem, undefined, request);
  // The caller's seed (the worker passes the one the API fixed at submit), else the request's;
  // offline callers (CLI, benchmarks, tests) that give neither keep the fixed default 1.
  const seed = options.seed ?? request.seed ?? 1;
  const maxIterations = options.maxIterations ?? request.max_iterations;
  const plan = initialSolution(request, problem.vehicleCount);
  const meta = (strategy: string, iterations: number) => ({
    requestId: options.requestId,
    solveSeconds: (performance.now() - started) / 1000,
    strategy,
    warnings,
    baseStartSeconds,
    seed,
    iterations,
    solverVersion: solverVersion(),
    proven,
  });
  // Evaluate only: the given plan as it is, scored by the same evaluator as every answer.
  if (plan && maxIterations === 0) {
    const judged = judgePlan(problem, plan);
    if (judged.feasible) return { status: "solved", result: formatAnswer(problem, judged.answer, meta(EVALUATE_ONLY, 0)) };
    const why = planViolationReasons(problem, judged.answer, proven);
    return fail(`The given plan (initial_routes) is infeasible: ${why.join("; ")}`, why, EVALUATE_ONLY, proven);
  }
  const reasons = proven.filter((i) => !i.may_be_unassigned).map((i) => i.message);
  if (reasons.length > 0) return fail(`No feasible solution exists: ${reasons.slice(0, 3).join("; ")}`, reasons, null, proven);

  // A re-plan with locked stops is searched with a default price on moving a stop to another
  // vehicle (stability-price.ts); its answer is still scored and formatted on `problem`.
  const searchProblem = searchedProblem(problem, request, plan);
  const pinned = options.strategy ?? request.strategy;
  const strategy = pinned ? findStrategy(pinned) : selectStrategy(searchProblem, options.selection);
  // A strategy that does not claim locked stops (a plugin's too) never gets them, whatever its supports says.
  const support =
    problem.locks && !strategy.features.includes("locked_stops")
      ? { ok: false as const, reason: `the ${strategy.name} strategy does not claim the locked_stops feature (vehicle_locked_stops)` }
      : strategy.supports(searchProblem);
  if (!support.ok) {
    return fail(
      `Strategy '${strategy.name}' declined this request: ${support.reason}`,
      [support.reason],
      strategy.name,
      [],
      "strategy_declined",
    );
  }

  const elapsed = (performance.now() - started) / 1000;
  const seconds = Math.max(0.05, options.timeLimitSeconds - elapsed - RESERVED_SECONDS);
  const budget = Budget.forSeconds(seconds, seed, maxIterations, options.shouldAbort, options.settings);
  if (strategy.cooperative && options.helpers) budget.helpers = options.helpers;
  options.observer?.searchStarted(budget, strategy.name, (candidate) => {
    const evaluated = evaluateAnswer(problem, candidate);
    if (!judgeAnswer(problem, evaluated).feasible) return null;
    // Progress reports price few insertions: the final result prices them all.
    const meta = {
      requestId: options.requestId,
      solveSeconds: (performance.now() - started) / 1000,
      strategy: strategy.name,
      warnings,
      baseStartSeconds,
      seed,
      iterations: budget.iterationCount,
      solverVersion: solverVersion(),
      proven,
      pricingBudget: PROGRESS_PRICING_BUDGET,
    };
    return formatAnswer(problem, evaluated, meta);
  });
  // After the search: complete, judge and format its answer (timed apart for benchmarks).
  const answerOutcome = (searched: Solution): SolveOutcome => {
    // Customers the search left out that fit somewhere (required ones anywhere, optional ones
    // below their penalty) are placed before the plan is judged.
    completePlan(problem, searched);
    if (options.stats) options.stats.iterations = budget.iterationCount;
    // A re-plan keeps routes on the vehicles that had most of their stops, where vehicles are alike.
    const found = plan ? alignAnswer(problem, request, evaluateAnswer(problem, searched), plan) : evaluateAnswer(problem, searched);
    const foundFeasible = judgeAnswer(problem, found).feasible;
    // Never costlier than a feasible given plan, whatever the strategy answered. Both are scored on
    // `problem`: under a re-plan's default reassignment price (which only steers the search) the
    // answer is the cheapest within its moves, and the given plan moves none, so that comparison
    // is on the cost without the price.
    const given = keepCheaperPlan(problem, plan, foundFeasible ? planRank(problem, found.solution, found.score.cost) : null);
    if (!given && !foundFeasible) {
      const why = answerViolationReasons(problem, found, proven);
      return fail(`No feasible solution found within the time limit: ${why.join("; ")}`, why, strategy.name);
    }
    const answer = given ?? found;
    return { status: "solved", result: formatAnswer(problem, answer, meta(strategy.name, budget.iterationCount)) };
  };
  // A search that finds no feasible solution goes through the feasibility phase before failing.
  // Under min_vehicles the search has phases of its own (route elimination, then a fixed fleet).
  const solve = searchProblem.minVehicles ? solveFewestVehicles : solveFeasibly;
  const searched = solve(strategy, searchProblem, budget, plan ?? undefined, polishRoutes);
  const solvedAt = performance.now();
  const outcome = answerOutcome(searched);
  if (options.stats) options.stats.postSolveSeconds = (performance.now() - solvedAt) / 1000;
  return outcome;
}
