import { arrivalClose, departureOpen, durationCap } from "./evaluate-rules.js";
import { distanceBetween, type CompiledProblem } from "./problem.js";
import type { RouteSchedule, RouteTimes } from "./schedule-types.js";
export type { RouteTimes } from "./schedule-types.js";
import { timeTravelRoute } from "./travel-schedule.js";

const EPS = 1e-9;

/**
 * Departure delay from the start node that removes waiting without making any visit later than
 * its window (or later than it already is): the decisions.md rule that a driver is not counted as
 * working while idling at the first customer.
 */
function departureDelay(p: CompiledProblem, v: number, route: ArrayLike<number>, len: number, departure: number): number {
  const t = p.time!;
  const speed = t.speed[v]!;
  const start = p.startNode[v]!;
  const end = p.endNode[v]!;
  let bound = t.twEndMin[start]! - departure;
  let prev = start;
  let clock = departure;
  let waited = 0;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    const arrive = clock + distanceBetween(p, prev, c) / speed;
    const begin = Math.max(arrive, t.twStartMin[c]!);
    waited += begin - arrive;
    const late = begin - t.twEndMin[c]!;
    bound = Math.min(bound, late <= EPS ? waited - late : waited);
    clock = begin + t.serviceMin[c]!;
    prev = c;
  }
  const arriveEnd = clock + distanceBetween(p, prev, end) / speed;
  const lateEnd = arriveEnd - arrivalClose(p, v);
  bound = Math.min(bound, lateEnd <= EPS ? waited - lateEnd : waited, waited);
  return Math.max(0, bound);
}

/**
 * The schedule of vehicle `v` driving a non-empty `route` under the time dimension: leaves as
 * late as avoids waiting, serves each customer at its window's opening or on arrival, and
 * returns to its end node. Problems with travel rules go through travel-schedule.ts.
 */
export function timeRoute(p: CompiledProblem, v: number, route: ArrayLike<number>, len: number, schedule?: RouteSchedule): RouteTimes {
  if (p.travel) return timeTravelRoute(p, v, route, len, schedule);
  const t = p.time!;
  const start = p.startNode[v]!;
  const end = p.endNode[v]!;
  let lateMinutes = 0;
  const speed = t.speed[v]!;
  // The start node's window opening, or the vehicle's shift start when later (evaluate-rules.ts).
  let departureMin = departureOpen(p, v);
  departureMin += departureDelay(p, v, route, len, departureMin);
  // A shift that starts after the start node closes: lateness at the start.
  if (p.rules && departureMin > t.twEndMin[start]!) lateMinutes += departureMin - t.twEndMin[start]!;
  let clock = departureMin;
  let prev = start;
  let cumulativeLoad = 0;
  if (schedule) {
    schedule.nodes = [start];
    schedule.arrive = [departureMin];
    schedule.leave = [departureMin];
    schedule.loads = [0];
  }
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    const arrive = clock + distanceBetween(p, prev, c) / speed;
    const begin = Math.max(arrive, t.twStartMin[c]!);
    lateMinutes += Math.max(0, begin - t.twEndMin[c]!);
    clock = begin + t.serviceMin[c]!;
    cumulativeLoad += p.demand[c]!;
    if (schedule) {
      schedule.nodes.push(c);
      schedule.arrive.push(arrive);
      schedule.leave.push(clock);
      schedule.loads.push(cumulativeLoad);
    }
    prev = c;
  }
  const arriveEnd = clock + distanceBetween(p, prev, end) / speed;
  lateMinutes += Math.max(0, arriveEnd - arrivalClose(p, v));
  if (schedule) {
    schedule.nodes.push(end);
    schedule.arrive.push(arriveEnd);
    schedule.leave.push(arriveEnd);
    schedule.loads.push(cumulativeLoad);
  }
  const durationMin = arriveEnd - departureMin;
  const durationExcessMin = Math.max(0, durationMin - durationCap(p, v));
  if (lateMinutes < 1e-7) lateMinutes = 0;
  const latePenalty = t.latePenaltyPerMin > 0 ? lateMinutes * t.latePenaltyPerMin : 0;
  return { lateMinutes, latePenalty, durationMin, durationExcessMin, departureMin };
}
