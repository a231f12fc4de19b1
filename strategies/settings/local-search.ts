import { hasBreaks } from "../core/problem.js";
import type { ProblemData } from "../search/problem-data.js";

/** The local search (search/local-search.ts): how it prices, which moves it makes and which customers it examines, by family. */

/** What a benchmark may change in the local search of either search. */
export interface LocalSearchOverride {
  identicalVehicles?: {
    localised?: IdenticalVehiclesLocalised;
    swapStarLocalised?: SwapStarLocalised;
    /** Whether its localised runs examine the unserved optional customers near a changed one (LocalSearchSettings.unservedNearChanged). */
    unservedNearChanged?: boolean;
  };
  perVehicle?: { emptyTypeOrder?: EmptyTypeOrder; swapStarLocalised?: SwapStarLocalised };
}

/**
 * How the local search prices a candidate (search/pricing/): "identicalVehicles", one vehicle
 * type from one depot (the identical-vehicles model, read as slot 0), from route totals with an absolute
 * tolerance; "perVehicle", any fleet, bounded from totals then exact on each vehicle, relative tolerance.
 */
export type MovePricingKind = "identicalVehicles" | "perVehicle";

export interface LocalSearchSettings {
  pricing: MovePricingKind;
  /**
   * Moves into an empty route. "fromSecondPass": none on a run's first pass, then into the first
   * empty route, for every customer in a full run and in a localised one for a customer whose
   * route changed since it was last examined. "whenRouteChanged": on every pass, for such a
   * customer, into one empty vehicle of each type (empty vehicles of a type are alike).
   */
  emptyRoutes: "fromSecondPass" | "whenRouteChanged";
  /** In which order the empty vehicles of each type are tried, by the moves and by the iterated search's recreate (EmptyTypeOrder). */
  emptyTypeOrder: EmptyTypeOrder;
  /**
   * SWAP* after each pass of a full run (null: never): "allPairs" tests every pair of neighbouring
   * routes on the first pass, "changedPairs" only pairs with a route changed since the pair was
   * last tested, across runs. A localised run tests changed pairs only.
   */
  swapStar: "allPairs" | "changedPairs" | null;
  /** When a localised run (an iterated search's education) tries SWAP*, given swapStar (SwapStarLocalised). */
  swapStarLocalised: SwapStarLocalised;
  /**
   * After each pass a route may move to a free vehicle of another type, or two swap vehicles
   * (moves/vehicle-change.ts, which itself returns at once when the fleet leaves it nothing to do).
   */
  vehicleChange: boolean;
  /** Shipments move whole (moves/pair-*.ts): a stop never moves alone to another route. */
  shipmentMoves: boolean;
  /**
   * Backhauls on the route model (the identical-vehicles model prices them by arcs):
   * moves/linehaul-two-opt-star.ts, backhaul-pairing.ts.
   */
  backhaulMoves: boolean;
  /** Reload stops (search/trip-copies.ts) move within their vehicle's route and enter it when unserved (moves/reload-insert.ts). */
  reloadMoves: boolean;
  /**
   * Optional stops (null: none). "untilRepriced": an unserved stop no insertion improved is tried
   * next only on routes rewritten since, until the prices change, within the insertion bounds
   * (operators/insert-unserved.ts); a served one may leave at every examination.
   * "whenNearbyChanged": an unserved stop is tried when a route next to it changed, every
   * insertion priced (the bounds are not checked against rules); a served one may leave when its
   * route changed.
   */
  optionalStops: "untilRepriced" | "whenNearbyChanged" | null;
  /** Each run and each load examines every customer again; otherwise the marks last until `forget()`. */
  freshRuns: boolean;
  /**
   * Which customers a localised search examines: "promisingCustomers", those of the routes
   * rewritten since the last pass and the customers that list them as neighbours (runLocalised);
   * "changedNeighbours", as runLocalised but of the rewritten routes only the customers whose
   * route neighbours changed; "changedCustomers", those whose route neighbours changed since
   * `focus()` (run).
   */
  localised: IdenticalVehiclesLocalised | "changedCustomers";
  /**
   * With "changedNeighbours" and optional stops: an unserved customer is promising when it lists a
   * changed customer as a granular neighbour, so that a localised run tries to serve it there, as
   * the full runs and "promisingCustomers" do. Without it the iterated search's localised runs on
   * long routes could take optional customers out but never put one back, and only its recreate
   * chose which were served.
   */
  unservedNearChanged: boolean;
}

/**
 * How a customer is offered the empty vehicles of the fleet's types. "cheapest": every type in
 * vehicle order (a move applies each improving one in turn, a recreate takes the cheapest), so a
 * lone customer ends on the type cheapest for it alone. "shuffled": the types in an order drawn
 * afresh for each local-search run and each reinsertion, the first improving one taken. Greedy
 * over types, the cheapest per distance (the smallest vehicles under per-distance costs) opens
 * nearly every new route, and the routes of larger vehicles that would pool those customers are
 * never started; PyVRP orders its empty-route moves at random for the same reason.
 */
export type EmptyTypeOrder = "cheapest" | "shuffled";

/**
 * When a localised run tries SWAP*: "everyPass", after each pass; "idlePass", only after a pass
 * whose customer moves found nothing, since a pass that moved customers is followed by another
 * that rewrites some of the same routes, and SWAP* priced on them again; "never".
 */
export type SwapStarLocalised = "everyPass" | "idlePass" | "never";

/** The localised runs of the identical-vehicles search (LocalSearchSettings.localised). */
export type IdenticalVehiclesLocalised = "promisingCustomers" | "changedNeighbours";

/**
 * The local search for `m` priced as `pricing` says: on identical vehicles (hgs's genetic and
 * iterated searches) the identical-vehicles method's loop, on any fleet (the general iterated search)
 * PyVRP's with the moves of its rules. SWAP* there without time windows or rules, and with
 * skills (skillsWithExactTimes), never with shipments or locks: under windows alone its
 * distance-chosen places mostly fail the exact time check and its tables cost time the other
 * moves use better (MDVRPTW, BENCHMARKS.md); with shipments it would only split pairs; it prices
 * from totals, past the locks. Skills under hard windows try it in the education only after a
 * pass that moved nothing: a pass that moved customers is followed by another that rewrites some of
 * the same routes, which SWAP* (about a third of the search's time there) would price again.
 */
export function localSearchSettings(m: ProblemData, pricing: MovePricingKind, override: LocalSearchOverride = {}): LocalSearchSettings {
  if (pricing === "identicalVehicles") {
    const optionalStops = m.skipPrice ? "untilRepriced" : null;
    const none = { vehicleChange: false, shipmentMoves: false, backhaulMoves: false, reloadMoves: false };
    // Binding windows (every customer required, no backhauls): the iterated search's localised runs
    // leave SWAP* out, as PyVRP's iterated search does; its distance-chosen exchanges mostly fail the
    // exact time check there, and the time it took went to more iterations, level or better on
    // generated VRPTWs. Without windows it stays: on generated CVRPs its exchanges paid for their time.
    const plainWindows = m.windows !== null && m.skipPrice === null && !m.richLoads;
    // Long routes under binding windows (neighbourhoodSettings): a rewritten route's customers and
    // everyone near them were most of the customers after every ruin, and SWAP*'s distance-chosen
    // exchanges nearly always failed the exact time check there while taking a third of the time;
    // both went to more iterations of the other moves (BENCHMARKS.md, GH-large).
    const long = m.longWindowRoutes;
    return {
      pricing,
      emptyRoutes: "fromSecondPass",
      emptyTypeOrder: "cheapest",
      swapStar: long ? null : "allPairs",
      swapStarLocalised: override.identicalVehicles?.swapStarLocalised ?? (plainWindows ? "never" : "everyPass"),
      ...none,
      optionalStops,
      freshRuns: true,
      localised: override.identicalVehicles?.localised ?? (long ? "changedNeighbours" : "promisingCustomers"),
      unservedNearChanged: override.identicalVehicles?.unservedNearChanged ?? optionalStops !== null,
    };
  }
  const swapStar = !m.order?.partner && m.locks === null && ((m.twStart === null && m.rules === null) || skillsWithExactTimes(m));
  return {
    pricing,
    emptyRoutes: "whenRouteChanged",
    emptyTypeOrder: override.perVehicle?.emptyTypeOrder ?? (mixedFleet(m) ? "shuffled" : "cheapest"),
    swapStar: swapStar ? "changedPairs" : null,
    swapStarLocalised:
      override.perVehicle?.swapStarLocalised ?? (m.rules?.allowed != null && m.windows !== null ? "idlePass" : "everyPass"),
    vehicleChange: true,
    shipmentMoves: m.order?.partner != null,
    backhaulMoves: m.order?.backhaul != null,
    reloadMoves: m.p.trips != null,
    optionalStops: m.rules !== null && m.rules.anyOptional ? "whenNearbyChanged" : null,
    freshRuns: false,
    localised: "changedCustomers",
    unservedNearChanged: false,
  };
}

/**
 * A mixed fleet in the HFVRP manner: vehicles that differ in capacity, fixed or unit cost, without
 * windows, rules or load order, where the empty vehicles' order (EmptyTypeOrder) decides which
 * types new routes start on. Elsewhere (vehicles that differ only in depot, speed or rules; windows;
 * skills) the cheapest order stays, which the shuffled one was not measured against there.
 */
function mixedFleet(m: ProblemData): boolean {
  if (m.twStart !== null || m.rules !== null || m.order !== null || m.p.trips) return false;
  for (let r = 1; r < m.routes; r++) {
    if (m.capacity[r] !== m.capacity[0] || m.fixedCost[r] !== m.fixedCost[0] || m.unitCost[r] !== m.unitCost[0]) return true;
  }
  return false;
}

/**
 * Skills (without several trips) where SWAP*'s exact check prices time on the route model (no
 * windows; hard windows on time segments; soft or several windows on the stored schedules), not
 * with breaks, which only the evaluator prices. With the localised education it reached lower costs
 * on generated skills instances and on SDVRPTW, under hard and soft windows (BENCHMARKS.md, SDVRPTW).
 */
function skillsWithExactTimes(m: ProblemData): boolean {
  if (m.rules?.allowed == null || m.p.trips) return false;
  return m.twStart === null || (!hasBreaks(m.p) && !m.p.travel?.traffic);
}
