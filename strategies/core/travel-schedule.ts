import { arrivalClose, departureOpen, durationCap } from "./evaluate-rules.js";
import type { BreakRule, CompiledProblem } from "./problem.js";
import type { PlacedBreak, RouteSchedule, RouteTimes } from "./schedule-types.js";
import { placeBreaks } from "./break-placement.js";
import { lateAt, legMinutes, returnsToEnd, serviceBegin, windowEndAt } from "./travel.js";

const EPS = 1e-9;
const NO_BREAKS: readonly BreakRule[] = [];
const NO_PLACEMENT = new Int32Array(0);

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
    const begin = serviceBegin(p, c, arrive);
    const late = lateAt(p, c, begin);
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
 * earliest reachable window, breaks placed by break-placement.ts (fewest missed, then least late,
 * then earliest), no last leg on an open route.
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
  if (delay <= 0 || (p.travel!.breaks[v] ?? NO_BREAKS).length === 0) return walk(p, v, route, len, open + delay, schedule);
  // The delay is reckoned without breaks, which push the visits after them later: leaving later may
  // then miss a break or make a visit late. Leave later only when that costs neither.
  const later = walk(p, v, route, len, open + delay);
  const early = walk(p, v, route, len, open);
  const keepsLater = later.missedBreaks! <= early.missedBreaks! && later.lateMinutes <= early.lateMinutes + EPS;
  // The walk is a function of its departure: walked again only to fill in the schedule.
  if (!schedule) return keepsLater ? later : early;
  return walk(p, v, route, len, keepsLater ? open + delay : open, schedule);
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
  const placement = breaks.length > 0 ? placeBreaks(p, v, route, len, departure, breaks) : NO_PLACEMENT;
  const placed: PlacedBreak[] = [];
  let next = 0;
  let missed = 0;
  let missedMinutes = 0;
  let breakMinutes = 0;
  // The breaks placed at `position` (0: the start node, k: the k-th stop), taken when ready at `ready`.
  const takeBreaks = (position: number, at: number, ready: number): number => {
    while (next < breaks.length && (placement[next] === -1 || placement[next] === position)) {
      const b = breaks[next]!;
      const startAt = Math.max(ready, b.earliest);
      next++;
      if (placement[next - 1] === -1 || startAt > b.latest + EPS) {
        missed++;
        missedMinutes += b.duration + 1;
        continue;
      }
      placed.push({ start: startAt, end: startAt + b.duration, afterNode: at });
      breakMinutes += b.duration;
      ready = startAt + b.duration;
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
  let clock = takeBreaks(0, start, departure);
  let prev = start;
  let cumulativeLoad = 0;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    const arrive = clock + legMinutes(p, v, prev, c);
    const begin = serviceBegin(p, c, arrive);
    lateMinutes += lateAt(p, c, begin);
    clock = begin + t.serviceMin[c]!;
    cumulativeLoad += p.demand[c]!;
    begins.push(begin);
    if (schedule) {
      schedule.nodes.push(c);
      schedule.arrive.push(arrive);
      schedule.leave.push(clock);
      schedule.loads.push(cumulativeLoad);
    }
    clock = takeBreaks(k + 1, c, clock);
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
