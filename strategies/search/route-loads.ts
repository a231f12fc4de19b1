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
export class RouteLoads {
  private readonly seg = new LoadSegment();
  /** Shipment pickups met on the candidate being checked (stamped, so never cleared). */
  private readonly seen: Int32Array;
  private stamp = 0;

  constructor(readonly m: FleetModel) {
    this.seen = new Int32Array(m.nodeCount);
  }

  /** Whether the candidate seq[from..to] breaks the backhaul order or a shipment's pairing (false without order rules). */
  brokenRange(seq: ArrayLike<number>, from: number, to: number): boolean {
    if (!this.m.order) return false;
    this.startOrder();
    for (let k = from; k <= to; k++) if (this.breaks(seq[k]!)) return true;
    return this.open !== 0;
  }

  /** The same for the candidate `pieces` of the current routes. */
  brokenPieces(pieces: Pieces, seqs: readonly Int32Array[]): boolean {
    if (!this.m.order) return false;
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

  private open = 0;
  private pickedUp = false;

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
    for (const dim of this.m.loads) {
      const seg = this.seg.set(0, 0, 0);
      for (let k = 0; k < pieces.count; k++) {
        const r = pieces.route[k]!;
        if (r < 0) {
          this.visit(seg, dim.delivery, dim.pickup, pieces.from[k]!);
          continue;
        }
        const seq = seqs[r]!;
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
