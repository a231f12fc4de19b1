import { arrivalClose, departureOpen, durationCap } from "./evaluate-rules.js";
import type { BreakRule, CompiledProblem } from "./problem.js";
import type { PlacedBreak, RouteSchedule, RouteTimes } from "./schedule-types.js";
import { BreakStates } from "./break-states.js";
import { lateAt, legArrival, legMinutes, returnsToEnd, serviceBegin, windowEndAt } from "./travel.js";
import { trafficDepartureDelay } from "./traffic-departure.js";

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

/** One programme per list of breaks. */
const statesOf = new WeakMap<readonly BreakRule[], BreakStates>();

/**
 * The schedule under travel rules: travel minutes from the vehicle's network, service in the
 * earliest reachable window, no last leg on an open route. Without breaks the vehicle leaves as
 * late as keeps every visit in its window; with them, the breaks fall where break-states.ts's
 * programme puts them from the earliest departure, and the vehicle leaves as late as keeps every
 * visit and every break in its window, so only the duration changes.
 */
export function timeTravelRoute(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  schedule?: RouteSchedule,
): RouteTimes {
  const open = departureOpen(p, v);
  const breaks = p.travel!.breaks[v] ?? NO_BREAKS;
  if (breaks.length === 0) {
    const delay = p.travel!.traffic ? trafficDepartureDelay(p, v, route, len, open) : travelDepartureDelay(p, v, route, len, open);
    return walk(p, v, route, len, open + delay, NO_PLACEMENT, schedule);
  }
  let states = statesOf.get(breaks);
  if (!states) statesOf.set(breaks, (states = new BreakStates(breaks)));
  // Where the breaks fall is read only to fill in a schedule.
  states.tracing = schedule !== undefined;
  const start = p.startNode[v]!;
  states.start(open, p.time!.twEndMin[start]! - open);
  let prev = start;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    states.visit(p, c, legMinutes(p, v, prev, c));
    prev = c;
  }
  const back = returnsToEnd(p, v);
  states.end(back, back ? legMinutes(p, v, prev, p.endNode[v]!) : 0, arrivalClose(p, v));
  if (schedule) return walk(p, v, route, len, open + states.delay, states.placement(), schedule);
  const departure = open + states.delay;
  const lateMinutes = (p.rules && open > p.time!.twEndMin[start]! ? open - p.time!.twEndMin[start]! : 0) + states.lateMinutes;
  return routeTimes(p, v, lateMinutes, departure, states.finish, states.breakMinutes, states.missedCount, states.missedBreakMinutes);
}

/** The figures of a schedule that leaves at `departure` and reaches its end at `finish`. */
function routeTimes(
  p: CompiledProblem,
  v: number,
  late: number,
  departure: number,
  finish: number,
  breakMinutes: number,
  missedBreaks: number,
  missedBreakMinutes: number,
): RouteTimes {
  const t = p.time!;
  const durationMin = finish - departure;
  const lateMinutes = late < 1e-7 ? 0 : late;
  return {
    lateMinutes,
    latePenalty: t.latePenaltyPerMin > 0 ? lateMinutes * t.latePenaltyPerMin : 0,
    durationMin,
    durationExcessMin: Math.max(0, durationMin - durationCap(p, v)),
    departureMin: departure,
    breakMinutes,
    missedBreaks,
    missedBreakMinutes,
    timeCost: p.travel!.timeCostPerMin[v]! * durationMin,
  };
}

/** Drives the route from `departure` with the breaks at `placement` (break-states.ts), filling `schedule`. */
function walk(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  departure: number,
  placement: Int32Array,
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
    const arrive = legArrival(p, v, prev, c, clock);
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
    finish = legArrival(p, v, prev, end, clock);
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
  return routeTimes(p, v, lateMinutes, departure, finish, breakMinutes, missed, missedMinutes);
}
