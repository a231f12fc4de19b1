import { PairScan } from "./pair-scan.js";
import { Pieces } from "./pieces.js";
import type { Routes } from "./routes.js";

/**
 * The cheapest places for a shipment's two stops in one route (pickup first, both new to the
 * route): every pickup position i and delivery position j >= i, first bounded from below by the
 * vehicle's fixed and distance cost (load and time penalties only add), then priced exactly on
 * the route model (routes.ts: every load dimension's peak, time warp, the order rules). O(len^2)
 * bounds and exact prices only for the pairs of places that could win. Used by pair-aware
 * recreate (ils/pair-recreate.ts) and the pair moves (moves/pair-relocate.ts).
 */
export class PairInsertion {
  readonly pieces = new Pieces();
  /** Where the best found puts the pickup (after position i) and the delivery (after position j of the old route). */
  i = -1;
  j = -1;

  /** O(1) per pair of places under hard windows (pair-scan.ts); null where it does not apply. */
  private readonly scan: PairScan | null;

  constructor(readonly rs: Routes) {
    const scan = new PairScan(rs);
    this.scan = scan.applies() ? scan : null;
  }

  /**
   * Price of route r with the pair inserted at its cheapest places if below `limit`, else Infinity
   * (i, j then -1); the pickup goes after a position in iFrom..iTo and the delivery after one in
   * jFrom..jTo of the old route (default: anywhere).
   */
  best(
    r: number,
    pickup: number,
    delivery: number,
    limit: number,
    iFrom = 0,
    iTo = Number.MAX_SAFE_INTEGER,
    jFrom = 0,
    jTo = Number.MAX_SAFE_INTEGER,
  ): number {
    if (this.scan) {
      const price = this.scan.best(r, pickup, delivery, limit, iFrom, iTo, jFrom, jTo);
      this.i = this.scan.i;
      this.j = this.scan.j;
      return price;
    }
    return this.bestByPieces(r, pickup, delivery, limit, iFrom, iTo, jFrom, jTo);
  }

  /** The same, each candidate that passes the distance bound priced by pieces (routes.ts `price`): any route model. */
  bestByPieces(
    r: number,
    pickup: number,
    delivery: number,
    limit: number,
    iFrom = 0,
    iTo = Number.MAX_SAFE_INTEGER,
    jFrom = 0,
    jTo = Number.MAX_SAFE_INTEGER,
  ): number {
    const rs = this.rs;
    const m = rs.m;
    const n = m.nodeCount;
    const d = rs.slotMatrix[r]!;
    const seq = rs.seq[r]!;
    const len = rs.length[r]!;
    const fixed = m.fixedCost[r]!;
    const unit = m.unitCost[r]!;
    const distance = rs.fwd[r]![len + 1]!;
    let best = Number.POSITIVE_INFINITY;
    this.i = -1;
    this.j = -1;
    const pd = d[pickup * n + delivery]!;
    for (let i = Math.max(0, iFrom); i <= Math.min(len, iTo, jTo); i++) {
      const a = seq[i]!;
      const b = seq[i + 1]!;
      const ab = d[a * n + b]!;
      const intoPickup = d[a * n + pickup]!;
      const dP = intoPickup + d[pickup * n + b]! - ab;
      for (let j = Math.max(i, jFrom); j <= Math.min(len, jTo); j++) {
        let delta: number;
        if (j === i) delta = intoPickup + pd + d[delivery * n + b]! - ab;
        else {
          const x = seq[j]!;
          const y = seq[j + 1]!;
          delta = dP + d[x * n + delivery]! + d[delivery * n + y]! - d[x * n + y]!;
        }
        if (fixed + unit * (distance + delta) >= limit) continue;
        const p = this.place(r, pickup, delivery, i, j);
        // A pair placed in order into a route that keeps its pairs keeps them: no check needed.
        const price = rs.candidates.price(r, p, true);
        if (price < limit) {
          limit = price;
          best = price;
          this.i = i;
          this.j = j;
        }
      }
    }
    return best;
  }

  /** The candidate route r with the pickup after position i and the delivery after position j (>= i). */
  place(r: number, pickup: number, delivery: number, i: number, j: number): Pieces {
    const len = this.rs.length[r]!;
    const p = this.pieces.reset().add(r, 1, i).node(pickup);
    if (j === i) return p.node(delivery).add(r, i + 1, len);
    return p
      .add(r, i + 1, j)
      .node(delivery)
      .add(r, j + 1, len);
  }
}
