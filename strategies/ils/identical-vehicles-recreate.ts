import type { Rng } from "../core/rng.js";
import type { LocalSearch } from "../search/local-search.js";
import { WindowInsertion } from "../search/identical-vehicles/window-insertion.js";
import { Pieces } from "../search/pieces.js";
import type { RecreatePlaces } from "../settings.js";

/** SISR's blink rate: each insertion position is skipped with this probability. */
const BLINK = 0.01;
/** SISR's four orders drawn with weights 4, 4, 2, 1, out of 11 (a draw of 7 or more keeps the random order). */
const SISR_ORDERS = 11;

/**
 * The recreate of the identical-vehicles iterated local search (identical-vehicles-ruin.ts): puts removed
 * customers back one by one at their cheapest penalised place, in place on the local search's
 * routes (setRoute), so that only the routes it touches are marked modified.
 */
export class IdenticalVehiclesRecreate {
  private readonly touched: Uint8Array;
  private readonly buffer: Int32Array;
  private readonly candidateRoutes: Int32Array;
  /** Prices each position's time warp under binding windows (null without). */
  private readonly windows: WindowInsertion | null;
  private readonly pieces = new Pieces();
  /** Where recreate looks for places: right after neighbours (placeAfterNeighbours) or everywhere nearby (placeAnywhere). */
  private readonly afterNeighbours: boolean;
  /** The cheapest place found so far for the customer being inserted. */
  private bestDelta = 0;
  private bestRoute = -1;
  private bestAfter = 0;

  /** `places`: where a customer's place is looked for (settings.ts recreatePlaces). */
  constructor(
    private readonly ls: LocalSearch,
    places: RecreatePlaces,
  ) {
    const m = ls.m;
    this.windows = ls.rs.times ? new WindowInsertion(ls.rs) : null;
    this.touched = new Uint8Array(m.routes);
    this.buffer = new Int32Array(m.customers.length + 2);
    this.candidateRoutes = new Int32Array(m.routes);
    this.afterNeighbours = places === "afterNeighbours";
  }

  /**
   * Greedy insertion of `removed` (reordered in place): in SISR's orders (random, by decreasing
   * demand, farthest from the depot first, nearest first: weights 4, 4, 2, 1) or, with `randomOrder`,
   * in random order only (PyVRP's after its perturbation); each customer at its cheapest penalised
   * place (placeAnywhere or placeAfterNeighbours), kept out when it is optional, not `forced`, and
   * even that place costs more than its skip price times `margin`.
   */
  recreate(rng: Rng, removed: number[], forced: boolean, randomOrder: boolean, margin = 1): void {
    const ls = this.ls;
    const m = ls.m;
    const n = m.nodeCount;
    rng.shuffle(removed);
    const order = randomOrder ? SISR_ORDERS : rng.int(SISR_ORDERS);
    const depotRow = m.start[0]! * n;
    if (order < 4) removed.sort((a, b) => m.demand[b]! - m.demand[a]!);
    else if (order < 6) removed.sort((a, b) => m.dist[depotRow + b]! - m.dist[depotRow + a]!);
    else if (order < 7) removed.sort((a, b) => m.dist[depotRow + a]! - m.dist[depotRow + b]!);
    const skip = m.skipPrice;
    for (const c of removed) {
      this.bestDelta = Number.POSITIVE_INFINITY;
      this.bestRoute = -1;
      this.bestAfter = 0;
      if (this.afterNeighbours) this.placeAfterNeighbours(c, forced);
      else this.placeAnywhere(c, rng, forced);
      if (skip && !forced && this.bestDelta >= margin * skip[c]!) continue;
      this.insert(c, this.bestRoute, this.bestAfter);
    }
  }

  /**
   * Every position (blinks aside) of the routes of c's granular neighbours and of an empty route;
   * when none of those exists, of any route.
   */
  private placeAnywhere(c: number, rng: Rng, forced: boolean): void {
    const ls = this.ls;
    const m = ls.m;
    const mark = this.touched;
    mark.fill(0);
    let routes = 0;
    for (const w of m.neighbours[c]!) {
      const r = ls.rs.routeOf[w]!;
      if (r >= 0 && !mark[r]) {
        mark[r] = 1;
        this.candidateRoutes[routes++] = r;
      }
    }
    const empty = this.emptyRoute();
    // A forced insertion (unserved customers served at any price) joins a served neighbour's
    // route when there is one: opening routes for them left more, shorter routes than the best
    // known solutions have on long-route instances.
    if (empty >= 0 && !(forced && routes > 0)) this.candidateRoutes[routes++] = empty;
    if (routes === 0) for (let r = 0; r < m.routes; r++) this.candidateRoutes[routes++] = r;
    for (let t = 0; t < routes; t++) {
      const r = this.candidateRoutes[t]!;
      const base = this.baseOf(r, c);
      for (let j = 0; j <= ls.rs.length[r]!; j++) {
        if (this.bestRoute >= 0 && rng.next() < BLINK) continue;
        this.consider(r, j, c, base);
      }
    }
  }

  /**
   * Right after each of c's granular neighbours that is on a route, or first in an empty route
   * (PyVRP's insertion after its perturbation); when none of those exists, first in any route.
   * Cheaper than every position, and rougher: the local search after it finds the better places.
   */
  private placeAfterNeighbours(c: number, forced: boolean): void {
    const ls = this.ls;
    const rs = ls.rs;
    for (const w of ls.m.neighbours[c]!) {
      const r = rs.routeOf[w]!;
      if (r >= 0) this.consider(r, rs.pos[w]!, c, this.baseOf(r, c));
    }
    const empty = this.emptyRoute();
    if (empty >= 0 && !(forced && this.bestRoute >= 0)) this.consider(empty, 0, c, this.baseOf(empty, c));
    for (let r = 0; r < ls.m.routes && this.bestRoute < 0; r++) this.consider(r, 0, c, this.baseOf(r, c));
  }

  private emptyRoute(): number {
    const rs = this.ls.rs;
    for (let r = 0; r < this.ls.m.routes; r++) if (rs.length[r] === 0) return r;
    return -1;
  }

  /** Route r's penalised cost before c joins it (with pickups on board, less c's load correction). */
  private baseOf(r: number, c: number): number {
    const rs = this.ls.rs;
    const end = rs.length[r]! + 1;
    return rs.cost[r]! - this.pickupCorrection(r, c, rs.load[r]![end]! + this.ls.m.demand[c]!);
  }

  /** Prices c after position j of route r against `base` and keeps it when it is the cheapest so far. */
  private consider(r: number, j: number, c: number, base: number): void {
    const ls = this.ls;
    const m = ls.m;
    const n = m.nodeCount;
    const rs = ls.rs;
    const seq = rs.seq[r]!;
    const length = rs.length[r]!;
    const end = length + 1;
    const a = seq[j]!;
    const b = seq[j + 1]!;
    const d = m.dist;
    // On the route's own matrix, d(a, b) is its stored arc and a symmetric d(a, c) is d(c, a), bit for bit:
    // both then come from places that stay cached while c's positions are walked, not from scattered rows.
    const own = d === rs.slotMatrix[r];
    const ab = own ? rs.arc[r]![j]! : d[a * n + b]!;
    const ac = own && rs.symmetric ? d[c * n + a]! : d[a * n + c]!;
    const detour = ac + d[c * n + b]! - ab;
    const load = rs.load[r]![end]! + m.demand[c]!;
    const service = rs.serv[r]![end]! + m.service[c]!;
    let delta = ls.costs.fromTotals(r, end, rs.fwd[r]![end]! + detour, load, service) - base;
    // Time warp only adds, so a position already no better skips its segment concatenation.
    if (this.windows && delta < this.bestDelta) delta += this.windows.penalty(r, seq, end, j, c, ls.penalties);
    if (delta < this.bestDelta) {
      this.bestDelta = delta;
      this.bestRoute = r;
      this.bestAfter = j;
    }
  }

  /**
   * With pickups on board (backhaul-model.ts): the load penalty of route r with c added beyond
   * that of its delivered total `delivered` (what fromTotals prices), c put where its kind goes
   * (a delivery first, a pickup last), which the order-keeping positions all share; 0 without.
   */
  private pickupCorrection(r: number, c: number, delivered: number): number {
    const ls = this.ls;
    const loads = ls.rs.loads;
    if (!loads) return 0;
    const length = ls.rs.length[r]!;
    const pieces = this.pieces.reset();
    if (ls.m.demand[c]! > 0) pieces.node(c).add(r, 1, length);
    else pieces.add(r, 1, length).node(c);
    return ls.penalties.load * (loads.excessOfPieces(r, pieces, ls.rs.seq) - Math.max(0, delivered - ls.m.capacity[r]!));
  }

  /** Puts c into route r after position `after` (0: first). */
  private insert(c: number, r: number, after: number): void {
    const ls = this.ls;
    const seq = ls.rs.seq[r]!;
    const length = ls.rs.length[r]!;
    let count = 0;
    for (let k = 1; k <= after; k++) this.buffer[count++] = seq[k]!;
    this.buffer[count++] = c;
    for (let k = after + 1; k <= length; k++) this.buffer[count++] = seq[k]!;
    ls.setRoute(r, this.buffer, count);
  }
}
