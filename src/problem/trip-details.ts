import type { components } from "../../generated/api.js";
import type { RouteEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { UNLIMITED_RELOADS } from "./compile-trips.js";
import { withoutDust } from "./message-numbers.js";

type RouteDetail = components["schemas"]["RouteDetail"];
type Trip = NonNullable<RouteDetail["trips"]>[number];

/**
 * The several-trips part of a route's details (constraints.md, "Plans that change during the
 * day"): the reload count beside the vehicle's limit, and each trip split at the reload stops,
 * with its customers, load, departure from its depot and largest release time. Nothing for a
 * request without reload nodes or release times.
 */
export function tripDetails(p: CompiledProblem, evaluated: RouteEvaluation): Partial<RouteDetail> {
  const trips = p.trips;
  if (!trips) return {};
  const { schedule, stops } = evaluated;
  const list: Trip[] = [];
  const open = (node: number, leave: number): Trip => ({
    from_node: node,
    stops: 0,
    load: 0,
    departure_minutes: p.time ? withoutDust(leave) : null,
    release_minutes: null,
  });
  let trip = open(schedule.nodes[0]!, schedule.leave[0]!);
  // The last position is the end node (or an open route's last stop, which is a customer).
  for (const stop of stops.slice(0, -1)) {
    if (stop.reload) {
      list.push(trip);
      trip = open(stop.node, stop.leave);
      continue;
    }
    trip.stops++;
    // The evaluator's load is the trip's so far: it starts again at 0 at each reload stop.
    trip.load = withoutDust(stop.load);
    if (trips.release) trip.release_minutes = Math.max(trip.release_minutes ?? 0, trips.release[stop.node]!);
  }
  list.push(trip);
  const limit = trips.maxReloads[evaluated.vehicle]!;
  return { reloads: list.length - 1, max_reloads: limit === UNLIMITED_RELOADS ? null : limit, trips: list };
}
