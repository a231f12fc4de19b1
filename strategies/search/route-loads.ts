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
  /**
   * Per dimension and route: the load segment of positions 1..k (prefix) and k..length (suffix),
   * delivery, pickup and peak each, so a candidate made of a route's head, loose customers and
   * another route's tail (relocate, swap, 2-opt*) is priced in O(pieces); pieces from the middle
   * of a route or reversed are walked. Null when they would take too much memory.
   */
  private readonly prefix: Float64Array[][] | null;
  private readonly suffix: Float64Array[][] | null;
  /**
   * Backhauls: per route, the order segments of positions 1..k and k..length ([delivered,
   * delivered after the piece's first pickup, 1 if it picks up]), so the backhaul order's
   * breach is priced in O(pieces) like a load; null without backhauls.
   */
  private readonly orderPrefix: Float64Array[] | null;
  private readonly orderSuffix: Float64Array[] | null;
  private readonly lengths: Int32Array;
  /** Backhauls: per route, the position before its first pickup (its deliveries end there). */
  readonly deliveriesEnd: Int32Array;
  /** Shipments: per route, how many pickups among positions 1..k have their delivery after k. */
  private readonly openAfter: Int32Array[] | null;

  constructor(readonly m: FleetModel) {
    this.seen = new Int32Array(m.nodeCount);
    const slots = m.customers.length + 2;
    this.lengths = new Int32Array(m.routes);
    this.deliveriesEnd = new Int32Array(m.routes);
    const keep = m.routes * slots * m.loads.length * 6 <= MAX_STORED;
    const tables = () => m.loads.map(() => Array.from({ length: m.routes }, () => new Float64Array(3 * slots)));
    this.prefix = keep ? tables() : null;
    this.suffix = keep ? tables() : null;
    const orderTables = m.order?.backhaul ? () => Array.from({ length: m.routes }, () => new Float64Array(3 * slots)) : null;
    this.orderPrefix = orderTables ? orderTables() : null;
    this.openAfter = m.order?.partner ? Array.from({ length: m.routes }, () => new Int32Array(slots)) : null;
    this.orderSuffix = orderTables ? orderTables() : null;
  }

  /** Route r now serves seq[1..count]: stores its segments; returns its load above capacity, summed over dimensions. */
  setRoute(r: number, seq: ArrayLike<number>, count: number): number {
    this.lengths[r] = count;
    if (this.openAfter) {
      const role = this.m.order!.role;
      const open = this.openAfter[r]!;
      for (let k = 1; k <= count; k++) open[k] = open[k - 1]! + role[seq[k]!]!;
    }
    if (this.orderPrefix) {
      const kind = this.m.order!.backhaul!;
      const demand = this.m.demand;
      const pre = this.orderPrefix[r]!;
      const suf = this.orderSuffix![r]!;
      for (let k = 1; k <= count; k++) {
        const c = seq[k]!;
        const q = kind[c] === 1 ? demand[c]! : 0;
        pre[3 * k] = pre[3 * k - 3]! + q;
        pre[3 * k + 1] = pre[3 * k - 2]! + (pre[3 * k - 1]! > 0 ? q : 0);
        pre[3 * k + 2] = pre[3 * k - 1]! > 0 || kind[c] === 2 ? 1 : 0;
      }
      let end = 0;
      while (end < count && kind[seq[end + 1]!] !== 2) end++;
      this.deliveriesEnd[r] = end;
      const e = 3 * (count + 1);
      suf[e] = suf[e + 1] = suf[e + 2] = 0;
      for (let k = count; k >= 1; k--) {
        const c = seq[k]!;
        const q = kind[c] === 1 ? demand[c]! : 0;
        const picks = kind[c] === 2;
        suf[3 * k] = q + suf[3 * k + 3]!;
        suf[3 * k + 1] = picks ? suf[3 * k + 3]! : suf[3 * k + 4]!;
        suf[3 * k + 2] = picks || suf[3 * k + 5]! > 0 ? 1 : 0;
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
    return this.excessOfRange(v, list, 0, count - 1) + this.orderExcessRange(list, 0, count - 1) - Math.max(0, delivered - this.m.capacity[v]!);
  }

  /** Whether the candidate seq[from..to] breaks the backhaul order or a shipment's pairing (false without order rules). */
  brokenRange(seq: ArrayLike<number>, from: number, to: number): boolean {
    if (!this.m.order?.partner) return false;
    this.startOrder();
    for (let k = from; k <= to; k++) if (this.breaks(seq[k]!)) return true;
    return this.open !== 0;
  }

  /**
   * The same for the candidate `pieces` of the current routes (which keep the rules). Backhauls
   * alone: O(pieces) from the routes' counts (a forward piece of a valid route is valid inside; a
   * reversed one only if it holds one kind). Shipments: a walk along the candidate.
   */
  brokenPieces(pieces: Pieces, seqs: readonly Int32Array[], routeOf: Int32Array, pos: Int32Array): boolean {
    const order = this.m.order;
    if (!order?.partner) return false;
    // Fast answers in O(pieces) before any walk: a loose stop whose partner is nowhere in the
    // candidate breaks it; pieces that are a route's head or tail that no shipment crosses
    // (open counts), with no loose shipment stop, keep it.
    const partner = order.partner;
    let closed = true;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      if (r < 0) {
        const q = partner[pieces.from[k]!]!;
        if (q < 0) continue;
        closed = false;
        if (!this.holds(pieces, q, routeOf, pos)) return true;
        continue;
      }
      if (pieces.reversed[k]) {
        closed = false;
        continue;
      }
      const open = this.openAfter![r]!;
      if (pieces.from[k] === 1) {
        if (open[pieces.to[k]!] !== 0) closed = false;
      } else if (pieces.to[k] === this.lengths[r]) {
        if (open[pieces.from[k]! - 1] !== 0) closed = false;
      } else closed = false;
    }
    if (closed) return false;
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

  /**
   * The backhaul order's breach of the candidate `pieces`, in load units: what is delivered after
   * the first pickup (0 when the order holds; 0 without backhauls). Folded into the load excess,
   * so the search may cross it at the load price (the evaluator still refuses it).
   */
  orderExcessPieces(pieces: Pieces, seqs: readonly Int32Array[]): number {
    if (!this.orderPrefix) return 0;
    const kind = this.m.order!.backhaul!;
    const demand = this.m.demand;
    let late = 0;
    let picked = false;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      if (r < 0) {
        const c = pieces.from[k]!;
        if (kind[c] === 1) {
          if (picked) late += demand[c]!;
        } else if (kind[c] === 2) picked = true;
        continue;
      }
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      if (!pieces.reversed[k] && (from === 1 || to === this.lengths[r])) {
        const t = from === 1 ? this.orderPrefix[r]! : this.orderSuffix![r]!;
        const at = 3 * (from === 1 ? to : from);
        late += picked ? t[at]! : t[at + 1]!;
        if (t[at + 2]! > 0) picked = true;
        continue;
      }
      const seq = seqs[r]!;
      const step = pieces.reversed[k] ? -1 : 1;
      for (let t = pieces.reversed[k] ? to : from, n = to - from + 1; n > 0; n--, t += step) {
        const c = seq[t]!;
        if (kind[c] === 1) {
          if (picked) late += demand[c]!;
        } else if (kind[c] === 2) picked = true;
      }
    }
    return late;
  }

  /** The same for list[from..to]. */
  orderExcessRange(list: ArrayLike<number>, from: number, to: number): number {
    if (!this.orderPrefix) return 0;
    const kind = this.m.order!.backhaul!;
    let late = 0;
    let picked = false;
    for (let k = from; k <= to; k++) {
      const c = list[k]!;
      if (kind[c] === 1) {
        if (picked) late += this.m.demand[c]!;
      } else if (kind[c] === 2) picked = true;
    }
    return late;
  }

  /** Whether node q is among the candidate's stops (loose, or inside a piece of its route). */
  private holds(pieces: Pieces, q: number, routeOf: Int32Array, pos: Int32Array): boolean {
    const rq = routeOf[q]!;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      if (r < 0 ? pieces.from[k] === q : r === rq && pieces.from[k]! <= pos[q]! && pos[q]! <= pieces.to[k]!) return true;
    }
    return false;
  }

  private startOrder(): void {
    this.stamp++;
    this.open = 0;
  }
  /** One more visit of the candidate: true when it breaks a rule (open shipments are checked at the end). */
  private breaks(c: number): boolean {
    const order = this.m.order!;
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
