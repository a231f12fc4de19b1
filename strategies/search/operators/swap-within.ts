import type { MovePricing, RouteOperator } from "./operator.js";

/**
 * Exchange within one route: the customers at positions i and j > 0 trade places. Load and
 * service stay, so the distance delta is priced first; `evaluate` holds the move for `apply`.
 */
export class SwapWithin implements RouteOperator {
  private r = -1;

  constructor(private readonly ls: MovePricing) {}

  /** Whether the exchange improves (j > 0, j not i); it is then held in pieces `a` for `apply`. */
  evaluate(r: number, i: number, j: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const lo = Math.min(i, j);
    const hi = Math.max(i, j);
    const delta = swapDelta(rs.slotMatrix[r]!, rs.m.nodeCount, rs.seq[r]!, rs.arc[r]!, lo, hi, rs.symmetric, i === lo);
    if (!ls.withinImproves(r, delta)) return false;
    this.r = r;
    // Neighbours (hi = lo + 1) leave the middle piece empty, which `add` skips.
    ls.a
      .reset()
      .add(r, 1, lo - 1)
      .add(r, hi, hi)
      .add(r, lo + 1, hi - 1)
      .add(r, lo, lo)
      .add(r, hi + 1, rs.length[r]!);
    return ls.confirmWithin(r);
  }

  /** Applies the move the last `evaluate` found improving. */
  apply(): void {
    this.ls.commitWithin(this.r);
  }
}

/**
 * Distance change of exchanging the visits at positions lo < hi of one route; the arcs it removes
 * come from the route's own copy (routes.ts `arc`), the same values with fewer cache misses. On a
 * symmetric matrix each distance is read from the row of the examined customer (at lo when
 * `examinedLo`, else at hi) or of its route neighbours, which stay cached while its neighbours are
 * walked (exact-symmetry.ts): the same values, added in the same order.
 */
function swapDelta(
  d: Float64Array,
  n: number,
  seq: Int32Array,
  arc: Float64Array,
  lo: number,
  hi: number,
  symmetric: boolean,
  examinedLo: boolean,
): number {
  const p = seq[lo - 1]!;
  const l = seq[lo]!;
  const h = seq[hi]!;
  const q = seq[hi + 1]!;
  const fromLo = symmetric && examinedLo;
  const fromHi = symmetric && !examinedLo;
  const ph = fromHi ? h * n + p : p * n + h;
  const lq = fromHi ? q * n + l : l * n + q;
  if (hi === lo + 1) return d[ph]! + d[fromLo ? l * n + h : h * n + l]! + d[lq]! - arc[lo - 1]! - arc[lo]! - arc[hi]!;
  const l1 = seq[lo + 1]!;
  const h0 = seq[hi - 1]!;
  return (
    d[ph]! +
    d[fromLo ? l1 * n + h : h * n + l1]! +
    d[fromLo ? l * n + h0 : h0 * n + l]! +
    d[lq]! -
    arc[lo - 1]! -
    arc[lo]! -
    arc[hi - 1]! -
    arc[hi]!
  );
}
