import { checkRouteLoads, type OnBoardLoads } from "./evaluate-loads.js";
import { keepsLocks } from "./evaluate-locks.js";
import { arrivalClose, departureOpen, durationCap, routeRuleExcess } from "./evaluate-rules.js";
import { distanceBetween, type CompiledProblem, type TripRules } from "./problem.js";
import type { RouteScore } from "./route-score.js";
import type { RouteSchedule } from "./schedule-types.js";

/**
 * The evaluator's part for several trips and release times (constraints.md, "Plans that change
 * during the day"; CompiledProblem.trips). A route may hold its vehicle's reload nodes between
 * customers: each ends a trip, capacity holds per trip, and the next trip starts empty. A trip
 * leaves its depot (the start node, or the reload stop before it) no earlier than the largest
 * release time of its customers; a reload stop takes no service and is left at the latest of the
 * arrival, its window's opening and that release time, late like a customer when that is after
 * its window closes. evaluator.ts hands every route of a problem with trips to evaluateTripRoute.
 */

const EPS = 1e-9;

/** A route's score with its reload stops and how many exceed the vehicle's limit. */
export type TripRouteScore = RouteScore & { reloads: number; reloadsExcess: number };

/** Whether `node` is one of vehicle v's reload nodes (a reload stop when it is inside v's route). */
export function isReloadStop(trips: TripRules, v: number, node: number): boolean {
  return trips.reloadNodes[v]!.includes(node);
}

/**
 * Per route position k (0..len-1) that is a reload stop, the release time of the trip that leaves
 * it; at index len, the first trip's (left from the start node). -Infinity: nothing to wait for.
 */
export function tripReleases(trips: TripRules, v: number, route: ArrayLike<number>, len: number): Float64Array {
  const out = new Float64Array(len + 1).fill(Number.NEGATIVE_INFINITY);
  const release = trips.release;
  if (!release) return out;
  let rel = Number.NEGATIVE_INFINITY;
  for (let k = len - 1; k >= 0; k--) {
    const c = route[k]!;
    if (isReloadStop(trips, v, c)) {
      out[k] = rel;
      rel = Number.NEGATIVE_INFINITY;
    } else if (release[c]! > rel) rel = release[c]!;
  }
  out[len] = rel;
  return out;
}

/** The visit at position k: its effective opening, closing and service (a reload stop opens no earlier than its trip's release). */
function visitOpen(p: CompiledProblem, reload: boolean, c: number, rel: number): number {
  const open = p.time!.twStartMin[c]!;
  return reload && rel > open ? rel : open;
}

/**
 * Departure delay that removes waiting without making any visit later (evaluator.ts's rule), with
 * reload stops as visits that open at their trip's release and take no service.
 */
function tripDepartureDelay(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  departure: number,
  stop: Uint8Array,
  rel: Float64Array,
): number {
  const t = p.time!;
  const speed = t.speed[v]!;
  let bound = t.twEndMin[p.startNode[v]!]! - departure;
  let prev = p.startNode[v]!;
  let clock = departure;
  let waited = 0;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    const arrive = clock + distanceBetween(p, prev, c) / speed;
    const begin = Math.max(arrive, visitOpen(p, stop[k] === 1, c, rel[k]!));
    waited += begin - arrive;
    const late = begin - t.twEndMin[c]!;
    bound = Math.min(bound, late <= EPS ? waited - late : waited);
    clock = stop[k] === 1 ? begin : begin + t.serviceMin[c]!;
    prev = c;
  }
  const arriveEnd = clock + distanceBetween(p, prev, p.endNode[v]!) / speed;
  const lateEnd = arriveEnd - arrivalClose(p, v);
  bound = Math.min(bound, lateEnd <= EPS ? waited - lateEnd : waited, waited);
  return Math.max(0, bound);
}

/** Scores vehicle v driving `route` (customers and reload stops, `len` entries, non-empty) on a problem with trips. */
export function evaluateTripRoute(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  schedule?: RouteSchedule,
): TripRouteScore {
  const trips = p.trips!;
  const start = p.startNode[v]!;
  const end = p.endNode[v]!;
  const cap = p.capacity[v]!;
  const stop = new Uint8Array(len);
  const customers: number[] = [];
  let distance = 0;
  let load = 0;
  let tripLoad = 0;
  let capacityExcess = 0;
  let reloads = 0;
  let prev = start;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    distance += distanceBetween(p, prev, c);
    prev = c;
    if (isReloadStop(trips, v, c)) {
      stop[k] = 1;
      reloads++;
      capacityExcess += Math.max(0, tripLoad - cap);
      tripLoad = 0;
      continue;
    }
    customers.push(c);
    load += p.demand[c]!;
    tripLoad += p.demand[c]!;
  }
  distance += distanceBetween(p, prev, end);
  capacityExcess += Math.max(0, tripLoad - cap);
  const loadCheck =
    p.loads && reloads === 0 ? checkRouteLoads(p, p.loads, v, route, len, schedule as (RouteSchedule & OnBoardLoads) | undefined) : null;
  if (loadCheck) capacityExcess = loadCheck.excess;
  const reloadsExcess = Math.max(0, reloads - trips.maxReloads[v]!);

  let lateMinutes = 0;
  let durationMin = 0;
  let durationExcessMin = 0;
  let departureMin = 0;
  const t = p.time;
  if (schedule) {
    schedule.nodes = [start];
    schedule.arrive = [0];
    schedule.leave = [0];
    schedule.loads = [0];
  }
  let clock = 0;
  prev = start;
  tripLoad = 0;
  if (t) {
    const rel = tripReleases(trips, v, route, len);
    departureMin = Math.max(departureOpen(p, v), rel[len]!);
    departureMin += tripDepartureDelay(p, v, route, len, departureMin, stop, rel);
    lateMinutes += Math.max(0, departureMin - t.twEndMin[start]!);
    clock = departureMin;
    if (schedule) schedule.arrive[0] = schedule.leave[0] = departureMin;
    const speed = t.speed[v]!;
    for (let k = 0; k < len; k++) {
      const c = route[k]!;
      const arrive = clock + distanceBetween(p, prev, c) / speed;
      const begin = Math.max(arrive, visitOpen(p, stop[k] === 1, c, rel[k]!));
      lateMinutes += Math.max(0, begin - t.twEndMin[c]!);
      clock = stop[k] === 1 ? begin : begin + t.serviceMin[c]!;
      tripLoad = stop[k] === 1 ? 0 : tripLoad + p.demand[c]!;
      schedule?.nodes.push(c);
      schedule?.arrive.push(arrive);
      schedule?.leave.push(clock);
      schedule?.loads.push(tripLoad);
      prev = c;
    }
    const arriveEnd = clock + distanceBetween(p, prev, end) / speed;
    lateMinutes += Math.max(0, arriveEnd - arrivalClose(p, v));
    clock = arriveEnd;
    durationMin = arriveEnd - departureMin;
    durationExcessMin = Math.max(0, durationMin - durationCap(p, v));
    if (lateMinutes < 1e-7) lateMinutes = 0;
  } else if (schedule) {
    for (let k = 0; k < len; k++) {
      tripLoad = stop[k] === 1 ? 0 : tripLoad + p.demand[route[k]!]!;
      schedule.nodes.push(route[k]!);
      schedule.arrive.push(0);
      schedule.leave.push(0);
      schedule.loads.push(tripLoad);
    }
  }
  if (schedule) {
    schedule.nodes.push(end);
    schedule.arrive.push(clock);
    schedule.leave.push(clock);
    schedule.loads.push(tripLoad);
  }
  const latePenalty = t && t.latePenaltyPerMin > 0 ? lateMinutes * t.latePenaltyPerMin : 0;
  const hardLate = t !== null && t.latePenaltyPerMin <= 0 && lateMinutes > 1e-7;
  const cost = p.fixedCost[v]! + p.unitCost[v]! * distance + latePenalty;
  const { distanceExcess, stopsExcess, forbidden } = routeRuleExcess(p, v, customers, customers.length, distance);
  const feasible =
    capacityExcess <= 1e-9 &&
    !hardLate &&
    durationExcessMin <= 1e-7 &&
    distanceExcess <= 1e-9 &&
    stopsExcess === 0 &&
    forbidden === 0 &&
    reloadsExcess === 0 &&
    keepsLocks(p, v, route, len) &&
    (loadCheck === null || loadCheck.orderViolations === 0);
  return {
    distance,
    cost,
    load,
    capacityExcess,
    lateMinutes,
    latePenalty,
    durationMin,
    durationExcessMin,
    departureMin,
    distanceExcess,
    stopsExcess,
    forbidden,
    reloads,
    reloadsExcess,
    ...(loadCheck ? { peakOnBoard: loadCheck.peakOnBoard, orderViolations: loadCheck.orderViolations } : {}),
    feasible,
  };
}
