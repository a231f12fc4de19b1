import type { LockedStops, Reassignment, Solution } from "../../strategies/core/problem.js";
import type { PlanFields } from "./constraint-fields.js";

/**
 * The locked heads of the routes (vehicle_locked_stops over initial_routes; input already
 * validated), or null when no vehicle locks a stop, so that such a request compiles exactly as
 * before the field existed.
 */
export function compileLockedStops(req: PlanFields, n: number, m: number, isDepot: Uint8Array): LockedStops | null {
  const counts = req.vehicle_locked_stops;
  if (!counts || !req.initial_routes || counts.every((k) => !k)) return null;
  const vehicle = new Int32Array(n).fill(-1);
  const position = new Int32Array(n);
  const stops = Array.from({ length: m }, (_, v) => {
    const head = (req.initial_routes![v] ?? []).slice(0, counts[v] ?? 0);
    head.forEach((c, k) => {
      // A reload stop in a locked head is kept by its place in the head, not as a locked customer.
      if (isDepot[c]) return;
      vehicle[c] = v;
      position[c] = k + 1;
    });
    return Int32Array.from(head);
  });
  return { stops, vehicle, position };
}

/**
 * Every stop's vehicle in initial_routes and the reassignment_cost of serving it on another one,
 * or null when that cost is absent or 0, so that such a request compiles exactly as before.
 */
export function compileReassignment(req: PlanFields, n: number, isDepot: Uint8Array): Reassignment | null {
  const price = req.reassignment_cost ?? 0;
  if (!(price > 0) || !req.initial_routes) return null;
  const home = new Int32Array(n).fill(-1);
  // Reload stops (depots) of the plan have no home: they serve nobody.
  req.initial_routes.forEach((route, v) => (route ?? []).forEach((c) => (home[c] = isDepot[c] ? -1 : v)));
  return { home, price };
}

/** The request's initial_routes as a solution (one list per vehicle; null is an unused vehicle); null without them. */
export function initialSolution(req: PlanFields, m: number): Solution | null {
  const given = req.initial_routes;
  if (!given) return null;
  return { routes: Array.from({ length: m }, (_, v) => (given[v] ?? []).slice()) };
}
