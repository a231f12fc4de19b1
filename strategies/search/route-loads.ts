import type { FleetModel } from "./fleet-model.js";
import { LoadSegment } from "./load-segment.js";
import type { Pieces } from "./pieces.js";

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
  /** Shipment pickups met on the candidate being checked (stamped, so never cleared). */
  private readonly seen: Int32Array;
  private stamp = 0;
  private open = 0;
  private pickedUp = false;
  /**
   * Per dimension and route: the load segment of positions 1..k (prefix) and k..length (suffix),
   * delivery, pickup and peak each, so a candidate made of a route's head, loose customers and
   * another route's tail (relocate, swap, 2-opt*) is priced in O(pieces); pieces from the middle
   * of a route or reversed are walked. Null when they would take too much memory.
   */
  private readonly prefix: Float64Array[][] | null;
  private readonly suffix: Float64Array[][] | null;
  /** Per route: linehauls and backhauls among positions 1..k (backhaul order checked in O(pieces)); null without backhauls. */
  private readonly linehauls: Int32Array[] | null;
  private readonly backhauls: Int32Array[] | null;
  private readonly lengths: Int32Array;

  constructor(readonly m: FleetModel) {
    this.seen = new Int32Array(m.nodeCount);
    const slots = m.customers.length + 2;
    this.lengths = new Int32Array(m.routes);
    const keep = m.routes * slots * m.loads.length * 6 <= MAX_STORED;
    const tables = () => m.loads.map(() => Array.from({ length: m.routes }, () => new Float64Array(3 * slots)));
    this.prefix = keep ? tables() : null;
    this.suffix = keep ? tables() : null;
    const counts = keep && m.order?.backhaul ? () => Array.from({ length: m.routes }, () => new Int32Array(slots)) : null;
    this.linehauls = counts ? counts() : null;
    this.backhauls = counts ? counts() : null;
  }

  /** Route r now serves seq[1..count]: stores its segments; returns its load above capacity, summed over dimensions. */
  setRoute(r: number, seq: ArrayLike<number>, count: number): number {
    this.lengths[r] = count;
    if (this.linehauls) {
      const kind = this.m.order!.backhaul!;
      const lin = this.linehauls[r]!;
      const back = this.backhauls![r]!;
      for (let k = 1; k <= count; k++) {
        lin[k] = lin[k - 1]! + (kind[seq[k]!] === 1 ? 1 : 0);
        back[k] = back[k - 1]! + (kind[seq[k]!] === 2 ? 1 : 0);
      }
    }
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
    if (this.brokenRange(list, 0, count - 1)) return Number.POSITIVE_INFINITY;
    const delivery = this.m.loads[0]!.delivery;
    let delivered = 0;
    for (let k = 0; k < count; k++) delivered += delivery[list[k]!]!;
    return this.excessOfRange(v, list, 0, count - 1) - Math.max(0, delivered - this.m.capacity[v]!);
  }

  /** Whether the candidate seq[from..to] breaks the backhaul order or a shipment's pairing (false without order rules). */
  brokenRange(seq: ArrayLike<number>, from: number, to: number): boolean {
    if (!this.m.order) return false;
    this.startOrder();
    for (let k = from; k <= to; k++) if (this.breaks(seq[k]!)) return true;
    return this.open !== 0;
  }

  /**
   * The same for the candidate `pieces` of the current routes (which keep the rules). Backhauls
   * alone: O(pieces) from the routes' counts (a forward piece of a valid route is valid inside; a
   * reversed one only if it holds one kind). Shipments: a walk along the candidate.
   */
  brokenPieces(pieces: Pieces, seqs: readonly Int32Array[]): boolean {
    const order = this.m.order;
    if (!order) return false;
    if (this.linehauls && !order.partner) return this.brokenBackhaulPieces(pieces);
    this.startOrder();
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      if (r < 0) {
        if (this.breaks(pieces.from[k]!)) return true;
        continue;
      }
      const seq = seqs[r]!;
      if (pieces.reversed[k]) {
        for (let t = pieces.to[k]!; t >= pieces.from[k]!; t--) if (this.breaks(seq[t]!)) return true;
      } else for (let t = pieces.from[k]!; t <= pieces.to[k]!; t++) if (this.breaks(seq[t]!)) return true;
    }
    return this.open !== 0;
  }

  private brokenBackhaulPieces(pieces: Pieces): boolean {
    const kind = this.m.order!.backhaul!;
    let pickedUp = false;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      let lin: number;
      let back: number;
      if (r < 0) {
        const c = kind[pieces.from[k]!]!;
        lin = c === 1 ? 1 : 0;
        back = c === 2 ? 1 : 0;
      } else {
        const from = pieces.from[k]!;
        const to = pieces.to[k]!;
        lin = this.linehauls![r]![to]! - this.linehauls![r]![from - 1]!;
        back = this.backhauls![r]![to]! - this.backhauls![r]![from - 1]!;
        if (pieces.reversed[k] && lin > 0 && back > 0) return true;
      }
      if (lin > 0 && pickedUp) return true;
      if (back > 0) pickedUp = true;
    }
    return false;
  }

  private startOrder(): void {
    this.stamp++;
    this.open = 0;
    this.pickedUp = false;
  }
  /** One more visit of the candidate: true when it breaks a rule (open shipments are checked at the end). */
  private breaks(c: number): boolean {
    const order = this.m.order!;
    if (order.backhaul) {
      const kind = order.backhaul[c]!;
      if (kind === 1 && this.pickedUp) return true;
      if (kind === 2) this.pickedUp = true;
    }
    const role = order.role[c]!;
    if (role > 0) {
      this.seen[c] = this.stamp;
      this.open++;
    } else if (role < 0) {
      if (this.seen[order.partner![c]!] !== this.stamp) return true;
      this.open--;
    }
    return false;
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

  private visit(seg: LoadSegment, delivery: Float64Array, pickup: Float64Array | null, c: number): void {
    const q = delivery[c]!;
    const p = pickup ? pickup[c]! : 0;
    seg.append(q, p, q > p ? q : p);
  }
}
