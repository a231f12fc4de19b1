import type { MovePricing, PairOperator } from "./operator.js";

/**
 * Relocate between two routes (Or-opt of one or two customers): customer u at position i of route
 * ru, or u and its successor x (in order and reversed), goes after position j of route rv (j = 0:
 * first). `evaluate` prices the variants in that order from distance deltas and the routes' totals,
 * read from the route store, and keeps the first that improves for `apply`, as the local searches
 * take the first improving move.
 */
export class Relocate implements PairOperator {
  private ru = -1;
  private rv = -1;

  constructor(private readonly ls: MovePricing) {}

  /** Whether a variant improves; it is then held in the pricing's pieces for `apply`. */
  evaluate(ru: number, i: number, rv: number, j: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const m = rs.m;
    const n = m.nodeCount;
    // Each route's changes on its own vehicle's distances (one matrix unless profiles have their own).
    const dU = rs.slotMatrix[ru]!;
    const dV = rs.slotMatrix[rv]!;
    const seqU = rs.seq[ru]!;
    const seqV = rs.seq[rv]!;
    // The arcs a move removes, read from the routes' own copies (routes.ts `arc`): same values, fewer cache misses.
    const arcU = rs.arc[ru]!;
    const arcV = rs.arc[rv]!;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const distU = rs.totalDistance[ru]!;
    const distV = rs.totalDistance[rv]!;
    const u = seqU[i]!;
    const pu = seqU[i - 1]!;
    const x = seqU[i + 1]!;
    const v = seqV[j]!;
    const y = seqV[j + 1]!;
    // Symmetric matrices: d(v, .) read from the row of u, x or pu, which stay cached while u's neighbours are walked (exact-symmetry.ts).
    const vu = rs.symmetric ? u * n + v : v * n + u;
    const vx = rs.symmetric ? x * n + v : v * n + x;
    this.ru = ru;
    this.rv = rv;
    // Values that several variants read, read once (the sums keep their order, so the prices are the same to the bit).
    const arcBefore = arcU[i - 1]!;
    const arcAfter = arcU[i]!;
    const dVU = dV[vu]!;
    const dUY = dV[u * n + y]!;
    const arcVY = arcV[j]!;
    // u after v.
    let dA = rs.skipArc[ru]![i]! - arcBefore - arcAfter;
    let dB = dVU + dUY - arcVY;
    if (ls.pairMayImprove(ru, lenU - 1, distU + dA, rv, lenV + 1, distV + dB) && this.priced(ru, rv, u, -1)) {
      ls.a
        .reset()
        .add(ru, 1, i - 1)
        .add(ru, i + 1, lenU);
      ls.b
        .reset()
        .add(rv, 1, j)
        .add(ru, i, i)
        .add(rv, j + 1, lenV);
      if (ls.confirmPair(ru, rv)) return true;
    }
    if (i + 1 > lenU) return false;
    const xx = seqU[i + 2]!;
    // (u, x) after v, in order, then reversed.
    dA = dU[pu * n + xx]! - arcBefore - arcAfter - arcU[i + 1]!;
    dB = dVU + dV[u * n + x]! + dV[x * n + y]! - arcVY;
    if (ls.pairMayImprove(ru, lenU - 2, distU + dA, rv, lenV + 2, distV + dB) && this.priced(ru, rv, u, x)) {
      ls.a
        .reset()
        .add(ru, 1, i - 1)
        .add(ru, i + 2, lenU);
      ls.b
        .reset()
        .add(rv, 1, j)
        .add(ru, i, i + 1)
        .add(rv, j + 1, lenV);
      if (ls.confirmPair(ru, rv)) return true;
    }
    dB = dV[vx]! + dV[x * n + u]! + dUY - arcVY;
    if (ls.pairMayImprove(ru, lenU - 2, distU + dA, rv, lenV + 2, distV + dB) && this.priced(ru, rv, u, x)) {
      ls.a
        .reset()
        .add(ru, 1, i - 1)
        .add(ru, i + 2, lenU);
      ls.b
        .reset()
        .add(rv, 1, j)
        .add(ru, i, i + 1, true)
        .add(rv, j + 1, lenV);
      if (ls.confirmPair(ru, rv)) return true;
    }
    return false;
  }

  /** Applies the move the last `evaluate` found improving. */
  apply(): void {
    this.ls.commitPair(this.ru, this.rv);
  }

  /**
   * Prices the bounded candidate from the routes' load and service totals: u (and x, unless -1)
   * leave ru for rv. Read only here, since most candidates stop at the distance bound.
   */
  private priced(ru: number, rv: number, u: number, x: number): boolean {
    const rs = this.ls.rs;
    const m = rs.m;
    const loadU = rs.totalLoad[ru]!;
    const loadV = rs.totalLoad[rv]!;
    const servU = rs.totalService[ru]!;
    const servV = rs.totalService[rv]!;
    const qu = m.demand[u]!;
    const su = m.service[u]!;
    if (x < 0) return this.ls.pairImproves(loadU - qu, servU - su, loadV + qu, servV + su);
    const qx = m.demand[x]!;
    const sx = m.service[x]!;
    return this.ls.pairImproves(loadU - qu - qx, servU - su - sx, loadV + qu + qx, servV + su + sx);
  }
}
