import type { TextbookRoutes } from "./routes.js";

/**
 * Backhauls (backhaul-model.ts): per route, its cut, the number of leading customers with a
 * delivery (positions 1..cut deliver, the rest pick up when the route keeps the order), kept
 * lazily: recounted only when the route was rewritten since it was last counted.
 */
export class RouteCuts {
  private readonly cut: Int32Array;
  private readonly countedAt: Float64Array;

  constructor(private readonly routes: TextbookRoutes) {
    this.cut = new Int32Array(routes.m.vehicles);
    this.countedAt = new Float64Array(routes.m.vehicles).fill(-1);
  }

  of(r: number): number {
    const rs = this.routes;
    if (this.countedAt[r]! >= rs.modifiedAt[r]!) return this.cut[r]!;
    const seq = rs.seq[r]!;
    const length = rs.length[r]!;
    const demand = rs.m.demand;
    let k = 0;
    while (k < length && demand[seq[k + 1]!]! > 0) k++;
    this.cut[r] = k;
    this.countedAt[r] = rs.clock;
    return k;
  }
}
