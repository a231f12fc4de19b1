import type { Budget } from "../core/budget.js";
import { travelRefusal } from "../core/travel.js";
import { withOpenEnd } from "../search/open-routes.js";
import { denseMatrixRefusal, type CompiledProblem, type Solution } from "../core/problem.js";
import { STRATEGY_FEATURES, TRAVEL_FEATURES, type Strategy, type StrategyFeature } from "../core/strategy.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { evaluateSolution } from "../core/evaluator.js";
import { geneticSearch } from "../genetic/genetic-search.js";
import { iteratedLocalSearch } from "../ils/iterated-local-search.js";
import { startingPrices } from "../ils/identical-vehicles-ils.js";
import { optionalStart } from "../ils/optional-start.js";
import { buildModel, initialPenalties } from "../search/identical-vehicles-model.js";
import type { ProblemData } from "../search/problem-data.js";
import { buildBackhaulModel } from "../search/backhaul-model.js";
import { completeRoutes as complete } from "../search/identical-vehicles/solutions.js";
import { hgsSettings } from "../settings.js";
import { buildsOwnMatrix, withDenseMatrix } from "./whole-matrix.js";
import { tripSearch, tripsRefusal } from "./trips.js";

/**
 * The strong search, for every problem: this plugin only chooses the method. One depot,
 * identical vehicles and hard windows (the identical-vehicles case): the hybrid genetic search
 * (genetic/genetic-search.ts); windows that cannot bind before the depot closes are a duration
 * cap, binding hard windows are priced by time warp (Vidal et al. 2013, search/time-segment.ts).
 * Above ITERATED_SEARCH_ABOVE customers without binding windows, and above
 * WINDOWS_ITERATED_ABOVE with them, or when the whole solve's budget is short for the size
 * (CAPACITY_ and WINDOWS_GENETIC_SECONDS_PER_CUSTOMER; strategies/settings.ts), where a generation costs too much to
 * evolve a population in the time given, the iterated local search around the same local search
 * (ils/iterated-local-search.ts on that model, ils/identical-vehicles-ils.ts). Optional stops
 * (node_skip_penalties, allow_unassigned) when they are the only rules: that same iterated local
 * search at every size, with moves that serve and leave out
 * customers (operators/insert-unserved.ts, remove-optional.ts). Everything else (mixed fleets, several depots or
 * different start and end nodes, speeds, soft windows, and the load rules of constraints.md:
 * pickups, backhauls, shipments, extra dimensions; skills, shifts and route limits): giant-tour split no longer fits, so the
 * iterated local search around the general granular local search (ils/per-vehicle-ils.ts) that
 * prices every route on its own vehicle; except backhauls on an identical-vehicles fleet, which PyVRP's
 * transformation (search/backhaul-model.ts) hands to the identical-vehicles model.
 */
/** The travel features its search honours (core/travel.ts); it declines the others. */
const HGS_TRAVEL: readonly StrategyFeature[] = [
  "duration_matrix",
  "profiles",
  "profile_distances",
  "time_costs",
  "open_routes",
  "several_windows",
  "breaks",
  "traffic",
];
const HGS_FEATURES: readonly StrategyFeature[] = STRATEGY_FEATURES.filter(
  (f) => !(TRAVEL_FEATURES as readonly string[]).includes(f) || HGS_TRAVEL.includes(f),
);

export const hgs: Strategy = {
  name: "hgs",
  kind: "search",
  // Medium problems on the iterated search: several searches of the whole problem, best kept (ils/exchange.ts).
  cooperative: true,
  features: HGS_FEATURES,
  supports(p) {
    const refusal =
      (buildsOwnMatrix(p) ? null : denseMatrixRefusal(p, "hgs")) ??
      travelRefusal(p, "hgs", HGS_FEATURES) ??
      tripsRefusal(p) ??
      visitTripsRefusal(p);
    if (refusal) return { ok: false, reason: refusal };
    if (p.customers.length < 2) return { ok: false, reason: "hgs needs at least two customers" };
    if (p.vehicleCount === 0) return { ok: false, reason: "there are no vehicles" };
    return { ok: true };
  },
  solve(given: CompiledProblem, budget: Budget, initial?: Solution): Solution {
    // Identical-vehicles windows above 3,000 nodes given by coordinates: the matrix, built here (whole-matrix.ts).
    const p = buildsOwnMatrix(given) ? withDenseMatrix(given) : given;
    // Reload stops and release times: the general search on the problem with reload copies.
    if (p.trips) return tripSearch(p, budget, initial);
    // Travel rules: the general search, whose route model reads each vehicle's travel minutes
    // (search/problem-data.ts), prices time costs, takes several windows and breaks from the
    // evaluator's schedule (search/routes.ts); open routes end at a free extra depot.
    if (p.travel) return iteratedLocalSearch(withOpenEnd(p), budget, initial);
    // Ride times, incompatible goods and same-vehicle groups: the general search's route model
    // prices them (search/route-visits.ts).
    if (p.visits) return iteratedLocalSearch(p, budget, initial);
    // Locked stops and the reassignment cost are rules of the general search's route model
    // (search/route-locks.ts, search/route-reassignment.ts).
    if (p.locks || p.reassignment) return iteratedLocalSearch(p, budget, initial);
    // The largest workload is priced by the general search's route model (search/route-balance.ts).
    if (p.balance) return iteratedLocalSearch(p, budget, initial);
    const outcome = buildModel(p);
    if (!outcome.ok) {
      // Backhauls on an identical-vehicles fleet: the identical-vehicles iterated search on PyVRP's transformation
      // (search/backhaul-model.ts), at any size.
      const backhauls = buildBackhaulModel(p);
      if (backhauls.ok)
        return iteratedLocalSearch(p, budget, {
          model: backhauls.model,
          routes: complete(backhauls.model, startRoutes(p, backhauls.model, initial)),
          penalties: initialPenalties(backhauls.model),
        });
      // Mixed fleets, several depots, speeds and soft windows: the iterated local search priced per vehicle.
      return iteratedLocalSearch(p, budget, initial);
    }
    const m = outcome.model;
    // A caller's starting plan marks a sub-search (a decomposition's group, a re-plan): its method
    // follows the size alone, as measured there.
    const seconds = initial ? null : budget.givenSeconds;
    // Optional stops (ProblemData.skipPrice): of the identical-vehicles methods only the iterated local search
    // (its moves and recreate) leaves customers out, and it is ahead of the general search there
    // (BENCHMARKS.md, PCVRPTW); a benchmark's override may still force it.
    if (m.skipPrice) {
      if (hgsSettings(m.customers.length, budget.overrides, seconds).optionalStopsMethod === "general")
        return iteratedLocalSearch(p, budget, initial);
      // Not the savings of every customer alone: see ils/optional-start.ts.
      const prices = initialPenalties(m);
      return iteratedLocalSearch(p, budget, {
        model: m,
        routes: initial ? startRoutes(p, m, initial) : optionalStart(p, m, startingPrices(m, prices), budget.rng),
        penalties: prices,
      });
    }
    const start = startRoutes(p, m, initial);
    const settings = hgsSettings(m.customers.length, budget.overrides, seconds, evaluateSolution(p, { routes: start }).feasible);
    // By size and budget, with or without binding windows (strategies/settings.ts).
    const method = m.windows === null ? settings.capacityMethod : settings.windowsMethod;
    if (method === "general") return iteratedLocalSearch(p, budget, initial);
    if (method === "iterated")
      return iteratedLocalSearch(p, budget, { model: m, routes: complete(m, start), penalties: initialPenalties(m) });
    return geneticSearch(p, m, budget, complete(m, start), settings.offspringSearch);
  },
};

/**
 * A caller's starting solution (e.g. the current routes of a decomposed large problem; it may be
 * partial or infeasible) takes the savings' place.
 */
function startRoutes(p: CompiledProblem, m: ProblemData, initial?: Solution): number[][] {
  return initial ? initial.routes.map((r) => r.filter((c) => c >= 0 && c < m.nodeCount && !p.isDepot[c])) : clarkeWrightSolution(p).routes;
}

/** Reload copies (hgs/trips.ts) add nodes that the visit rules' per-node arrays do not cover. */
function visitTripsRefusal(p: CompiledProblem): string | null {
  if (!p.visits || !p.trips) return null;
  return (
    "hgs does not yet combine max_ride_minutes, incompatible_load_types or same_vehicle_groups " +
    "with vehicle_reload_nodes or node_release_times"
  );
}
