import type { Rng } from "../core/rng.js";
import type { LocalSearchSettings } from "../settings.js";
import { backhaulHeadExchange, linehaulTwoOptStar } from "./moves/linehaul-two-opt-star.js";
import { pairExchange } from "./moves/pair-exchange.js";
import { pairRelocate } from "./moves/pair-relocate.js";
import { pairRelocateWithin } from "./moves/pair-relocate-within.js";
import { insertReload, moveReload } from "./moves/reload-insert.js";
import { relocateWithReload } from "./moves/relocate-with-reload.js";
import { InsertUnserved } from "./operators/insert-unserved.js";
import type { MovePricing } from "./operators/operator.js";
import { Relocate } from "./operators/relocate.js";
import { RelocateWithin } from "./operators/relocate-within.js";
import { RemoveOptional } from "./operators/remove-optional.js";
import { Swap } from "./operators/swap.js";
import { SwapWithin } from "./operators/swap-within.js";
import { TwoOpt } from "./operators/two-opt.js";
import { TwoOptStar } from "./operators/two-opt-star.js";
import type { PerVehiclePricing } from "./pricing/per-vehicle.js";
import type { ProblemData } from "./problem-data.js";
import type { Routes } from "./routes.js";
import type { RouteTrips } from "./route-trips.js";

/** When a pass also tries moving a customer into an empty route. */
export const EMPTY_NEVER = 0;
export const EMPTY_ALWAYS = 1;
/** Only a customer whose route changed since it was last examined can newly gain from a route of its own. */
export const EMPTY_IF_CHANGED = 2;

/** What the optional stops' moves left to do: u is done (moved or not), or its other moves follow. */
const DONE = 0;
const MOVED = 1;
const GO_ON = 2;

/**
 * One customer's moves in the local search (local-search.ts): an optional stop's insertion or
 * removal, then towards each granular neighbour's route every move of the family, in a fixed order
 * (relocate, swap, 2-opt* between routes; relocate, swap, 2-opt within one; shipments and backhauls
 * first their own), then into empty routes. Only pairs where either route changed since u was last
 * examined are tried (HGS's whenLastModified). Which moves and when come from LocalSearchSettings.
 */
export class CustomerMoves {
  /**
   * Clock of the last re-pricing (optional stops "untilRepriced"): what was examined at or before
   * it was examined at other prices. Without such stops it stays -1 and the clock is not moved.
   */
  repricedAt = -1;
  private readonly m: ProblemData;
  private readonly relocate: Relocate;
  private readonly relocateWithin: RelocateWithin;
  private readonly swap: Swap;
  private readonly swapWithin: SwapWithin;
  private readonly twoOpt: TwoOpt;
  private readonly twoOptStar: TwoOptStar;
  private readonly insertUnserved: InsertUnserved;
  private readonly removeOptional: RemoveOptional;
  /** Optional stops (settings.optionalStops): 1 "untilRepriced", 2 "whenNearbyChanged", 0 none. */
  private readonly optional: number = 0;
  /** "untilRepriced": 1 when u was unserved at its last examination and no insertion of it was improving then. */
  private readonly unservedIdle: Uint8Array;
  /** Shipment partners, backhaul kinds and reload copies when their moves are on (else null). */
  private readonly partner: Int32Array | null;
  private readonly backhaul: Uint8Array | null;
  private readonly trips: RouteTrips | null;
  /** Some vehicle reloads: a relocate may open a trip for the customer it moves. */
  private readonly reloads: boolean = false;
  /** Shipments, backhauls or rules: some moves between routes are refused or replaced (guardedBetween). */
  private readonly guarded: boolean = false;
  /** Vehicle types whose empty routes are tried (the identical-vehicles search: the first empty route alone). */
  private readonly emptyTypes: number = 0;
  /** The order those types are tried in (settings.emptyTypeOrder "shuffled": drawn per run, the first improving one taken). */
  private readonly typeOrder: Int32Array;
  private readonly shuffledTypes: boolean;

  constructor(
    private readonly rs: Routes,
    settings: LocalSearchSettings,
    private readonly pricing: MovePricing,
    /** The pricing of the shipment, backhaul and reload moves (null when they are off). */
    private readonly perVehicle: PerVehiclePricing | null,
    /** Clock of each customer's last examination, shared with the search (which resets it). */
    private readonly testedAt: Float64Array,
  ) {
    const m = (this.m = rs.m);
    this.relocate = new Relocate(pricing);
    this.relocateWithin = new RelocateWithin(pricing);
    this.swap = new Swap(pricing);
    this.swapWithin = new SwapWithin(pricing);
    this.twoOpt = new TwoOpt(pricing);
    this.twoOptStar = new TwoOptStar(pricing);
    const untilRepriced = settings.optionalStops === "untilRepriced";
    this.optional = untilRepriced ? 1 : settings.optionalStops === "whenNearbyChanged" ? 2 : 0;
    // The insertion bounds are checked against the identical-vehicles problems only (not against rules).
    this.insertUnserved = new InsertUnserved(pricing, untilRepriced);
    this.removeOptional = new RemoveOptional(pricing);
    this.unservedIdle = new Uint8Array(untilRepriced ? m.nodeCount : 0);
    const needsPerVehicle = settings.shipmentMoves || settings.backhaulMoves || settings.reloadMoves;
    if (needsPerVehicle && perVehicle === null) throw new Error("shipment, backhaul and reload moves price per vehicle");
    this.partner = settings.shipmentMoves ? m.order!.partner : null;
    this.backhaul = settings.backhaulMoves ? m.order!.backhaul : null;
    this.trips = settings.reloadMoves ? rs.trips : null;
    this.reloads = this.trips?.reloads ?? false;
    this.guarded = this.partner !== null || this.backhaul !== null || rs.rules !== null;
    this.emptyTypes = settings.emptyRoutes === "fromSecondPass" ? 1 : m.typeSlots.length;
    this.typeOrder = Int32Array.from({ length: this.emptyTypes }, (_, k) => k);
    this.shuffledTypes = settings.emptyTypeOrder === "shuffled" && this.emptyTypes > 1;
  }

  /** Draws the order of the vehicle types' empty routes for the next run (settings.emptyTypeOrder "shuffled"). */
  shuffleTypes(rng: Rng): void {
    if (!this.shuffledTypes) return;
    const order = this.typeOrder;
    for (let k = order.length - 1; k > 0; k--) {
      const t = rng.int(k + 1);
      const tmp = order[k]!;
      order[k] = order[t]!;
      order[t] = tmp;
    }
  }

  /** A fresh load: every unserved stop is tried everywhere again. */
  forgetUnserved(): void {
    this.unservedIdle.fill(0);
  }

  /** Tries customer u's moves (into an empty route as `empty` says, EMPTY_*); whether a move was applied. */
  examine(u: number, empty: number): boolean {
    const rs = this.rs;
    const lastTested = this.testedAt[u]!;
    this.testedAt[u] = rs.clock;
    if (this.optional !== 0) {
      const outcome = this.optional === 1 ? this.optionalUntilRepriced(u, lastTested) : this.optionalNearby(u, lastTested);
      if (outcome !== GO_ON) return outcome === MOVED;
    }
    // Unserved without optional stops (a Workspace's unassigned customers, ils/workspace-search.ts): no moves here.
    if (rs.routeOf[u]! < 0) return false;
    const trips = this.trips;
    if (trips !== null && trips.ownerOf[u]! >= 0 && rs.modifiedAt[rs.routeOf[u]!]! > lastTested && moveReload(this.perVehicle!, u))
      return true;
    const partner = this.partner;
    const backhaul = this.backhaul;
    const near = this.m.neighbours[u]!;
    let improved = false;
    // Read once: most neighbours stop at the check below, and moves rewrite these arrays' contents, never the arrays.
    const routeOf = rs.routeOf;
    const modifiedAt = rs.modifiedAt;
    for (let k = 0; k < near.length; k++) {
      const v = near[k]!;
      const rv = routeOf[v]!;
      // Only with optional customers: v is unserved (examined on its own turn).
      if (rv < 0) continue;
      const ru = routeOf[u]!;
      // Both routes unchanged since u was last examined (in this run or an earlier one): nothing new.
      if (Math.max(modifiedAt[ru]!, modifiedAt[rv]!) <= lastTested) continue;
      // Shipments move whole; single-stop moves that split a pair are refused (priced Infinity).
      if (partner !== null && ru !== rv && partner[u]! >= 0 && this.pairMoves(u, v, rv)) {
        improved = true;
        continue;
      }
      // Backhauls: a delivery u goes before a pickup v (after v it is refused), at the boundary of v's route.
      if (this.movesAfter(u, rv, backhaul !== null && backhaul[u] === 1 && backhaul[v] === 2 ? rs.pos[v]! - 1 : rs.pos[v]!)) {
        improved = true;
        continue;
      }
      if (
        this.reloads &&
        rv !== rs.routeOf[u] &&
        (partner === null || partner[u]! < 0) &&
        relocateWithReload(this.perVehicle!, u, rv, rs.pos[v]!)
      ) {
        improved = true;
        continue;
      }
      // v first in its route: also try placing u at the start of that route.
      if (rs.pos[v] === 1 && rs.routeOf[u] !== rv && this.movesAfter(u, rv, 0)) improved = true;
    }
    // A shipment moved whole within its route (at its pickup, once per shipment): depends on that route only.
    const pickup = partner !== null && partner[u]! >= 0 && this.m.order!.role[u]! > 0;
    if (pickup && rs.routeOf[u]! >= 0 && rs.modifiedAt[rs.routeOf[u]!]! > lastTested && pairRelocateWithin(this.perVehicle!, u))
      improved = true;
    if (empty === EMPTY_ALWAYS || (empty === EMPTY_IF_CHANGED && rs.modifiedAt[rs.routeOf[u]!]! > lastTested)) {
      for (let k = 0; k < this.emptyTypes; k++) {
        const r = this.pricing.emptyOfType(this.typeOrder[k]!, -1);
        if (r >= 0 && this.movesAfter(u, r, 0)) improved = true;
        else if (r >= 0 && pickup && pairRelocate(this.perVehicle!, u, r)) improved = true;
        else continue;
        if (this.shuffledTypes) break;
      }
    }
    return improved;
  }

  /**
   * Route r's own moves (relocate, swap, 2-opt within it) over every pair of positions, not only
   * granular neighbours, first improvement: a construction's per-route polish, where the routes are
   * short and a neighbour list would miss most of a route. Whether a move was applied.
   */
  improveWithin(r: number): boolean {
    const rs = this.rs;
    const seq = rs.seq[r]!;
    const count = rs.length[r]!;
    // 2-opt from the start depot (a customer's moves reverse only stretches after it).
    for (let j = 2; j <= count; j++) {
      if (!this.twoOpt.evaluate(r, 0, j)) continue;
      this.twoOpt.apply();
      return true;
    }
    for (let i = 1; i <= count; i++) {
      const u = seq[i]!;
      for (let j = 0; j <= count; j++) if (this.movesAfter(u, r, j)) return true;
    }
    return false;
  }

  /** Optional stops, "untilRepriced": an unserved u can only enter a route; a served one may leave first. */
  private optionalUntilRepriced(u: number, lastTested: number): number {
    if (this.rs.routeOf[u]! < 0) {
      const idle = this.unservedIdle[u] === 1 && lastTested > this.repricedAt;
      const moved = this.insertUnserved.evaluate(u, idle ? lastTested : -1);
      if (moved) this.insertUnserved.apply();
      this.unservedIdle[u] = moved ? 0 : 1;
      return moved ? MOVED : DONE;
    }
    this.unservedIdle[u] = 0;
    if (!this.removeOptional.evaluate(u)) return GO_ON;
    this.removeOptional.apply();
    return MOVED;
  }

  /** Optional stops, "whenNearbyChanged": serve, drop or exchange u (operators/insert-unserved.ts, remove-optional.ts). */
  private optionalNearby(u: number, lastTested: number): number {
    const rs = this.rs;
    if (rs.routeOf[u]! < 0) {
      // A reload copy (search/trip-copies.ts) goes into its own vehicle's route only.
      const owner = rs.trips ? rs.trips.ownerOf[u]! : -1;
      if (owner >= 0) return rs.modifiedAt[owner]! > lastTested && insertReload(this.perVehicle!, u, owner) ? MOVED : DONE;
      if (!this.neighbourhoodChanged(u, lastTested) || !this.insertUnserved.evaluate(u)) return DONE;
      this.insertUnserved.apply();
      return MOVED;
    }
    if (rs.modifiedAt[rs.routeOf[u]!]! <= lastTested || !this.removeOptional.evaluate(u)) return GO_ON;
    this.removeOptional.apply();
    return MOVED;
  }

  /** Whether a route next to unserved customer u (or an empty one) changed since u was last tested. */
  private neighbourhoodChanged(u: number, lastTested: number): boolean {
    const rs = this.rs;
    if (lastTested < 0) return true;
    for (const w of this.m.neighbours[u]!) {
      const r = rs.routeOf[w]!;
      if (r >= 0 && rs.modifiedAt[r]! > lastTested) return true;
    }
    return false;
  }

  /** Shipment moves between u's shipment and route rv (v's): relocate it there, or exchange it with v's. */
  private pairMoves(u: number, v: number, rv: number): boolean {
    const order = this.m.order!;
    const pv = this.perVehicle!;
    const pickup = order.role[u]! > 0 ? u : order.partner![u]!;
    // The stop u goes next to its neighbour v: a delivery's neighbours place the delivery, not the pickup.
    if (pairRelocate(pv, pickup, rv, v, pickup !== u)) return true;
    if (order.partner![v]! < 0) return false;
    return pairExchange(pv, pickup, order.role[v]! > 0 ? v : order.partner![v]!);
  }

  /** Every move between customer u and position j of route rv (j = 0: before rv's first customer), in the search's order. */
  private movesAfter(u: number, rv: number, j: number): boolean {
    const rs = this.rs;
    const ru = rs.routeOf[u]!;
    const i = rs.pos[u]!;
    if (ru !== rv) return this.guarded ? this.guardedBetween(u, ru, i, rv, j) : this.between(ru, i, rv, j);
    if (j === i || j === i - 1) return false;
    if (this.relocateWithin.evaluate(ru, i, j)) {
      this.relocateWithin.apply();
      return true;
    }
    if (j > 0 && this.swapWithin.evaluate(ru, i, j)) {
      this.swapWithin.apply();
      return true;
    }
    if (i >= j || !this.twoOpt.evaluate(ru, i, j)) return false;
    this.twoOpt.apply();
    return true;
  }

  /** Relocate, swap and 2-opt* between u at position i of ru and position j of rv. */
  private between(ru: number, i: number, rv: number, j: number): boolean {
    if (this.relocate.evaluate(ru, i, rv, j)) {
      this.relocate.apply();
      return true;
    }
    if (j > 0 && this.swap.evaluate(ru, i, rv, j)) {
      this.swap.apply();
      return true;
    }
    return this.applyTwoOptStar(ru, i, rv, j);
  }

  /** As between, under shipments, backhauls or rules, which refuse some moves and add their own. */
  private guardedBetween(u: number, ru: number, i: number, rv: number, j: number): boolean {
    const rs = this.rs;
    // A shipment's stop moved alone to another route always splits its pair: only 2-opt* (tails
    // that carry whole pairs) can pass; the pair moves do the rest.
    const partner = this.partner;
    if (partner !== null && partner[u]! >= 0) return this.applyTwoOptStar(ru, i, rv, j);
    const backhaul = this.backhaul;
    if (backhaul !== null) {
      const pv = this.perVehicle!;
      pv.before = rs.cost[ru]! + rs.cost[rv]!;
      if (backhaul[u] === 1 && linehaulTwoOptStar(pv, ru, i, rv, j)) return true;
      if (backhaul[u] === 2 && backhaulHeadExchange(pv, ru, i, rv, j)) return true;
    }
    // Skills: relocate and swap put u on rv (and swap v on ru); when rv's vehicle may not serve
    // u they can only be refused, so they are not priced (route-rules.ts).
    const rules = rs.rules;
    if (rules === null) return this.between(ru, i, rv, j);
    if (rules.serves(rv, u)) {
      if (this.relocate.evaluate(ru, i, rv, j)) {
        this.relocate.apply();
        return true;
      }
      if (j > 0 && rules.serves(ru, rs.seq[rv]![j]!) && this.swap.evaluate(ru, i, rv, j)) {
        this.swap.apply();
        return true;
      }
    }
    return this.applyTwoOptStar(ru, i, rv, j);
  }

  private applyTwoOptStar(ru: number, i: number, rv: number, j: number): boolean {
    if (!this.twoOptStar.evaluate(ru, i, rv, j)) return false;
    this.twoOptStar.apply();
    return true;
  }
}
