import type { CompiledProblem } from "./problem.js";
import { lateAt, legArrival, legDeparture, returnsToEnd, serviceBegin, windowEndAt } from "./travel.js";

const EPS = 1e-9;

/** Per stop the latest service start, reused between calls (the search times many candidates). */
let scratch = new Float64Array(64);

/**
 * Under traffic, the departure delay from the start node of travel-schedule.ts's rule: the latest
 * departure from which the route still finishes when it does leaving at `departure` (the earliest)
 * and every visit stays in the window it is served in (a late one no later than it is). Legs
 * are not shifted by the delay, as without traffic, but timed backwards from the finish through
 * the inverse of each leg's arrival function, which is exact because that function increases.
 */
export function trafficDepartureDelay(p: CompiledProblem, v: number, route: ArrayLike<number>, len: number, departure: number): number {
  const t = p.time!;
  const start = p.startNode[v]!;
  if (scratch.length < len) scratch = new Float64Array(2 * len);
  const latest = scratch;
  let prev = start;
  let clock = departure;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    const begin = serviceBegin(p, c, legArrival(p, v, prev, c, clock));
    // The latest start that keeps the visit in its window, or no later than it is when late.
    latest[k] = lateAt(p, c, begin) <= EPS ? windowEndAt(p, c, begin) : begin;
    clock = begin + t.serviceMin[c]!;
    prev = c;
  }
  // Leaving the last stop no later than it is left now keeps the finish where it is.
  let leaveBy = clock;
  if (returnsToEnd(p, v)) {
    const end = p.endNode[v]!;
    leaveBy = legDeparture(p, v, prev, end, legArrival(p, v, prev, end, clock));
  }
  for (let k = len - 1; k >= 0; k--) {
    const c = route[k]!;
    const beginBy = Math.min(leaveBy - t.serviceMin[c]!, latest[k]!);
    leaveBy = legDeparture(p, v, k > 0 ? route[k - 1]! : start, c, beginBy);
  }
  const bound = Math.min(leaveBy, t.twEndMin[start]!) - departure;
  return Math.max(0, bound);
}
