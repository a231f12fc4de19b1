import type { Pieces } from "./pieces.js";
import type { ProblemData } from "./problem-data.js";
import type { TimeSegment } from "./time-segment.js";
import { TripSegment, type TripTerms } from "./trip-segment.js";

/** Vehicle v's travel minutes (distance / speed) and capacity per trip. */
class VehicleTerms implements TripTerms {
  constructor(
    private readonly dist: Float64Array,
    private readonly n: number,
    private readonly speed: number,
    readonly capacity: number,
  ) {}

  minutes(a: number, b: number): number {
    return this.dist[a * this.n + b]! / this.speed;
  }
}

/**
 * The trip part of the route model (routes.ts) for problems with reload stops or release times
 * (CompiledProblem.trips; the search sees reload stops as copies of the reload node, see
 * trip-copies.ts). A reload visit is a load reset: the route's load excess is the sum of its trips'
 * excesses over the vehicle's capacity. Under hard windows it is also where a trip's release is
 * settled: each trip's depot visit (the start node, or the reload stop before it) opens no earlier
 * than the largest release time of the trip's customers. Both are trip segments (trip-segment.ts)
 * stored per route as prefixes (customers 1..k) and suffixes (k..length), so a candidate made of
 * a prefix, a few customers and a suffix is priced in O(1), and a route is priced by the same
 * arithmetic as the moves that made it. The moves' O(1) bounds stay lower bounds because the
 * problem data gives reloading vehicles no capacity bound (problem-data.ts).
 */
export class RouteTrips {
  /** Per node: 1 for a reload copy (a trip ends there). */
  readonly isReset: Uint8Array;
  /** Per node: the vehicle a reload copy belongs to, -1 for every other node. */
  readonly ownerOf: Int32Array;
  /** Whether any vehicle reloads (otherwise loads are priced as before: release times alone). */
  readonly reloads: boolean;
  /** Hard windows: the trip segments price the route's time; otherwise routes.ts prices time as before. */
  readonly timed: boolean;
  private readonly terms: VehicleTerms[];
  /** Per route: the trip segments of its customers 1..k at index k, grown as routes grow. */
  private readonly prefix: TripSegment[][];
  /** Per route: the trip segments of its customers k..length at index k. */
  private readonly suffix: TripSegment[][];
  private readonly unit = new TripSegment();
  private readonly acc = new TripSegment();
  private readonly open: Float64Array;
  private readonly close: Float64Array;
  private readonly release: Float64Array | null;

  constructor(readonly m: ProblemData) {
    const trips = m.p.trips!;
    this.isReset = new Uint8Array(m.nodeCount);
    this.ownerOf = new Int32Array(m.nodeCount).fill(-1);
    trips.reloadNodes.forEach((nodes, v) => {
      for (const c of nodes) {
        this.isReset[c] = 1;
        this.ownerOf[c] = v;
      }
    });
    this.reloads = trips.reloadNodes.some((nodes) => nodes.length > 0);
    this.release = trips.release;
    this.timed = m.twStart !== null && m.latePenalty === 0;
    // Without hard windows only the loads count: every window is then open.
    this.open = this.timed ? m.twStart! : new Float64Array(m.nodeCount).fill(Number.NEGATIVE_INFINITY);
    this.close = this.timed ? m.twEnd! : new Float64Array(m.nodeCount).fill(Number.POSITIVE_INFINITY);
    this.terms = Array.from({ length: m.routes }, (_, v) => new VehicleTerms(m.dist, m.nodeCount, m.speed[v]!, m.p.capacity[v]!));
    this.prefix = Array.from({ length: m.routes }, () => []);
    this.suffix = Array.from({ length: m.routes }, () => []);
  }

  /** Stores the prefixes and suffixes of route r, customers seq[1..len]. */
  set(r: number, seq: Int32Array, len: number): void {
    const pre = this.prefix[r]!;
    const suf = this.suffix[r]!;
    while (pre.length <= len + 1) {
      pre.push(new TripSegment());
      suf.push(new TripSegment());
    }
    const terms = this.terms[r]!;
    suf[len + 1]!.clear();
    for (let k = 1; k <= len; k++) this.appendVisit(pre[k]!.copy(pre[k - 1]!), seq[k]!, terms);
    for (let k = len; k >= 1; k--) suf[k]!.copy(this.visit(seq[k]!)).append(suf[k + 1]!, terms);
  }

  /** The load of the trip of route r that passes between its positions j and j + 1 (j = 0: its start). */
  tripLoadAcross(r: number, j: number): number {
    const before = this.prefix[r]![j]!;
    return (before.reloads ? before.backLoad : before.frontLoad) + this.suffix[r]![j + 1]!.frontLoad;
  }

  /** Vehicle r driving its route as stored (customers 1..len): its time segment (its load excess is then `excess`). */
  whole(r: number, len: number): TimeSegment {
    const acc = this.start(r).append(this.prefix[r]![len]!, this.terms[r]!);
    return this.finish(r, acc);
  }

  /** Load above capacity of the last route priced by whole, segmentOf or listSegment. */
  get excess(): number {
    return this.acc.closedExcess;
  }

  /**
   * Load above capacity, summed over the trips of vehicle v driving `pieces`: the load parts of the
   * trip segments alone, for the moves' first bound (candidate-prices.ts basePrice).
   */
  excessOf(v: number, pieces: Pieces, seqs: readonly Int32Array[], lengths: Int32Array): number {
    const cap = this.m.p.capacity[v]!;
    const demand = this.m.demand;
    const isReset = this.isReset;
    let closed = 0;
    let open = 0;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      const reversed = pieces.reversed[k] === 1;
      if (r >= 0 && !reversed && this.m.p.capacity[r] === cap && (from === 1 || to === lengths[r])) {
        const seg = from === 1 ? this.prefix[r]![to]! : this.suffix[r]![from]!;
        open += seg.frontLoad;
        if (seg.reloads) {
          if (open > cap) closed += open - cap;
          closed += seg.closedExcess;
          open = seg.backLoad;
        }
        continue;
      }
      const seq = r >= 0 ? seqs[r]! : null;
      for (let t = 0; t <= to - from; t++) {
        const c = seq === null ? from : seq[reversed ? to - t : from + t]!;
        if (!isReset[c]) open += demand[c]!;
        else {
          if (open > cap) closed += open - cap;
          open = 0;
        }
      }
    }
    return open > cap ? closed + open - cap : closed;
  }

  /**
   * Vehicle v driving `pieces` (positions 1..length of current routes, or loose nodes): its time
   * segment (its load excess is then `excess`).
   */
  segmentOf(v: number, pieces: Pieces, seqs: readonly Int32Array[], lengths: Int32Array): TimeSegment {
    const terms = this.terms[v]!;
    const acc = this.start(v);
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      if (r < 0) {
        this.appendVisit(acc, from, terms);
        continue;
      }
      const seq = seqs[r]!;
      if (pieces.reversed[k] === 0 && this.sameTerms(r, v) && (from === 1 || to === lengths[r])) {
        acc.append(from === 1 ? this.prefix[r]![to]! : this.suffix[r]![from]!, terms);
        continue;
      }
      if (pieces.reversed[k]) for (let t = to; t >= from; t--) this.appendVisit(acc, seq[t]!, terms);
      else for (let t = from; t <= to; t++) this.appendVisit(acc, seq[t]!, terms);
    }
    return this.finish(v, acc);
  }

  /** Vehicle v driving customers[0..count): its time segment, and `excess`. */
  listSegment(v: number, customers: ArrayLike<number>, count: number): TimeSegment {
    const terms = this.terms[v]!;
    const acc = this.start(v);
    for (let k = 0; k < count; k++) this.appendVisit(acc, customers[k]!, terms);
    return this.finish(v, acc);
  }

  /** The visit of node c as a trip segment: a reload stop, or a customer with its release and demand. */
  private visit(c: number): TripSegment {
    if (this.isReset[c]) return this.unit.depot(c, this.open[c]!, this.close[c]!);
    const release = this.release ? this.release[c]! : Number.NEGATIVE_INFINITY;
    return this.unit.customer(c, this.open[c]!, this.close[c]!, this.m.service[c]!, release, this.m.demand[c]!);
  }

  /** Appends the visit of node c to `seg` (as append with visit(c), without building it). */
  private appendVisit(seg: TripSegment, c: number, terms: TripTerms): TripSegment {
    if (this.isReset[c]) return seg.appendReload(c, this.open[c]!, this.close[c]!, terms);
    const release = this.release ? this.release[c]! : Number.NEGATIVE_INFINITY;
    return seg.appendCustomer(c, this.open[c]!, this.close[c]!, this.m.service[c]!, release, this.m.demand[c]!, terms);
  }

  /** Vehicle v at its start node, which opens its first trip (departure window: see route-times.ts startAt). */
  private start(v: number): TripSegment {
    const m = this.m;
    const node = m.start[v]!;
    return this.timed
      ? this.acc.depot(node, m.departOpen![v]!, m.twEnd![node]!)
      : this.acc.depot(node, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  }

  private finish(v: number, acc: TripSegment): TimeSegment {
    const m = this.m;
    return acc.finish(m.end[v]!, this.timed ? m.arriveClose![v]! : Number.POSITIVE_INFINITY, this.terms[v]!);
  }

  /** Whether route r's stored segments hold on vehicle v: the same speed and the same capacity per trip. */
  private sameTerms(r: number, v: number): boolean {
    return r === v || (this.m.speed[r] === this.m.speed[v] && this.m.p.capacity[r] === this.m.p.capacity[v]);
  }
}
