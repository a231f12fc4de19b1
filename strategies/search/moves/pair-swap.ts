import type { GeneralMovePricing } from "../general/move-pricing.js";
import { PairScan } from "../pair-scan.js";
import { Routes } from "../routes.js";

const EPS = 1e-7;

/**
 * Exchange of two shipments between routes where each enters the other's route at its cheapest
 * places (not only the places the other left, as pair-exchange.ts does): SWAP* (Vidal 2022)
 * for pairs. Each route without its own shipment is written into a scratch route model at the
 * same slot (so on the same vehicle), where pair-scan.ts prices the incoming shipment at every
 * pickup and delivery place in O(1) each. The scratch routes are kept while the route, the
 * shipment taken out and the prices are unchanged, since one shipment is tried against many.
 * Only where the scan applies (hard windows, see pair-scan.ts); `PairSwap.applies` says when.
 */
export class PairSwap {
  private readonly scratch: Routes;
  private readonly scan: PairScan;
  /** Per slot: the pickup whose shipment the scratch route lacks, and the route's clock then. */
  private readonly without: Int32Array;
  private readonly clockOf: Float64Array;
  private loadPrice = Number.NaN;
  private warpPrice = Number.NaN;
  private durationPrice = Number.NaN;
  private readonly list: Int32Array;

  constructor(private readonly ls: GeneralMovePricing) {
    const m = ls.rs.m;
    this.scratch = new Routes(m);
    this.scan = new PairScan(this.scratch);
    this.without = new Int32Array(m.routes).fill(-1);
    this.clockOf = new Float64Array(m.routes);
    this.list = new Int32Array(m.customers.length + 2);
  }

  static applies(ls: GeneralMovePricing): boolean {
    return ls.m.order?.partner != null && new PairScan(ls.rs).applies();
  }

  /** p1 and p2: pickups of shipments on two different routes. Returns whether it applied the move. */
  exchange(p1: number, p2: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const partner = rs.m.order!.partner!;
    const d1 = partner[p1]!;
    const d2 = partner[p2]!;
    const ru = rs.routeOf[p1]!;
    const rv = rs.routeOf[p2]!;
    if (ru < 0 || rv < 0 || ru === rv || rs.routeOf[d1] !== ru || rs.routeOf[d2] !== rv) return false;
    this.syncPrices();
    const before = rs.cost[ru]! + rs.cost[rv]!;
    const leftU = this.reduced(ru, p1, d1);
    const leftV = this.reduced(rv, p2, d2);
    // A shipment added never makes a route cheaper under metric distances (time warp and peak load only grow).
    if (leftU + leftV >= before - EPS) return false;
    const scan = this.scan;
    const inU = scan.best(ru, p2, d2, before - leftV - EPS, 0, Number.MAX_SAFE_INTEGER);
    if (inU === Number.POSITIVE_INFINITY) return false;
    const iU = scan.i;
    const jU = scan.j;
    const inV = scan.best(rv, p1, d1, before - inU - EPS, 0, Number.MAX_SAFE_INTEGER);
    if (inV === Number.POSITIVE_INFINITY) return false;
    const countV = this.write(rv, p1, d1, scan.i, scan.j, ls.outB);
    const countU = this.write(ru, p2, d2, iU, jU, ls.outA);
    ls.predicted = inU + inV;
    rs.setRoute(ru, ls.outA, countU);
    rs.setRoute(rv, ls.outB, countV);
    ls.onCommit?.(ls.predicted, ru, rv);
    return true;
  }

  /** The scratch route at slot r: route r without the shipment of `pickup`; returns its price. */
  private reduced(r: number, pickup: number, delivery: number): number {
    const rs = this.ls.rs;
    const scratch = this.scratch;
    if (this.without[r] !== pickup || this.clockOf[r] !== rs.modifiedAt[r]) {
      const seq = rs.seq[r]!;
      let count = 0;
      for (let k = 1; k <= rs.length[r]!; k++) {
        const c = seq[k]!;
        if (c !== pickup && c !== delivery) this.list[count++] = c;
      }
      scratch.setRoute(r, this.list, count, false);
      this.without[r] = pickup;
      this.clockOf[r] = rs.modifiedAt[r]!;
    }
    return scratch.cost[r]!;
  }

  /** Scratch route r with the shipment's pickup after position i and delivery after position j, into `out`. */
  private write(r: number, pickup: number, delivery: number, i: number, j: number, out: Int32Array): number {
    const seq = this.scratch.seq[r]!;
    const len = this.scratch.length[r]!;
    let count = 0;
    for (let k = 0; k <= len; k++) {
      if (k > 0) out[count++] = seq[k]!;
      if (k === i) out[count++] = pickup;
      if (k === j) out[count++] = delivery;
    }
    return count;
  }

  /** The scratch model prices with the search's current prices; its routes are redone when they change. */
  private syncPrices(): void {
    const pen = this.ls.rs.penalties;
    if (this.loadPrice === pen.load && this.warpPrice === pen.timeWarp && this.durationPrice === pen.duration) return;
    this.loadPrice = pen.load;
    this.warpPrice = pen.timeWarp;
    this.durationPrice = pen.duration;
    this.scratch.penalties = pen;
    this.without.fill(-1);
  }
}
