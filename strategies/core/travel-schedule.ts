import { arrivalClose, departureOpen, durationCap } from "./evaluate-rules.js";
import type { BreakRule, CompiledProblem } from "./problem.js";
import type { PlacedBreak, RouteSchedule, RouteTimes } from "./schedule-types.js";
import { legMinutes, returnsToEnd, serviceStart, windowEndAt } from "./travel.js";

const EPS = 1e-9;
const NO_BREAKS: readonly BreakRule[] = [];

/**
 * Departure delay from the start node that removes waiting without moving any visit out of the
 * window it is served in (or making it later than it is): schedule.ts's rule, on the vehicle's
 * own travel minutes and windows. Breaks are placed afterwards.
 */
function travelDepartureDelay(p: CompiledProblem, v: number, route: ArrayLike<number>, len: number, departure: number): number {
  const t = p.time!;
  const start = p.startNode[v]!;
  let bound = t.twEndMin[start]! - departure;
  let prev = start;
  let clock = departure;
  let waited = 0;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    const arrive = clock + legMinutes(p, v, prev, c);
    const { begin, late } = serviceStart(p, c, arrive);
    waited += begin - arrive;
    bound = Math.min(bound, late <= EPS ? waited + windowEndAt(p, c, begin) - begin : waited);
    clock = begin + t.serviceMin[c]!;
    prev = c;
  }
  if (returnsToEnd(p, v)) {
    const lateEnd = clock + legMinutes(p, v, prev, p.endNode[v]!) - arrivalClose(p, v);
    bound = Math.min(bound, lateEnd <= EPS ? waited - lateEnd : waited);
  }
  return Math.max(0, Math.min(bound, waited));
}

/**
 * The schedule under travel rules: travel minutes from the vehicle's network, service in the
 * earliest reachable window, breaks placed where they cost least, no last leg on an open route.
 * A break is taken at a stop (after service, the start node before departure) when it would
 * find no later place inside its window, or when it fits in the waiting before the next service.
 */
export function timeTravelRoute(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  schedule?: RouteSchedule,
): RouteTimes {
  const open = departureOpen(p, v);
  const delay = travelDepartureDelay(p, v, route, len, open);
  const times = walk(p, v, route, len, open + delay, schedule);
  // Leaving later may leave a break no place: then leave as early as allowed.
  if (times.missedBreaks! > 0 && delay > 0) return walk(p, v, route, len, open, schedule);
  return times;
}

function walk(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  departure: number,
  schedule?: RouteSchedule,
): RouteTimes {
  const t = p.time!;
  const tr = p.travel!;
  const start = p.startNode[v]!;
  const end = p.endNode[v]!;
  const back = returnsToEnd(p, v);
  const breaks = tr.breaks[v] ?? NO_BREAKS;
  const placed: PlacedBreak[] = [];
  let next = 0;
  let missed = 0;
  let missedMinutes = 0;
  let breakMinutes = 0;
  // Takes the breaks due at node `at` when ready to leave at `ready` for `to` (-1: nowhere further).
  const takeBreaks = (at: number, ready: number, to: number): number => {
    while (next < breaks.length) {
      const b = breaks[next]!;
      const startAt = Math.max(ready, b.earliest);
      if (startAt > b.latest + EPS) {
        missed++;
        missedMinutes += b.duration + 1;
        next++;
        continue;
      }
      let now = to < 0 || to === end;
      if (!now) {
        const arrive = ready + legMinutes(p, v, at, to);
        const begin = serviceStart(p, to, arrive).begin;
        // Postponed, it would start after the next service at the earliest.
        const later = Math.max(begin + t.serviceMin[to]!, b.earliest);
        const waitFits = startAt + b.duration + legMinutes(p, v, at, to) <= begin + EPS;
        now = later > b.latest + EPS || waitFits;
      }
      if (!now) return ready;
      placed.push({ start: startAt, end: startAt + b.duration, afterNode: at });
      breakMinutes += b.duration;
      ready = startAt + b.duration;
      next++;
    }
    return ready;
  };

  let lateMinutes = 0;
  if (p.rules && departure > t.twEndMin[start]!) lateMinutes += departure - t.twEndMin[start]!;
  const begins: number[] = [departure];
  if (schedule) {
    schedule.nodes = [start];
    schedule.arrive = [departure];
    schedule.leave = [departure];
    schedule.loads = [0];
  }
  let clock = takeBreaks(start, departure, len > 0 ? route[0]! : back ? end : -1);
  let prev = start;
  let cumulativeLoad = 0;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    const arrive = clock + legMinutes(p, v, prev, c);
    const { begin, late } = serviceStart(p, c, arrive);
    lateMinutes += late;
    clock = begin + t.serviceMin[c]!;
    cumulativeLoad += p.demand[c]!;
    begins.push(begin);
    if (schedule) {
      schedule.nodes.push(c);
      schedule.arrive.push(arrive);
      schedule.leave.push(clock);
      schedule.loads.push(cumulativeLoad);
    }
    clock = takeBreaks(c, clock, k + 1 < len ? route[k + 1]! : back ? end : -1);
    prev = c;
  }
  for (let k = next; k < breaks.length; k++) missedMinutes += breaks[k]!.duration + 1;
  missed += breaks.length - next;
  let finish = clock;
  if (back) {
    finish = clock + legMinutes(p, v, prev, end);
    lateMinutes += Math.max(0, finish - arrivalClose(p, v));
    begins.push(finish);
    if (schedule) {
      schedule.nodes.push(end);
      schedule.arrive.push(finish);
      schedule.leave.push(finish);
      schedule.loads.push(cumulativeLoad);
    }
  }
  if (schedule) {
    schedule.begin = begins;
    schedule.breaks = placed;
  }
  const durationMin = finish - departure;
  if (lateMinutes < 1e-7) lateMinutes = 0;
  return {
    lateMinutes,
    latePenalty: t.latePenaltyPerMin > 0 ? lateMinutes * t.latePenaltyPerMin : 0,
    durationMin,
    durationExcessMin: Math.max(0, durationMin - durationCap(p, v)),
    departureMin: departure,
    breakMinutes,
    missedBreaks: missed,
    missedBreakMinutes: missedMinutes,
    timeCost: tr.timeCostPerMin[v]! * durationMin,
  };
}
