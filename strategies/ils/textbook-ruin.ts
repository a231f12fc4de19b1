import type { Rng } from "../core/rng.js";
import type { LocalSearch } from "../search/local-search.js";
import { WindowInsertion } from "../search/textbook/window-insertion.js";
import { Pieces } from "../search/pieces.js";
import { ClusterRoute } from "../search/moves/textbook-cluster-route.js";
import type { RecreatePlaces, RuinStrengthSettings } from "../settings.js";
import { RuinStrength } from "./ruin-strength.js";

/**
 * Ruin and recreate of the iterated local search on the identical-vehicles model (identical-vehicles-ils.ts), after SISR
 * (Christiaens and Vanden Berghe 2020), written for the textbook local search's routes: remove
 * a few strings of consecutive customers from routes that pass near a random customer, then
 * reinsert each removed customer greedily with blinks. Both work in place on the local search's
 * routes (setRoute), so only the routes they touch are marked modified and the following
 * localised local search re-examines just those.
 */

/** SISR's average number of removed customers and longest removed string (the paper's values, not tuned here). */
const AVERAGE_REMOVED = 10;
const MAX_STRING = 10;
/** SISR's blink rate: each insertion position is skipped with this probability. */
const BLINK = 0.01;
/**
 * Optional customers: every other unserved ruin seed tries to open an empty route for the cluster
 * of unserved customers around it (textbook-cluster-route.ts) before the insert perturbation
 * below; the cluster gathers at most this many mean route lengths of customers.
 */
const CLUSTER_ROUTES = 2;

export class TextbookRuin {
  private readonly removed: Int32Array;
  private removedCount = 0;
  /** The removed customers are unserved optional ones to serve at any price (an insert perturbation). */
  private forced = false;
  private readonly touched: Uint8Array;
  private readonly buffer: Int32Array;
  private readonly candidateRoutes: Int32Array;
  /** Prices each position's time warp under binding windows (null without). */
  private readonly windows: WindowInsertion | null;
  private readonly pieces = new Pieces();
  /** Opens routes for clusters of unserved optional customers (null when every customer is required). */
  private readonly cluster: ClusterRoute | null;
  private clusterTurn = false;
  /** Where recreate looks for places: right after neighbours (placeAfterNeighbours) or everywhere nearby (placeAnywhere). */
  private readonly afterNeighbours: boolean;
  /** The cheapest place found so far for the customer being inserted. */
  private bestDelta = 0;
  private bestRoute = -1;
  private bestAfter = 0;
  /** The ruin's size as a multiple of AVERAGE_REMOVED (ruin-strength.ts). */
  private readonly strength: RuinStrength;

  /**
   * `places`: where recreate looks for a customer's place (settings.ts recreatePlaces);
   * `strength`: how the ruin's size adapts (settings.ts ruinStrength; null: SISR's).
   */
  constructor(
    private readonly ls: LocalSearch,
    places: RecreatePlaces = "anywhere",
    strength: RuinStrengthSettings | null = null,
  ) {
    this.strength = new RuinStrength(strength);
    const m = ls.m;
    this.cluster = m.skipPrice ? new ClusterRoute(ls) : null;
    this.windows = ls.rs.times ? new WindowInsertion(ls.rs) : null;
    this.removed = new Int32Array(m.customers.length);
    this.touched = new Uint8Array(m.routes);
    this.buffer = new Int32Array(m.customers.length + 2);
    this.candidateRoutes = new Int32Array(m.routes);
    this.afterNeighbours = places === "afterNeighbours";
  }

  /** Ruins, then recreates; returns the number of customers moved. */
  perturb(rng: Rng): number {
    this.ruin(rng);
    this.recreate(rng);
    return this.removedCount;
  }

  outcome(cameBack: boolean): void {
    this.strength.outcome(cameBack);
  }

  /** Inserts customers that are on no route (a partial start) as recreate does. */
  reinsert(rng: Rng, customers: readonly number[]): void {
    this.removedCount = 0;
    this.forced = false;
    for (const c of customers) this.removed[this.removedCount++] = c;
    this.recreate(rng);
  }

  /**
   * String removal: a random seed customer and its granular neighbours, nearest first, each
   * (while strings remain to remove) taking out a random string of its route that contains it,
   * one string per route; sizes drawn as in SISR from the mean route length.
   */
  private ruin(rng: Rng): void {
    const ls = this.ls;
    const m = ls.m;
    let used = 0;
    let served = 0;
    for (let r = 0; r < m.routes; r++) {
      if (ls.rs.length[r]! > 0) used++;
      served += ls.rs.length[r]!;
    }
    // Every customer is served unless some are optional: then the routes' own length counts.
    const meanLength = (m.skipPrice ? served : m.customers.length) / Math.max(1, used);
    const maxString = Math.min(MAX_STRING, meanLength);
    const maxStrings = Math.max(1, (4 * AVERAGE_REMOVED * this.strength.value) / (1 + maxString) - 1);
    const strings = 1 + Math.floor(rng.next() * maxStrings);
    this.touched.fill(0);
    this.removedCount = 0;
    this.forced = false;
    const seed = m.customers[rng.int(m.customers.length)]!;
    const near = m.neighbours[seed]!;
    let done = 0;
    if (m.skipPrice) {
      // An unserved seed: the perturbation serves it and unserved neighbours, whatever they cost
      // (PyVRP's insert perturbation), so that the search can grow; the local search then removes
      // those that do not pay. 1 to AVERAGE_REMOVED customers (about half the ruin's mean), nearest
      // first: twice as many left long-route instances clearly dearer.
      if (ls.rs.routeOf[seed]! < 0) {
        if (this.openCluster(seed, meanLength)) return;
        const count = 1 + rng.int(AVERAGE_REMOVED);
        for (let k = -1; k < near.length && this.removedCount < count; k++)
          if (ls.rs.routeOf[k < 0 ? seed : near[k]!]! < 0) this.removed[this.removedCount++] = k < 0 ? seed : near[k]!;
        this.forced = true;
        return;
      }
      // A served seed: strings leave as below, and the unserved near it get another chance in recreate.
      for (let k = 0; k < near.length; k++) if (ls.rs.routeOf[near[k]!]! < 0) this.removed[this.removedCount++] = near[k]!;
    }
    for (let k = -1; k < near.length && done < strings; k++) {
      const c = k < 0 ? seed : near[k]!;
      const r = ls.rs.routeOf[c]!;
      if (r < 0 || this.touched[r]) continue;
      this.touched[r] = 1;
      const length = ls.rs.length[r]!;
      const stringLength = 1 + Math.floor(rng.next() * Math.min(length, maxString));
      const at = ls.rs.pos[c]!;
      // A window of stringLength slots containing c, within the route's customers 1..length.
      const lo = Math.max(1, at - stringLength + 1);
      const hi = Math.min(at, length - stringLength + 1);
      const start = lo + rng.int(hi - lo + 1);
      this.removeString(r, start, stringLength);
      done++;
    }
  }

  /**
   * On every other unserved seed, when the fleet has an empty route: that route for the cluster of unserved
   * customers around the unserved seed, kept when their skip prices pay for it; whether it was.
   */
  private openCluster(seed: number, meanLength: number): boolean {
    const ls = this.ls;
    // Every other unserved seed, by turns rather than by a draw: the random stream, hence the
    // search's path, changes only when a cluster route is opened.
    this.clusterTurn = !this.clusterTurn;
    if (!this.clusterTurn) return false;
    let empty = -1;
    for (let r = 0; r < ls.m.routes && empty < 0; r++) if (ls.rs.length[r] === 0) empty = r;
    if (empty < 0) return false;
    const limit = Math.max(AVERAGE_REMOVED, Math.ceil(CLUSTER_ROUTES * meanLength));
    return this.cluster!.open(seed, empty, limit) > 0;
  }

  private removeString(r: number, start: number, count: number): void {
    const ls = this.ls;
    const seq = ls.rs.seq[r]!;
    const length = ls.rs.length[r]!;
    let kept = 0;
    for (let k = 1; k <= length; k++) {
      const c = seq[k]!;
      if (k >= start && k < start + count) {
        this.removed[this.removedCount++] = c;
        ls.rs.routeOf[c] = -1;
      } else this.buffer[kept++] = c;
    }
    ls.setRoute(r, this.buffer, kept);
  }

  /**
   * Greedy insertion in SISR's orders (random, by decreasing demand, farthest from the depot
   * first, nearest first: weights 4, 4, 2, 1), each customer at its cheapest penalised place
   * (placeAnywhere or placeAfterNeighbours), kept out when it is optional and even that place
   * costs more than its skip price.
   */
  private recreate(rng: Rng): void {
    const ls = this.ls;
    const m = ls.m;
    const n = m.nodeCount;
    const removed = Array.from(this.removed.subarray(0, this.removedCount));
    rng.shuffle(removed);
    const order = rng.int(11);
    const depotRow = m.start[0]! * n;
    if (order < 4) removed.sort((a, b) => m.demand[b]! - m.demand[a]!);
    else if (order < 6) removed.sort((a, b) => m.dist[depotRow + b]! - m.dist[depotRow + a]!);
    else if (order < 7) removed.sort((a, b) => m.dist[depotRow + a]! - m.dist[depotRow + b]!);
    const skip = m.skipPrice;
    for (const c of removed) {
      this.bestDelta = Number.POSITIVE_INFINITY;
      this.bestRoute = -1;
      this.bestAfter = 0;
      if (this.afterNeighbours) this.placeAfterNeighbours(c);
      else this.placeAnywhere(c, rng);
      if (skip && !this.forced && this.bestDelta >= skip[c]!) continue;
      this.insert(c, this.bestRoute, this.bestAfter);
    }
  }

  /**
   * Every position (blinks aside) of the routes of c's granular neighbours and of an empty route;
   * when none of those exists, of any route.
   */
  private placeAnywhere(c: number, rng: Rng): void {
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
    if (empty >= 0 && !(this.forced && routes > 0)) this.candidateRoutes[routes++] = empty;
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
  private placeAfterNeighbours(c: number): void {
    const ls = this.ls;
    const rs = ls.rs;
    for (const w of ls.m.neighbours[c]!) {
      const r = rs.routeOf[w]!;
      if (r >= 0) this.consider(r, rs.pos[w]!, c, this.baseOf(r, c));
    }
    const empty = this.emptyRoute();
    if (empty >= 0 && !(this.forced && this.bestRoute >= 0)) this.consider(empty, 0, c, this.baseOf(empty, c));
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
    const detour = m.dist[a * n + c]! + m.dist[c * n + b]! - m.dist[a * n + b]!;
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
