import type { ProblemData } from "./problem-data.js";
import type { Pieces } from "./pieces.js";

/**
 * The order rules on the route model (constraints.md, second table), kept per route beside the
 * load segments (route-loads.ts): under backhauls no delivery follows a pickup, and a shipment's
 * two stops share a route, pickup first. Routes (routes.ts) refuse a candidate that breaks them.
 * Backhauls are checked in O(pieces) from per-route order segments; shipments in O(pieces) when
 * the candidate is made of heads and tails that no pair crosses, else by a walk along it.
 */
export class RouteOrder {
  /** Shipment pickups met on the candidate being checked (stamped, so never cleared). */
  private readonly seen: Int32Array;
  private stamp = 0;
  private open = 0;
  /**
   * Backhauls: per route, the order segments of positions 1..k and k..length ([delivered,
   * delivered after the piece's first pickup, 1 if it picks up]); null without backhauls.
   */
  private readonly orderPrefix: Float64Array[] | null;
  private readonly orderSuffix: Float64Array[] | null;
  /** Backhauls: per route, the position before its first pickup (its deliveries end there). */
  readonly deliveriesEnd: Int32Array;
  /** Shipments: per route, how many pickups among positions 1..k have their delivery after k. */
  private readonly openAfter: Int32Array[] | null;

  /** `lengths`: the route lengths, kept by the owner (route-loads.ts). */
  constructor(
    readonly m: ProblemData,
    private readonly lengths: Int32Array,
  ) {
    this.seen = new Int32Array(m.nodeCount);
    const slots = m.customers.length + 2;
    this.deliveriesEnd = new Int32Array(m.routes);
    const orderTables = m.order?.backhaul ? () => Array.from({ length: m.routes }, () => new Float64Array(3 * slots)) : null;
    this.orderPrefix = orderTables ? orderTables() : null;
    this.orderSuffix = orderTables ? orderTables() : null;
    this.openAfter = m.order?.partner ? Array.from({ length: m.routes }, () => new Int32Array(slots)) : null;
  }

  /** Route r now serves seq[1..count]: stores its order data. */
  setRoute(r: number, seq: ArrayLike<number>, count: number): void {
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
   * the first pickup (0 when the order holds; 0 without backhauls). The route model refuses
   * candidates where it is above 0 (routes.ts), as the evaluator does; it was tried as a load
   * excess priced like an overload, which let the search break the order where its moves
   * (neighbour positions only) could not mend it.
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
}
