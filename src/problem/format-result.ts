import type { components } from "../../generated/api.js";
import { evaluateAnswer, type AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { SolutionScore } from "../../strategies/core/evaluator.js";
import { hasBreaks, type CompiledProblem, type Solution } from "../../strategies/core/problem.js";
import { loadResultFields, type LoadResultField } from "./load-result.js";
import { reassignmentFields } from "./reassigned-stops.js";
import { balanceFields, balanceMeasureOf } from "./balance-result.js";
import { routeDetail, type RouteDetail } from "./route-details.js";
import { skipPenaltyTotal } from "./route-rules.js";
import { anyMayBeUnassigned } from "./service-diagnostics.js";
import { unassignedEntries } from "./unassigned.js";
import { vehicleLabel, withoutDust } from "./message-numbers.js";

type Infeasibility = components["schemas"]["Infeasibility"];
type OnlyWhenUsed =
  | "stopped"
  | "unassigned"
  | "skip_penalty_total"
  | "vehicles_used"
  | "breaks"
  | "reassigned_stops"
  | "reassignment_cost_total"
  | "balance_cost";

/**
 * The solved result object exactly as the OpenAPI document's generated `SolvedResult`, with every
 * extension field always present (the worker fills them all) except `stopped`, which only a
 * cancelled solve carries, `unassigned` / `skip_penalty_total`, which only a request that lets
 * customers be left out carries, the loads on board, which only a request with load rules gets, and
 * the reassigned stops, which only a request with a reassignment cost gets, and `vehicles_used`,
 * which only `objective: "min_vehicles"` reports.
 */
export type SolvedResultObject = Required<Omit<components["schemas"]["SolvedResult"], OnlyWhenUsed | LoadResultField>> &
  Pick<components["schemas"]["SolvedResult"], OnlyWhenUsed | LoadResultField>;

/** HH:MM:SS from the base start time plus minutes; hours may pass 23 on long days. */
export function clockTime(baseStartSeconds: number, minutes: number): string {
  const total = Math.round(baseStartSeconds + minutes * 60);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

/** What a result says about its making: request, strategy, timing, seed, and the pre-check's proofs. */
export interface ResultMeta {
  requestId: string;
  solveSeconds: number;
  strategy: string;
  warnings: string[];
  baseStartSeconds: number;
  seed: number;
  iterations: number;
  solverVersion: string;
  /** The pre-check's proven reasons: the reasons of unserved customers that have one. */
  proven?: readonly Infeasibility[];
  /** Route evaluations allowed for pricing the insertion of unserved customers. */
  pricingBudget?: number;
}

/** formatAnswer for a caller that holds a solution and its score only: the solution is evaluated once here. */
export function formatResult(p: CompiledProblem, solution: Solution, score: SolutionScore, meta: ResultMeta): SolvedResultObject {
  return formatAnswer(p, { ...evaluateAnswer(p, solution), score }, meta);
}

/**
 * The spec's result object (2.5 plus extensions), read off the answer's one evaluation so that
 * cost, routes, loads and times cannot disagree.
 */
export function formatAnswer(p: CompiledProblem, answer: AnswerEvaluation, meta: ResultMeta): SolvedResultObject {
  const score = answer.score;
  const routes: Record<string, number[]> = {};
  const loads: Record<string, number[]> = {};
  const timeWindows: Record<string, [string, string][]> = {};
  const distances: number[] = [];
  const routeDetails: Record<string, RouteDetail> = {};
  let routesCost = 0;
  const breaks: NonNullable<components["schemas"]["SolvedResult"]["breaks"]> = {};
  for (const evaluated of answer.routes) {
    if (evaluated.route.length === 0) continue;
    const { vehicle: v, schedule, costs } = evaluated;
    const label = vehicleLabel(v);
    routesCost += costs.total;
    routes[label] = schedule.nodes;
    loads[label] = schedule.loads.map(withoutDust);
    distances.push(withoutDust(evaluated.score.distance));
    routeDetails[label] = routeDetail(p, evaluated);
    if (p.reassignment) routeDetails[label].reassignment_cost = withoutDust(costs.reassignment);
    if (p.balance) routeDetails[label].balance_measure = balanceMeasureOf(p, answer, v)!;
    if (p.time) {
      timeWindows[label] = schedule.arrive.map((a, i) => [
        clockTime(meta.baseStartSeconds, a),
        clockTime(meta.baseStartSeconds, schedule.leave[i]!),
      ]);
    }
    if (schedule.breaks && schedule.breaks.length > 0)
      breaks[label] = schedule.breaks.map((b) => ({
        start: clockTime(meta.baseStartSeconds, b.start),
        end: clockTime(meta.baseStartSeconds, b.end),
        after_node: b.afterNode,
      }));
  }
  // Requests that let customers be left out: the unserved ones with their reasons, and their
  // penalties in total_cost beside the routes' costs (route_details add up to the rest).
  const leftOut = anyMayBeUnassigned(p);
  const unserved = leftOut ? answer.unserved : [];
  const skipped = leftOut ? skipPenaltyTotal(p, unserved) : 0;
  const extensions = leftOut
    ? {
        unassigned: unassignedEntries(p, answer, unserved, meta.proven ?? [], meta.pricingBudget),
        skip_penalty_total: withoutDust(skipped),
      }
    : {};
  return {
    status: "solved",
    success: true,
    error: null,
    total_cost: withoutDust(p.rules ? routesCost + skipped + (score.balance?.cost ?? 0) : score.cost),
    routes,
    distances,
    loads,
    time_windows: timeWindows,
    time: Math.round(meta.solveSeconds * 1000) / 1000,
    request_id: meta.requestId,
    strategy: meta.strategy,
    total_distance: withoutDust(score.distance),
    lateness_minutes: withoutDust(score.lateMinutes),
    lateness_penalty: withoutDust(score.latePenalty),
    warnings: meta.warnings,
    seed: meta.seed,
    iterations: meta.iterations,
    solver_version: meta.solverVersion,
    route_details: routeDetails,
    ...extensions,
    ...loadResultFields(p, answer),
    ...reassignmentFields(p, answer),
    ...balanceFields(p, answer),
    ...(hasBreaks(p) ? { breaks } : {}),
    ...(p.minVehicles ? { vehicles_used: Object.keys(routes).length } : {}),
  };
}
