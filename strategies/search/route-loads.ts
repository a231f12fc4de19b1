import type { ProblemData } from "./problem-data.js";
import { LoadSegment } from "./load-segment.js";
import type { Pieces } from "./pieces.js";
import { RouteOrder } from "./route-order.js";

/**
 * The load part of the route model (routes.ts) when it is more than one dimension delivered from
 * the start: several dimensions, or pickups carried to the end. Each dimension's load segment
 * (load-segment.ts: delivered, picked up, peak on board) is concatenated along the candidate
 * route, and the excess of each peak over the vehicle's capacity in that dimension is summed.
 * O(customers of the candidate); the search's moves keep their O(1) lower bound on the first
 * dimension's delivered load (never above its peak) and reach this exact price only for
 * candidates that pass it.
 */
/** Above this many stored numbers (routes x slots x dimensions) the segments are not kept: every candidate is walked. */
const MAX_STORED = 4_000_000;

export class RouteLoads {
  private readonly seg = new LoadSegment();
  /**
   * Per dimension and route: the load segment of positions 1..k (prefix) and k..length (suffix),
   * delivery, pickup and peak each, so a candidate made of a route's head, loose customers and
   * another route's tail (relocate, swap, 2-opt*) is priced in O(pieces); pieces from the middle
   * of a route or reversed are walked. Null when they would take too much memory.
   */
  private readonly prefix: Float64Array[][] | null;
  private readonly suffix: Float64Array[][] | null;
  private readonly lengths: Int32Array;
  /** The order rules' part (route-order.ts); null without backhauls and shipments. */
  readonly order: RouteOrder | null;

  constructor(readonly m: ProblemData) {
    const slots = m.customers.length + 2;
    this.lengths = new Int32Array(m.routes);
    this.order = m.order ? new RouteOrder(m, this.lengths) : null;
    const keep = m.routes * slots * m.loads.length * 6 <= MAX_STORED;
    const tables = () => m.loads.map(() => Array.from({ length: m.routes }, () => new Float64Array(3 * slots)));
    this.prefix = keep ? tables() : null;
    this.suffix = keep ? tables() : null;
  }

  /** Route r now serves seq[1..count]: stores its segments; returns its load above capacity, summed over dimensions. */
  setRoute(r: number, seq: ArrayLike<number>, count: number): number {
    this.lengths[r] = count;
    this.order?.setRoute(r, seq, count);
    if (!this.prefix) return this.excessOfRange(r, seq, 1, count);
    let excess = 0;
    for (let d = 0; d < this.m.loads.length; d++) {
      const dim = this.m.loads[d]!;
      const pre = this.prefix[d]![r]!;
      const suf = this.suffix![d]![r]!;
      const seg = this.seg.set(0, 0, 0);
      for (let k = 1; k <= count; k++) {
        this.visit(seg, dim.delivery, dim.pickup, seq[k]!);
        pre[3 * k] = seg.delivery;
        pre[3 * k + 1] = seg.pickup;
        pre[3 * k + 2] = seg.peak;
      }
      excess += seg.excess(dim.capacity[r]!);
      suf[3 * (count + 1)] = 0;
      suf[3 * (count + 1) + 1] = 0;
      suf[3 * (count + 1) + 2] = 0;
      for (let k = count; k >= 1; k--) {
        const c = seq[k]!;
        const q = dim.delivery[c]!;
        const p = dim.pickup ? dim.pickup[c]! : 0;
        const nextDelivery = suf[3 * (k + 1)]!;
        suf[3 * k] = q + nextDelivery;
        suf[3 * k + 1] = p + suf[3 * (k + 1) + 1]!;
        suf[3 * k + 2] = Math.max((q > p ? q : p) + nextDelivery, suf[3 * (k + 1) + 2]! + p);
      }
    }
    return excess;
  }

  /**
   * For SWAP* (moves/swap-star.ts), which chooses on the first dimension's delivered total:
   * what vehicle v serving list[0..count) has above capacity at its peaks, minus the delivered
   * total's excess; Infinity when the list breaks an order rule.
   */
  listPriceCorrection(v: number, list: ArrayLike<number>, count: number): number {
    if (count === 0) return 0;
    if (this.order && (this.order.brokenRange(list, 0, count - 1) || this.order.orderExcessRange(list, 0, count - 1) > 0))
      return Number.POSITIVE_INFINITY;
    const delivery = this.m.loads[0]!.delivery;
    let delivered = 0;
    for (let k = 0; k < count; k++) delivered += delivery[list[k]!]!;
    return this.excessOfRange(v, list, 0, count - 1) - Math.max(0, delivered - this.m.capacity[v]!);
  }

  /** Load above capacity, summed over dimensions, of vehicle v serving seq[from..to]. */
  excessOfRange(v: number, seq: ArrayLike<number>, from: number, to: number): number {
    let excess = 0;
    for (const dim of this.m.loads) {
      const seg = this.seg.set(0, 0, 0);
      for (let k = from; k <= to; k++) this.visit(seg, dim.delivery, dim.pickup, seq[k]!);
      excess += seg.excess(dim.capacity[v]!);
    }
    return excess;
  }

  /** Load above capacity, summed over dimensions, of vehicle v serving `pieces` of the current routes. */
  excessOfPieces(v: number, pieces: Pieces, seqs: readonly Int32Array[]): number {
    let excess = 0;
    for (let d = 0; d < this.m.loads.length; d++) {
      const dim = this.m.loads[d]!;
      const seg = this.seg.set(0, 0, 0);
      for (let k = 0; k < pieces.count; k++) {
        const r = pieces.route[k]!;
        if (r < 0) {
          this.visit(seg, dim.delivery, dim.pickup, pieces.from[k]!);
          continue;
        }
        const seq = seqs[r]!;
        if (this.prefix && !pieces.reversed[k]) {
          const from = pieces.from[k]!;
          const to = pieces.to[k]!;
          if (from === 1) {
            const pre = this.prefix[d]![r]!;
            seg.append(pre[3 * to]!, pre[3 * to + 1]!, pre[3 * to + 2]!);
            continue;
          }
          if (to === this.lengths[r]) {
            const suf = this.suffix![d]![r]!;
            seg.append(suf[3 * from]!, suf[3 * from + 1]!, suf[3 * from + 2]!);
            continue;
          }
        }
        if (pieces.reversed[k]) for (let t = pieces.to[k]!; t >= pieces.from[k]!; t--) this.visit(seg, dim.delivery, dim.pickup, seq[t]!);
        else for (let t = pieces.from[k]!; t <= pieces.to[k]!; t++) this.visit(seg, dim.delivery, dim.pickup, seq[t]!);
      }
      excess += seg.excess(dim.capacity[v]!);
    }
    return excess;
  }

  /** Whether the per-route prefix and suffix segments are kept (appendHead / appendTail need them). */
  get stored(): boolean {
    return this.prefix !== null;
  }

  /** Appends dimension d's segment of customers 1..k of route r (nothing for k = 0); needs `stored`. */
  appendHead(seg: LoadSegment, d: number, r: number, k: number): LoadSegment {
    if (k <= 0) return seg;
    const pre = this.prefix![d]![r]!;
    return seg.append(pre[3 * k]!, pre[3 * k + 1]!, pre[3 * k + 2]!);
  }

  /** Appends dimension d's segment of customers k..length of route r (nothing past the end); needs `stored`. */
  appendTail(seg: LoadSegment, d: number, r: number, k: number): LoadSegment {
    if (k > this.lengths[r]!) return seg;
    const suf = this.suffix![d]![r]!;
    return seg.append(suf[3 * k]!, suf[3 * k + 1]!, suf[3 * k + 2]!);
  }

  /** Appends dimension d's visit of customer c. */
  appendNode(seg: LoadSegment, d: number, c: number): LoadSegment {
    const dim = this.m.loads[d]!;
    this.visit(seg, dim.delivery, dim.pickup, c);
    return seg;
  }

  private visit(seg: LoadSegment, delivery: Float64Array, pickup: Float64Array | null, c: number): void {
    const q = delivery[c]!;
    const p = pickup ? pickup[c]! : 0;
    seg.append(q, p, q > p ? q : p);
  }
}
