import type { RouteScore, SolutionScore } from "../../strategies/core/evaluator.js";
import { unservedNodes } from "../../strategies/core/evaluate-rules.js";
import { isReloadStop } from "../../strategies/core/evaluate-trips.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { capMinutes, isAllowed, mayBeUnassigned } from "./service-diagnostics.js";

/**
 * The service's own check of skills, shifts and route limits on a route, from the evaluator's
 * numbers: the answer a task gets never rests on the search having respected them.
 */
export interface RuleBreaches {
  /** Customers the vehicle lacks a skill for. */
  skillNodes: number[];
  /** Minutes the departure is before the shift start, and the arrival after the shift end. */
  shiftEarlyMin: number;
  shiftLateMin: number;
  /** Minutes over the vehicle's own working-hours cap. */
  durationOverMin: number;
  distanceOver: number;
  stopsOver: number;
}

const EPS_DIST = 1e-9;
const EPS_MIN = 1e-7;

export function routeBreaches(p: CompiledProblem, v: number, route: readonly number[], score: RouteScore): RuleBreaches {
  const none: RuleBreaches = { skillNodes: [], shiftEarlyMin: 0, shiftLateMin: 0, durationOverMin: 0, distanceOver: 0, stopsOver: 0 };
  const rules = p.rules;
  if (!rules || route.length === 0) return none;
  none.skillNodes = route.filter((c) => !isAllowed(p, v, c));
  if (p.time) {
    none.shiftEarlyMin = Math.max(0, rules.shiftStartMin[v]! - score.departureMin);
    // The shift end tightens the end node's window: hard only under hard windows (soft: priced lateness).
    if (p.time.latePenaltyPerMin <= 0) none.shiftLateMin = Math.max(0, score.departureMin + score.durationMin - rules.shiftEndMin[v]!);
    none.durationOverMin = Math.max(0, score.durationMin - capMinutes(p, v));
  }
  none.distanceOver = Math.max(0, score.distance - rules.maxDistance[v]!);
  // Reload stops (several trips) are no customers.
  none.stopsOver = Math.max(0, route.length - (score.reloads ?? 0) - rules.maxStops[v]!);
  return none;
}

export function breaksAny(b: RuleBreaches): boolean {
  return (
    b.skillNodes.length > 0 ||
    b.shiftEarlyMin > EPS_MIN ||
    b.shiftLateMin > EPS_MIN ||
    b.durationOverMin > EPS_MIN ||
    b.distanceOver > EPS_DIST ||
    b.stopsOver > 0
  );
}

/** A route the service accepts: the evaluator finds it feasible and it keeps every rule above. */
export function routeAcceptable(p: CompiledProblem, v: number, route: readonly number[], score: RouteScore): boolean {
  return score.feasible && !breaksAny(routeBreaches(p, v, route, score));
}

export interface Judgement {
  /** A plan the service may return as solved. */
  feasible: boolean;
  /** Customers on no route, ascending. */
  unserved: number[];
  /** Of those, the ones that must be served (they fail the task). */
  unservedRequired: number[];
}

/**
 * Whether a solution may be returned: every route acceptable, every customer at most once and
 * only depots left out of routes, and every unserved customer one that may be left out (an
 * optional one, or any under allow_unassigned). Without the constraint fields exactly the
 * evaluator's verdict (every customer served).
 */
export function judgeSolution(p: CompiledProblem, s: Solution, score: SolutionScore): Judgement {
  const unserved = unservedCustomers(p, s);
  if (!p.rules) return { feasible: score.feasible, unserved, unservedRequired: unserved };
  const unservedRequired = unserved.filter((c) => !mayBeUnassigned(p, c));
  let feasible = s.routes.length === p.vehicleCount && score.duplicated.length === 0 && unservedRequired.length === 0;
  for (let v = 0; feasible && v < p.vehicleCount; v++) {
    const route = s.routes[v]!;
    if (route.some((c) => c < 0 || c >= p.nodeCount || (p.isDepot[c] && !(p.trips && isReloadStop(p.trips, v, c))))) feasible = false;
    else if (!routeAcceptable(p, v, route, score.routes[v]!)) feasible = false;
  }
  return { feasible, unserved, unservedRequired };
}

/** Sum of the skip penalties of the unserved optional customers (required ones add nothing). */
export function skipPenaltyTotal(p: CompiledProblem, unserved: readonly number[]): number {
  let total = 0;
  const penalty = p.rules?.skipPenalty;
  if (!penalty) return 0;
  for (const c of unserved) if (Number.isFinite(penalty[c]!)) total += penalty[c]!;
  return total;
}

/** The customers on no route of `s`, optional and required, ascending. */
export function unservedCustomers(p: CompiledProblem, s: Solution): number[] {
  const { skipped, required } = unservedNodes(p, s);
  return [...skipped, ...required].sort((a, b) => a - b);
}
