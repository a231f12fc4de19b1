import type { MovePricing, RouteOperator } from "./operator.js";

/**
 * 2-opt within one route: with u at position i and v at j > i, the part x..v (positions i+1..j)
 * is reversed. Only the distance changes; the reversed part's comes from the backward prefix
 * sums. `evaluate` holds an improving move for `apply`.
 */
export class TwoOpt implements RouteOperator {
  private r = -1;

  constructor(private readonly ls: MovePricing) {}

  /** Whether reversing positions i+1..j (i < j) improves; it is then held in pieces `a` for `apply`. */
  evaluate(r: number, i: number, j: number): boolean {
    // One customer reversed is the same route: priced through the reversed piece at raised prices, its
    // rounding could look like a gain, and the local search applied it again and again until its time ran out.
    if (j <= i + 1) return false;
    const ls = this.ls;
    const rs = ls.rs;
    const d = rs.slotMatrix[r]!;
    const n = rs.m.nodeCount;
    const seq = rs.seq[r]!;
    // The arcs the move removes, from the route's own copy (routes.ts `arc`): same values, fewer cache misses.
    const arc = rs.arc[r]!;
    const fwd = rs.fwd[r]!;
    const bwd = rs.bwd[r]!;
    const u = seq[i]!;
    const x = seq[i + 1]!;
    const v = seq[j]!;
    const y = seq[j + 1]!;
    const delta = d[u * n + v]! + bwd[j]! - bwd[i + 1]! + d[x * n + y]! - arc[i]! - (fwd[j]! - fwd[i + 1]!) - arc[j]!;
    if (!ls.withinImproves(r, delta)) return false;
    this.r = r;
    ls.a
      .reset()
      .add(r, 1, i)
      .add(r, i + 1, j, true)
      .add(r, j + 1, rs.length[r]!);
    return ls.confirmWithin(r);
  }

  /** Applies the move the last `evaluate` found improving. */
  apply(): void {
    this.ls.commitWithin(this.r);
  }
}
