import { routeCost, type HgsModel, type Penalties } from "./model.js";
import type { Pieces } from "./pieces.js";
import { PromisingCustomers } from "./promising.js";
import { TextbookTimes } from "./textbook-times.js";

/**
 * The routes of the textbook local search (local-search.ts) with the prefix sums that price its
 * moves in O(1): distance both ways, load, service time, and under binding windows the time
 * segments (textbook-times.ts); each route's penalised cost; where each customer is; and when
 * each route was last rewritten (a clock that is never reset, so that what was examined or
 * cached under it stays comparable across runs).
 */
export class TextbookRoutes {
  /** Per route: depot, customers, depot. */
  readonly seq: Int32Array[];
  readonly length: Int32Array;
  readonly fwd: Float64Array[];
  readonly bwd: Float64Array[];
  readonly load: Float64Array[];
  readonly serv: Float64Array[];
  readonly cost: Float64Array;
  readonly routeOf: Int32Array;
  readonly pos: Int32Array;
  readonly modifiedAt: Float64Array;
  clock = 0;
  readonly scratch: Int32Array;
  readonly scratch2: Int32Array;
  /** Prefix and suffix time segments of every route (null without binding windows). */
  readonly times: TextbookTimes | null;
  /** Told of every rewritten route, for the localised search. */
  protected readonly promising: PromisingCustomers;
  penalties: Penalties = { load: 1, duration: 1, timeWarp: 1 };
  /**
   * Test hook: called after every applied move with the penalised cost the move was priced at
   * and the routes it rewrote (rb = -1 for a move within one route).
   */
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null = null;

  constructor(readonly m: HgsModel) {
    const slots = m.customers.length + 2;
    const routes = m.vehicles;
    this.seq = Array.from({ length: routes }, () => new Int32Array(slots));
    this.fwd = Array.from({ length: routes }, () => new Float64Array(slots));
    this.bwd = Array.from({ length: routes }, () => new Float64Array(slots));
    this.load = Array.from({ length: routes }, () => new Float64Array(slots));
    this.serv = Array.from({ length: routes }, () => new Float64Array(slots));
    this.length = new Int32Array(routes);
    this.cost = new Float64Array(routes);
    this.routeOf = new Int32Array(m.nodeCount).fill(-1);
    this.pos = new Int32Array(m.nodeCount);
    this.modifiedAt = new Float64Array(routes);
    this.scratch = new Int32Array(slots);
    this.scratch2 = new Int32Array(slots);
    this.promising = new PromisingCustomers(m);
    this.times = m.windows ? new TextbookTimes(m, routes, slots) : null;
  }

  /** Loads routes (customers only, one list per vehicle, missing lists empty). */
  loadRoutes(routes: readonly (readonly number[])[]): void {
    for (let r = 0; r < this.m.vehicles; r++) {
      const route = routes[r] ?? [];
      const buf = this.scratch;
      for (let k = 0; k < route.length; k++) buf[k] = route[k]!;
      this.setRoute(r, buf, route.length);
    }
  }

  routes(): number[][] {
    const out: number[][] = [];
    for (let r = 0; r < this.m.vehicles; r++) out.push(Array.from(this.seq[r]!.subarray(1, this.length[r]! + 1)));
    return out;
  }

  totalCost(): number {
    let total = 0;
    for (let r = 0; r < this.m.vehicles; r++) total += this.cost[r]!;
    return total;
  }

  loadOf(r: number): number {
    return this.load[r]![this.length[r]! + 1]!;
  }

  distanceOf(r: number): number {
    return this.fwd[r]![this.length[r]! + 1]!;
  }

  /** Route duration: additive (driving + service), or under windows the segment's (waiting included). */
  durationOf(r: number): number {
    if (this.times) return this.length[r] === 0 ? 0 : this.times.preDur[r]![this.length[r]! + 1]!;
    return this.distanceOf(r) / this.m.speed + this.serv[r]![this.length[r]! + 1]!;
  }

  /** Time warp of route r (0 without windows). */
  timeWarpOf(r: number): number {
    if (!this.m.windows || this.length[r] === 0) return 0;
    return this.times!.preWarp[r]![this.length[r]! + 1]!;
  }

  /** Re-prices every route after the penalties changed. */
  reprice(): void {
    for (let r = 0; r < this.m.vehicles; r++) this.cost[r] = this.priceRoute(r);
  }

  private priceRoute(r: number): number {
    const end = this.length[r]! + 1;
    const cost = routeCost(this.m, this.penalties, this.length[r]!, this.fwd[r]![end]!, this.load[r]![end]!, this.serv[r]![end]!);
    if (!this.times || this.length[r] === 0) return cost;
    return cost + this.times.wholePenalty(r, end, this.penalties);
  }

  /** Time penalty of a route given as a customer list (depots added), from scratch. */
  listTime(customers: Int32Array, count: number): number {
    if (count === 0) return 0;
    return this.times!.listPenalty(customers, count, this.penalties);
  }

  setRoute(r: number, customers: Int32Array, count: number): void {
    const m = this.m;
    const n = m.nodeCount;
    const seq = this.seq[r]!;
    const fwd = this.fwd[r]!;
    const bwd = this.bwd[r]!;
    const load = this.load[r]!;
    const serv = this.serv[r]!;
    seq[0] = m.depot;
    fwd[0] = 0;
    bwd[0] = 0;
    load[0] = 0;
    serv[0] = 0;
    for (let k = 1; k <= count + 1; k++) {
      const node = k <= count ? customers[k - 1]! : m.depot;
      const prev = seq[k - 1]!;
      seq[k] = node;
      fwd[k] = fwd[k - 1]! + m.dist[prev * n + node]!;
      bwd[k] = bwd[k - 1]! + m.dist[node * n + prev]!;
      load[k] = load[k - 1]! + m.demand[node]!;
      serv[k] = serv[k - 1]! + m.service[node]!;
      if (k <= count) {
        this.routeOf[node] = r;
        this.pos[node] = k;
      }
    }
    this.length[r] = count;
    if (this.times) this.times.set(r, seq, count + 1);
    this.cost[r] = this.priceRoute(r);
    this.modifiedAt[r] = ++this.clock;
    this.promising.touch(r);
  }

  /** Marks route r as rewritten (unchanged), so that a localised search examines it again (e.g. after its prices rose). */
  markChanged(r: number): void {
    this.modifiedAt[r] = ++this.clock;
    this.promising.touch(r);
  }

  /** Writes the customers of `pieces` (depots left out) into `out`; returns their count. */
  write(pieces: Pieces, out: Int32Array): number {
    let count = 0;
    for (let k = 0; k < pieces.count; k++) {
      const seq = this.seq[pieces.route[k]!]!;
      const i = pieces.from[k]!;
      const j = pieces.to[k]!;
      if (pieces.reversed[k]) {
        for (let t = j; t >= i; t--) if (!this.isDepotSlot(seq, t)) out[count++] = seq[t]!;
      } else {
        for (let t = i; t <= j; t++) if (!this.isDepotSlot(seq, t)) out[count++] = seq[t]!;
      }
    }
    return count;
  }

  private isDepotSlot(seq: Int32Array, t: number): boolean {
    return seq[t] === this.m.depot;
  }
}
