import type { CompiledProblem } from "../core/problem.js";

/** The identical-vehicles model's neighbourhood (search/identical-vehicles-model.ts): how many granular neighbours each customer has. */

/** Granular neighbours per customer in the identical-vehicles search. */
export const GRANULARITY = 20;
/**
 * Long routes under binding windows: more neighbours, since most of a customer's nearest are then
 * in its own route, which leaves its moves to other routes to a handful of pairs.
 */
export const WINDOWS_GRANULARITY = 40;
/** Customers per route, at the fewest routes the demand needs, from which routes count as long. */
const LONG_ROUTE = 25;
/** Customers above which the long-route settings apply (short routes and small problems do better without). */
const LONG_ROUTES_ABOVE = 200;

export interface NeighbourhoodSettings {
  /** Each customer's granular neighbours: this many nearest (by time-aware proximity under windows). */
  granularity: number;
  /** Long routes under binding windows: the local search's own settings for them (localSearchSettings). */
  longWindowRoutes: boolean;
}

/** The identical-vehicles model's neighbourhood for `p`; `windows`: binding windows priced by time warp on the request's own distances. */
export function neighbourhoodSettings(p: CompiledProblem, windows: boolean): NeighbourhoodSettings {
  const long = windows && longWindowRoutes(p);
  return { granularity: long ? WINDOWS_GRANULARITY : GRANULARITY, longWindowRoutes: long };
}

/**
 * Whether routes are long (longer than LONG_ROUTE customers at the capacity's fewest routes) on a problem of
 * more than LONG_ROUTES_ABOVE customers.
 */
function longWindowRoutes(p: CompiledProblem): boolean {
  const n = p.customers.length;
  if (n <= LONG_ROUTES_ABOVE) return false;
  let demand = 0;
  for (const c of p.customers) demand += p.demand[c]!;
  const fewest = Math.max(1, Math.ceil(demand / p.capacity[0]! - 1e-9));
  return n / fewest >= LONG_ROUTE;
}
