import type { CompiledProblem } from "./problem.js";
import type { RouteSchedule, RouteTimes } from "./schedule-types.js";
import { legDistance, returnsToEnd } from "./travel.js";

/** Route distance of vehicle v on its own network; an open route has no last leg. */
export function travelDistance(p: CompiledProblem, v: number, route: ArrayLike<number>, len: number): number {
  let distance = 0;
  let prev = p.startNode[v]!;
  for (let k = 0; k < len; k++) {
    distance += legDistance(p, v, prev, route[k]!);
    prev = route[k]!;
  }
  if (returnsToEnd(p, v)) distance += legDistance(p, v, prev, p.endNode[v]!);
  return distance;
}

/**
 * The evaluator's score of a non-empty route completed with the travel rules: the time cost in
 * the cost, breaks that found no place make it infeasible, and an open route's loads on board
 * end at its last stop like its node list.
 */
export function travelScore<S extends { cost: number; feasible: boolean }>(
  p: CompiledProblem,
  v: number,
  score: S,
  times: RouteTimes | null,
  schedule?: RouteSchedule,
): S & { timeCost: number; breakMinutes: number; missedBreaks: number; missedBreakMinutes: number } {
  const timeCost = times?.timeCost ?? 0;
  const missedBreaks = times?.missedBreaks ?? 0;
  if (schedule && !returnsToEnd(p, v)) {
    schedule.onBoard?.pop();
    schedule.extraOnBoard?.pop();
  }
  // Completed in place: the score is the caller's fresh object, and a copy per evaluation was a
  // large share of the construction's time under travel rules.
  const out = score as S & { timeCost: number; breakMinutes: number; missedBreaks: number; missedBreakMinutes: number };
  out.cost = score.cost + timeCost;
  out.timeCost = timeCost;
  out.breakMinutes = times?.breakMinutes ?? 0;
  out.missedBreaks = missedBreaks;
  out.missedBreakMinutes = times?.missedBreakMinutes ?? 0;
  out.feasible = score.feasible && missedBreaks === 0;
  return out;
}
