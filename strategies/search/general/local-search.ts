import type { Rng } from "../../core/rng.js";
import type { Routes } from "../routes.js";
import { SwapStar } from "../moves/swap-star.js";
import { insertReload, moveReload } from "../moves/reload-insert.js";
import { improveFleetUse } from "../moves/vehicle-change.js";
import { repairBackhaulPairing } from "../moves/backhaul-pairing.js";
import { backhaulHeadExchange, linehaulTwoOptStar } from "../moves/linehaul-two-opt-star.js";
import { pairExchange } from "../moves/pair-exchange.js";
import { pairRelocate } from "../moves/pair-relocate.js";
import { pairRelocateWithin } from "../moves/pair-relocate-within.js";
import { Relocate } from "../operators/relocate.js";
import { InsertUnserved } from "../operators/insert-unserved.js";
import { RelocateWithin } from "../operators/relocate-within.js";
import { RemoveOptional } from "../operators/remove-optional.js";
import { Swap } from "../operators/swap.js";
import { SwapWithin } from "../operators/swap-within.js";
import { TwoOpt } from "../operators/two-opt.js";
import { TwoOptStar } from "../operators/two-opt-star.js";
import { GeneralMovePricing } from "./move-pricing.js";
/** Customers examined between two looks at the stop condition. */
const STOP_CHECK = 16;

/**
 * Granular local search for any fleet (the general search's education): relocate one or two
 * customers (also reversed), swap 1-1, 2-1 and 2-2, 2-opt within a route and both 2-opt* variants
 * between routes, over each customer's nearest neighbours, first improvement; moves into an empty
 * vehicle of each type; SWAP* between routes without a time dimension (moves/swap-star.ts, shared
 * with the textbook search); and after each pass a route may change vehicle
 * (moves/vehicle-change.ts). With shipments, whole pairs are relocated (moves/pair-relocate.ts, also
 * within their route: moves/pair-relocate-within.ts) and exchanged (moves/pair-exchange.ts) and a
 * stop never moves alone to another route; with backhauls, delivery parts exchange tails and pickup
 * parts heads (moves/linehaul-two-opt-star.ts) and the parts are re-paired by assignment
 * (moves/backhaul-pairing.ts). Each candidate route is priced on its own vehicle from pieces of the
 * current routes (the route model, routes.ts), so routes of different types, depots and speeds mix
 * exactly.
 * `onCommit` lets the property test compare each predicted price with a from-scratch one.
 */
export class GeneralLocalSearch extends GeneralMovePricing {
  private readonly testedAt: Float64Array;
  /** SWAP* between routes; only without a time dimension (see run). */
  private readonly swapStar: SwapStar | null;
  /**
   * Localised search (focus): customers whose route neighbours did not change since this clock
   * value are not examined (-1: every customer is).
   */
  private focusSince = -1;
  private readonly relocate = new Relocate(this);
  private readonly relocateWithin = new RelocateWithin(this);
  private readonly swap = new Swap(this);
  private readonly swapWithin = new SwapWithin(this);
  private readonly twoOpt = new TwoOpt(this);
  private readonly twoOptStar = new TwoOptStar(this);
  /** Every candidate priced: the insertion bounds are not checked against this search's rules (distance and stop caps, skills). */
  private readonly insertUnserved = new InsertUnserved(this, false);
  private readonly removeOptional = new RemoveOptional(this);

  constructor(rs: Routes) {
    super(rs);
    this.testedAt = new Float64Array(rs.m.nodeCount);
    // Under time windows SWAP*'s distance-chosen places mostly fail the exact time check, and
    // its pair tables cost time the other moves use better (measured on MDVRPTW: see BENCHMARKS.md).
    // SWAP* chooses on the first dimension's delivered load and prices its choice at every
    // dimension's peak (route-loads.ts); with shipments it would only ever split pairs, so it is off.
    // It knows skills (a customer goes only to a vehicle that may serve it) but not route caps
    // (route-rules.ts); on SDVRPTW (skills under hard windows) it was no better, and much worse on
    // a generated instance: off for problems with rules.
    // It prices from route totals, past the route model's rules: off with locked stops too.
    this.swapStar = rs.m.twStart === null && !rs.m.order?.partner && rs.m.rules === null && rs.m.locks === null ? new SwapStar(this) : null;
  }

  /**
   * Forgets which moves were already found not to improve: needed when the prices changed
   * (penalties), since the search otherwise skips a customer whose routes are unchanged since it
   * was last tested, across runs (so that after a ruin only the touched routes are searched).
   */
  forget(): void {
    this.testedAt.fill(-1);
    this.swapStar?.forget();
  }

  /**
   * From now on a run examines only the customers whose route neighbours change after this call
   * (the next ruin and recreate's, then its own moves'), as PyVRP's promising clients: the routes
   * held now are taken as a local optimum. Needs the route model's change record (Routes.trackChanges);
   * without it every run examines every customer of every changed route, as before.
   */
  focus(): void {
    if (this.rs.changes) this.focusSince = this.rs.clock;
  }

  /**
   * After a penalty change: only routes that violate a constraint changed price, so only they
   * (and moves touching them) are searched again; cheaper than forget() on large problems.
   */
  revisitViolating(): void {
    const rs = this.rs;
    for (let r = 0; r < rs.m.routes; r++) {
      if (
        rs.loadExcess[r]! > 0 ||
        rs.timeWarp[r]! > 0 ||
        rs.durationExcess[r]! > 0 ||
        rs.distanceExcess[r]! > 0 ||
        rs.stopsExcess[r]! > 0
      ) {
        rs.modifiedAt[r] = ++rs.clock;
        // A localised run examines the violating routes' customers again too.
        const seq = rs.seq[r]!;
        if (rs.changes) for (let k = 1; k <= rs.length[r]!; k++) rs.changes.touch(seq[k]!, rs.clock);
      }
    }
  }

  /** Runs to a local optimum or until `stop()`; returns false when stopped early. */
  run(rng: Rng, stop: () => boolean = () => false): boolean {
    const m = this.m;
    const rs = this.rs;
    const order = Array.from(m.customers);
    rng.shuffle(order);
    let improved = true;
    let loop = 0;
    let checked = 0;
    const optional = m.rules !== null && m.rules.anyOptional;
    const partner = m.order?.partner ?? null;
    const backhaul = m.order?.backhaul ?? null;
    const changedAt = rs.changes && this.focusSince >= 0 ? rs.changes.changedAt : null;
    const since = this.focusSince;
    while (improved || loop === 1) {
      improved = false;
      for (const u of order) {
        // Localised (focus): a customer whose route neighbours are as at the focus is not promising.
        // An unserved one (optional stops) has no neighbours to change: it is examined whenever a
        // route next to it changed (neighbourhoodChanged below).
        if (changedAt !== null && changedAt[u]! <= since && rs.routeOf[u]! >= 0) continue;
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        const lastTested = this.testedAt[u]!;
        this.testedAt[u] = rs.clock;
        const near = m.neighbours[u]!;
        // Customers that may stay unserved (operators/insert-unserved.ts, remove-optional.ts): serve, drop or exchange them.
        if (optional && rs.routeOf[u]! < 0) {
          // A reload copy (search/trip-copies.ts) goes into its own vehicle's route only.
          const owner = rs.trips ? rs.trips.ownerOf[u]! : -1;
          if (owner >= 0) {
            if (rs.modifiedAt[owner]! > lastTested && insertReload(this, u, owner)) improved = true;
          } else if (this.neighbourhoodChanged(u, lastTested) && this.insertUnserved.evaluate(u)) {
            this.insertUnserved.apply();
            improved = true;
          }
          continue;
        }
        if (optional && rs.modifiedAt[rs.routeOf[u]!]! > lastTested && this.removeOptional.evaluate(u)) {
          this.removeOptional.apply();
          improved = true;
          continue;
        }
        if (rs.trips && rs.trips.ownerOf[u]! >= 0 && rs.modifiedAt[rs.routeOf[u]!]! > lastTested && moveReload(this, u)) {
          improved = true;
          continue;
        }
        for (let k = 0; k < near.length; k++) {
          const v = near[k]!;
          const ru = rs.routeOf[u]!;
          const rv = rs.routeOf[v]!;
          if (rv < 0) continue;
          // Both routes unchanged since u was last tested (in this run or an earlier one): nothing new.
          if (Math.max(rs.modifiedAt[ru]!, rs.modifiedAt[rv]!) <= lastTested) continue;
          // Shipments move whole (moves/pair-*.ts); single-stop moves that split a pair are refused (priced Infinity).
          if (partner && ru !== rv && partner[u]! >= 0 && this.pairMoves(u, v, rv)) {
            improved = true;
            continue;
          }
          // Backhauls: a delivery u goes before a pickup v (after v it is refused), at the boundary of v's route.
          if (this.movesAfter(u, rv, backhaul && backhaul[u] === 1 && backhaul[v] === 2 ? rs.pos[v]! - 1 : rs.pos[v]!)) {
            improved = true;
            continue;
          }
          if (rs.pos[v] === 1 && rs.routeOf[u] !== rv && this.movesAfter(u, rv, 0)) improved = true;
        }
        // A shipment moved whole within its route (at its pickup, once per shipment): depends on that route only.
        if (
          partner &&
          partner[u]! >= 0 &&
          m.order!.role[u]! > 0 &&
          rs.routeOf[u]! >= 0 &&
          rs.modifiedAt[rs.routeOf[u]!]! > lastTested &&
          pairRelocateWithin(this, u)
        )
          improved = true;
        // Into an empty vehicle of each type: depends on u's route only (empty routes of a type are alike).
        if (rs.modifiedAt[rs.routeOf[u]!]! > lastTested) {
          for (let type = 0; type < m.typeSlots.length; type++) {
            const empty = this.emptyOfType(type, -1);
            if (empty >= 0 && this.movesAfter(u, empty, 0)) improved = true;
            else if (empty >= 0 && partner && partner[u]! >= 0 && m.order!.role[u]! > 0 && pairRelocate(this, u, empty)) improved = true;
          }
        }
      }
      if (stop()) return false;
      // Across runs (an iterated search): only pairs of routes that changed since they were last tested.
      if (this.swapStar && this.swapStar.passLocalised(rng)) improved = true;
      if (improveFleetUse(this)) improved = true;
      // Backhauls: the joins of all routes re-paired at once, when the moves above found nothing.
      if (!improved && repairBackhaulPairing(this)) improved = true;
      loop++;
    }
    return true;
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
    const pickup = order.role[u]! > 0 ? u : order.partner![u]!;
    // The stop u goes next to its neighbour v: a delivery's neighbours place the delivery, not the pickup.
    if (pairRelocate(this, pickup, rv, v, pickup !== u)) return true;
    if (order.partner![v]! < 0) return false;
    return pairExchange(this, pickup, order.role[v]! > 0 ? v : order.partner![v]!);
  }

  /** Every move between customer u and position j of route rv (j = 0: before rv's first customer), in the search's order. */
  private movesAfter(u: number, rv: number, j: number): boolean {
    const rs = this.rs;
    const ru = rs.routeOf[u]!;
    const i = rs.pos[u]!;
    if (ru !== rv) {
      this.before = rs.cost[ru]! + rs.cost[rv]!;
      // A shipment's stop moved alone to another route always splits its pair: only 2-opt* (tails
      // that carry whole pairs) can pass; the pair moves do the rest.
      const partner = this.m.order?.partner;
      if (partner && partner[u]! >= 0) return this.applyTwoOptStar(ru, i, rv, j);
      const backhaul = this.m.order?.backhaul;
      if (backhaul && backhaul[u] === 1 && linehaulTwoOptStar(this, ru, i, rv, j)) return true;
      if (backhaul && backhaul[u] === 2 && backhaulHeadExchange(this, ru, i, rv, j)) return true;
      // Skills: relocate and swap put u on rv (and swap v on ru); when rv's vehicle may not serve
      // u they can only be refused, so they are not priced (route-rules.ts).
      const rules = this.rs.rules;
      if (rules === null || rules.serves(rv, u)) {
        if (this.relocate.evaluate(ru, i, rv, j)) {
          this.relocate.apply();
          return true;
        }
        if (j > 0 && (rules === null || rules.serves(ru, this.rs.seq[rv]![j]!)) && this.swap.evaluate(ru, i, rv, j)) {
          this.swap.apply();
          return true;
        }
      }
      return this.applyTwoOptStar(ru, i, rv, j);
    }
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

  private applyTwoOptStar(ru: number, i: number, rv: number, j: number): boolean {
    if (!this.twoOptStar.evaluate(ru, i, rv, j)) return false;
    this.twoOptStar.apply();
    return true;
  }
}
