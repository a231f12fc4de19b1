import type { Rng } from "../core/rng.js";
import type { LocalSearch } from "../search/local-search.js";
import { ClusterRoute } from "../search/moves/unserved-cluster-route.js";
import { SeedRoute } from "../search/moves/seed-route.js";
import { STRINGS_PERTURBATION, type RuinSettings } from "../settings.js";
import { RuinStrength } from "./ruin-strength.js";
import { IdenticalVehiclesRecreate } from "./identical-vehicles-recreate.js";

/**
 * Ruin and recreate of the iterated local search on the identical-vehicles model (identical-vehicles-ils.ts), after SISR
 * (Christiaens and Vanden Berghe 2020), written for the identical-vehicles local search's routes: remove
 * a few strings of consecutive customers from routes that pass near a random customer (or, where
 * the settings say so, a customer and its nearest neighbours, as PyVRP perturbs), then reinsert
 * each removed customer greedily (identical-vehicles-recreate.ts). Both work in place on the local search's
 * routes (setRoute), so only the routes they touch are marked modified and the following
 * localised local search re-examines just those.
 */

/** SISR's average number of removed customers and longest removed string (the paper's values, not tuned here). */
const AVERAGE_REMOVED = 10;
const MAX_STRING = 10;
/** PyVRP's perturbation: at most this many customers, the seed and its nearest granular neighbours. */
const MAX_NEIGHBOURHOOD = 25;
/**
 * Optional customers: every other unserved ruin seed tries to open an empty route for the cluster
 * of unserved customers around it (unserved-cluster-route.ts) before the insert perturbation
 * below; the cluster gathers at most this many mean route lengths of customers.
 */
const CLUSTER_ROUTES = 2;

export class IdenticalVehiclesRuin {
  private readonly removed: Int32Array;
  private removedCount = 0;
  /** The removed customers are unserved optional ones to serve at any price (an insert perturbation). */
  private forced = false;
  private readonly touched: Uint8Array;
  private readonly buffer: Int32Array;
  /** Opens routes for clusters of unserved optional customers (null when every customer is required). */
  private readonly cluster: ClusterRoute | null;
  private clusterTurn = false;
  /** Opens a route around a served seed on every `seedRoutes`-th served ruin seed (null when off, settings.ts RuinSettings). */
  private readonly seedRoute: SeedRoute | null;
  private readonly seedRoutes: number;
  private seedTurn = 0;
  /** The recreate after a ruin asks optional customers for a drawn margin below their skip price (settings.ts RuinSettings). */
  private readonly leanRecreate: boolean;
  /** The ruin's size as a multiple of AVERAGE_REMOVED (ruin-strength.ts). */
  private readonly strength: RuinStrength;
  private readonly recreator: IdenticalVehiclesRecreate;
  /** PyVRP's perturbation (ruinNeighbourhood) instead of SISR's strings, but on a share of the perturbations. */
  private readonly neighbourhood: boolean;
  private readonly stringsShare: number;

  /** `settings`: the ruin's shape, the recreate's places and how the ruin's size adapts (settings.ts perturbationSettings). */
  constructor(
    private readonly ls: LocalSearch,
    settings: RuinSettings = STRINGS_PERTURBATION,
  ) {
    this.strength = new RuinStrength(settings.strength);
    const m = ls.m;
    this.cluster = m.skipPrice ? new ClusterRoute(ls) : null;
    this.seedRoutes = settings.seedRoutes ?? 0;
    this.seedRoute = this.seedRoutes > 0 ? new SeedRoute(ls) : null;
    this.leanRecreate = settings.leanRecreate ?? false;
    this.removed = new Int32Array(m.customers.length);
    this.touched = new Uint8Array(m.routes);
    this.buffer = new Int32Array(m.customers.length + 2);
    this.recreator = new IdenticalVehiclesRecreate(ls, settings.places);
    this.neighbourhood = settings.ruin === "neighbourhood";
    this.stringsShare = settings.stringsShare;
  }

  /** Ruins, then recreates; returns the number of customers moved. */
  perturb(rng: Rng): number {
    if (this.neighbourhood && !(rng.next() < this.stringsShare)) this.ruinNeighbourhood(rng);
    else this.ruin(rng);
    // A lean recreate's margin is drawn in [0, 1): near 0 a perturbation puts hardly any optional
    // customer back and leaves serving them again to the local search.
    this.recreate(rng, this.leanRecreate && !this.forced ? rng.next() : 1);
    return this.removedCount;
  }

  /** The customers the last perturbation removed, in the order the ruin took them out. */
  lastRemoved(): Int32Array {
    return this.removed.subarray(0, this.removedCount);
  }

  outcome(cameBack: boolean): void {
    this.strength.outcome(cameBack);
  }

  /** Inserts customers that are on no route (a partial start) as recreate does. */
  reinsert(rng: Rng, customers: readonly number[]): void {
    this.removedCount = 0;
    this.forced = false;
    for (const c of customers) this.removed[this.removedCount++] = c;
    this.recreate(rng, 1);
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
      if (this.openSeedRoute(seed, meanLength)) return;
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
   * PyVRP's perturbation: 1 to MAX_NEIGHBOURHOOD customers among a random customer and its
   * granular neighbours, taken out route by route: first those on the seed's route, nearest first,
   * then those on the route of the nearest neighbour not yet taken, and so on. Smaller and more
   * local than SISR's strings, it seldom empties a route, so the search keeps the route count the
   * windows need. Taking each route's share of the neighbourhood together (PyVRP's order) frees
   * stretches of a few routes at once rather than single stops on many.
   */
  private ruinNeighbourhood(rng: Rng): void {
    const ls = this.ls;
    const m = ls.m;
    this.removedCount = 0;
    this.forced = false;
    const count = 1 + rng.int(MAX_NEIGHBOURHOOD);
    const seed = m.customers[rng.int(m.customers.length)]!;
    const near = m.neighbours[seed]!;
    const routeOf = ls.rs.routeOf;
    for (let k = -1; k < near.length && this.removedCount < count; k++) {
      const r = routeOf[k < 0 ? seed : near[k]!]!;
      if (r < 0) continue;
      // The first of the neighbourhood on route r: the rest of r's share follows, nearest first.
      for (let j = k; j < near.length && this.removedCount < count; j++) {
        const c = j < 0 ? seed : near[j]!;
        if (routeOf[c] === r) this.removeString(r, ls.rs.pos[c]!, 1);
      }
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

  /**
   * On every `seedRoutes`-th served seed, when the fleet has an empty route: that route around the
   * seed, its neighbours following where they cost less there (search/moves/seed-route.ts), in place
   * of the strings; whether it was opened. The local search after it and the acceptance judge it.
   */
  private openSeedRoute(seed: number, meanLength: number): boolean {
    if (this.seedRoute === null) return false;
    // By turns rather than by a draw, as openCluster: the random stream changes only when a route opens.
    if (++this.seedTurn < this.seedRoutes) return false;
    this.seedTurn = 0;
    const ls = this.ls;
    let empty = -1;
    for (let r = 0; r < ls.m.routes && empty < 0; r++) if (ls.rs.length[r] === 0) empty = r;
    if (empty < 0) return false;
    this.seedRoute.open(seed, empty, Math.max(1, Math.ceil(meanLength)));
    return true;
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

  /** `margin`: the share of its skip price under which an optional customer's place must cost (1: the price itself). */
  private recreate(rng: Rng, margin: number): void {
    this.recreator.recreate(rng, Array.from(this.removed.subarray(0, this.removedCount)), this.forced, this.neighbourhood, margin);
  }
}
