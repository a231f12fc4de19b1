import type { components } from "../../generated/api.js";
import { evaluateRoute, type RouteSchedule, type SolutionScore } from "../../strategies/core/evaluator.js";
import { hasBreaks, type CompiledProblem, type Solution } from "../../strategies/core/problem.js";
import { loadResultFields, type LoadResultField } from "./load-result.js";
import { reassignmentFields, routeReassignmentCost } from "./reassigned-stops.js";
import { routeDetail, type RouteDetail } from "./route-details.js";
import { skipPenaltyTotal, unservedCustomers } from "./route-rules.js";
import { anyMayBeUnassigned } from "./service-diagnostics.js";
import { unassignedEntries } from "./unassigned.js";
import { withoutDust } from "./message-numbers.js";

type Infeasibility = components["schemas"]["Infeasibility"];
type OnlyWhenUsed = "stopped" | "unassigned" | "skip_penalty_total" | "breaks" | "reassigned_stops" | "reassignment_cost_total";

/**
 * The solved result object exactly as the OpenAPI document's generated `SolvedResult`, with every
 * extension field always present (the worker fills them all) except `stopped`, which only a
 * cancelled solve carries, `unassigned` / `skip_penalty_total`, which only a request that lets
 * customers be left out carries, the loads on board, which only a request with load rules gets, and
 * the reassigned stops, which only a request with a reassignment cost gets.
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

/**
 * The spec's result object (2.5 plus extensions), built from the evaluator's schedule so that
 * cost, routes, loads and times cannot disagree.
 */
export function formatResult(
  p: CompiledProblem,
  solution: Solution,
  score: SolutionScore,
  meta: {
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
  },
): SolvedResultObject {
  const routes: Record<string, number[]> = {};
  const loads: Record<string, number[]> = {};
  const timeWindows: Record<string, [string, string][]> = {};
  const distances: number[] = [];
  const routeDetails: Record<string, RouteDetail> = {};
  let routesCost = 0;
  const schedules = new Map<string, RouteSchedule>();
  const breaks: NonNullable<components["schemas"]["SolvedResult"]["breaks"]> = {};
  for (let v = 0; v < p.vehicleCount; v++) {
    const route = solution.routes[v]!;
    if (route.length === 0) continue;
    const label = `Vehicle ${v}`;
    const schedule: RouteSchedule = { nodes: [], arrive: [], leave: [], loads: [] };
    const routeScore = evaluateRoute(p, v, route, route.length, schedule);
    routesCost += routeScore.cost;
    routes[label] = schedule.nodes;
    schedules.set(label, schedule);
    loads[label] = schedule.loads.map(withoutDust);
    distances.push(withoutDust(routeScore.distance));
    routeDetails[label] = routeDetail(p, v, routeScore, schedule);
    if (p.reassignment) routeDetails[label].reassignment_cost = routeReassignmentCost(p, v, route);
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
  const unserved = leftOut ? unservedCustomers(p, solution) : [];
  const skipped = leftOut ? skipPenaltyTotal(p, unserved) : 0;
  const extensions = leftOut
    ? {
        unassigned: unassignedEntries(p, solution, unserved, meta.proven ?? [], meta.pricingBudget),
        skip_penalty_total: withoutDust(skipped),
      }
    : {};
  return {
    status: "solved",
    success: true,
    error: null,
    total_cost: withoutDust(p.rules ? routesCost + skipped : score.cost),
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
    ...loadResultFields(p, schedules),
    ...reassignmentFields(p, solution),
    ...(hasBreaks(p) ? { breaks } : {}),
  };
}
