import type { Budget } from "../core/budget.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import { iteratedLocalSearch } from "../ils/iterated-local-search.js";
import { copiesBack, copiesOf, expandTrips } from "../search/trip-copies.js";
import { withPlanRules } from "../search/trip-plans.js";
import { solverNow } from "../core/clock.js";
import { restoreFeasibility } from "../core/feasibility.js";
import { plansTrips, timeOrientedTrips } from "../core/time-oriented-trips.js";

/** Nodes up to which problems with reload stops are searched (their expanded problem holds a full matrix with the copies). */
export const TRIPS_MAX_NODES = 2000;
/**
 * Share of the budget after which a search from nothing that has no feasible plan yet starts again
 * from a feasible plan made by the feasibility phase (core/feasibility.ts). Where the search from
 * nothing finds feasible plans it ends lower than from such a plan; on a day with little time to
 * spare it can keep time warp it never removes (BENCHMARKS.md, "Several trips: generated multi-trip
 * days side by side").
 */
const RESTART_AFTER = 0.25;

/** Share of the budget left at RESTART_AFTER that the trip repair (core/trip-repair.ts) may take. */
const REPAIR_SHARE = 0.2;

/** hgs's refusal of a problem with trips too large for the expanded problem's matrix; null otherwise. */
export function tripsRefusal(p: CompiledProblem): string | null {
  if (!p.trips) return null;
  if (p.travel) return "hgs does not yet search the travel fields together with vehicle_reload_nodes or node_release_times";
  if (p.nodeCount <= TRIPS_MAX_NODES) return null;
  return `vehicle_reload_nodes and node_release_times are searched up to ${TRIPS_MAX_NODES} nodes (got ${p.nodeCount})`;
}

/**
 * Several trips and release times: the iterated local search, priced per vehicle, on the problem with reload
 * copies (search/trip-copies.ts), whose route model prices trips (search/route-trips.ts) and keeps
 * the given plan's locked stops (reload stops among them) and reassignment cost; the best
 * solutions it reports and returns are mapped back to the request's nodes. Without a given plan it
 * starts from nothing, and again when it has no feasible plan by RESTART_AFTER of the
 * budget: from the feasibility phase's plan (core/feasibility.ts: the time-oriented plan, or the
 * trip repair of the search's answer or of that plan), else from the time-oriented plan.
 */
export function tripSearch(p: CompiledProblem, budget: Budget, initial?: Solution): Solution {
  if (initial || !plansTrips(p)) return searchFrom(p, budget, initial);
  const fromNothing = budget.searchUntilFeasible(RESTART_AFTER, () => searchFrom(p, budget));
  if (!fromNothing.stopped) return fromNothing.result;
  // The trip repair of the search's answer (or of the time-oriented plan), within a share of what is left.
  const until = solverNow() + REPAIR_SHARE * Math.max(0, budget.deadlineMs - solverNow());
  return searchFrom(p, budget, restoreFeasibility(p, budget, fromNothing.result, until) ?? timeOrientedTrips(p));
}

/** The search on the problem with reload copies, from `initial` (mapped onto the copies) or from nothing. */
function searchFrom(p: CompiledProblem, budget: Budget, initial?: Solution): Solution {
  const expanded = expandTrips(p, initial);
  // Without a start, from nothing (the savings plan no reload stops): the search's recreate builds it.
  const start = initial ? copiesOf(p, expanded, initial) : { routes: [] };
  // Locked heads and the reassignment cost, on the copies the plan's reload stops were mapped to.
  const q = withPlanRules(p, expanded, start);
  const restore = budget.mapImprovements((best) => copiesBack(p, q, best));
  try {
    return copiesBack(p, q, iteratedLocalSearch(q, budget, start));
  } finally {
    restore();
  }
}
