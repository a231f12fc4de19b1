import type { MovePricing, RouteOperator } from "./operator.js";

/**
 * Relocate within one route: customer u at position i, or u and its successor x (in order and
 * reversed), goes after position j of the same route. Load and service stay, so each variant is
 * priced from its distance delta first; `evaluate` keeps the first that improves for `apply`.
 */
export class RelocateWithin implements RouteOperator {
  private r = -1;

  constructor(private readonly ls: MovePricing) {}

  /** Whether a variant improves (j is neither i nor i - 1); it is then held in pieces `a` for `apply`. */
  evaluate(r: number, i: number, j: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const n = rs.m.nodeCount;
    const d = rs.slotMatrix[r]!;
    const seq = rs.seq[r]!;
    // The arcs a move removes, from the route's own copy (routes.ts `arc`): same values, fewer cache misses.
    const arc = rs.arc[r]!;
    const len = rs.length[r]!;
    const a = ls.a;
    const u = seq[i]!;
    const pu = seq[i - 1]!;
    const x = seq[i + 1]!;
    const v = seq[j]!;
    const y = seq[j + 1]!;
    // Symmetric matrices: d(v, .) read from the row of u, x or pu, which stay cached while u's neighbours are walked (exact-symmetry.ts).
    const vu = rs.symmetric ? u * n + v : v * n + u;
    const vx = rs.symmetric ? x * n + v : v * n + x;
    this.r = r;
    const removeU = rs.skipArc[r]![i]! - arc[i - 1]! - arc[i]!;
    if (ls.withinImproves(r, removeU + d[vu]! + d[u * n + y]! - arc[j]!)) {
      if (j > i)
        a.reset()
          .add(r, 1, i - 1)
          .add(r, i + 1, j)
          .add(r, i, i)
          .add(r, j + 1, len);
      else
        a.reset()
          .add(r, 1, j)
          .add(r, i, i)
          .add(r, j + 1, i - 1)
          .add(r, i + 1, len);
      if (ls.confirmWithin(r)) return true;
    }
    if (i + 1 > len || j === i + 1) return false;
    const xx = seq[i + 2]!;
    const removePair = d[pu * n + xx]! - arc[i - 1]! - arc[i + 1]!;
    if (ls.withinImproves(r, removePair + d[vu]! + d[x * n + y]! - arc[j]!) && this.pair(r, i, j, len, false)) return true;
    return ls.withinImproves(r, removePair - arc[i]! + d[vx]! + d[x * n + u]! + d[u * n + y]! - arc[j]!) && this.pair(r, i, j, len, true);
  }

  /** Applies the move the last `evaluate` found improving. */
  apply(): void {
    this.ls.commitWithin(this.r);
  }

  /** Prices (u, x) after j exactly, `reversed` or not. */
  private pair(r: number, i: number, j: number, len: number, reversed: boolean): boolean {
    if (j > i + 1)
      this.ls.a
        .reset()
        .add(r, 1, i - 1)
        .add(r, i + 2, j)
        .add(r, i, i + 1, reversed)
        .add(r, j + 1, len);
    else
      this.ls.a
        .reset()
        .add(r, 1, j)
        .add(r, i, i + 1, reversed)
        .add(r, j + 1, i - 1)
        .add(r, i + 2, len);
    return this.ls.confirmWithin(r);
  }
}
