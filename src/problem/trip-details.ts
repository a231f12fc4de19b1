import type { components } from "../../generated/api.js";
import type { RouteSchedule } from "../../strategies/core/evaluator.js";
import { isReloadStop } from "../../strategies/core/evaluate-trips.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { UNLIMITED_RELOADS } from "./compile-trips.js";
import { withoutDust } from "./message-numbers.js";

type RouteDetail = components["schemas"]["RouteDetail"];
type Trip = NonNullable<RouteDetail["trips"]>[number];

/** Whether schedule position k (not the start or end node) is a reload stop of vehicle v. */
export function isStopAt(p: CompiledProblem, v: number, schedule: RouteSchedule, k: number): boolean {
  return p.trips != null && k > 0 && k < schedule.nodes.length - 1 && isReloadStop(p.trips, v, schedule.nodes[k]!);
}

/**
 * The several-trips part of a route's details (constraints.md, "Plans that change during the
 * day"): the reload count beside the vehicle's limit, and each trip split at the reload stops,
 * with its customers, load, departure from its depot and largest release time. Nothing for a
 * request without reload nodes or release times.
 */
export function tripDetails(p: CompiledProblem, v: number, schedule: RouteSchedule): Partial<RouteDetail> {
  const trips = p.trips;
  if (!trips) return {};
  const nodes = schedule.nodes;
  const list: Trip[] = [];
  const open = (k: number): Trip => ({
    from_node: nodes[k]!,
    stops: 0,
    load: 0,
    departure_minutes: p.time ? withoutDust(schedule.leave[k]!) : null,
    release_minutes: null,
  });
  let trip = open(0);
  for (let k = 1; k < nodes.length - 1; k++) {
    if (isStopAt(p, v, schedule, k)) {
      list.push(trip);
      trip = open(k);
      continue;
    }
    const c = nodes[k]!;
    trip.stops++;
    trip.load = withoutDust(trip.load + p.demand[c]!);
    if (trips.release) trip.release_minutes = Math.max(trip.release_minutes ?? 0, trips.release[c]!);
  }
  list.push(trip);
  const limit = trips.maxReloads[v]!;
  return { reloads: list.length - 1, max_reloads: limit === UNLIMITED_RELOADS ? null : limit, trips: list };
}
