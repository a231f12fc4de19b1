import type { MovePricing, PairOperator } from "./operator.js";

/**
 * Exchange between two routes: customer u at position i of route ru (or u and its successor x)
 * trades places with customer v at position j > 0 of route rv (or v and its successor y): 1-1,
 * 2-1 and 2-2, priced in that order from distance deltas and the routes' totals read from the
 * route store; `evaluate` keeps the first variant that improves for `apply`.
 */
export class Swap implements PairOperator {
  private ru = -1;
  private rv = -1;

  constructor(private readonly ls: MovePricing) {}

  /** Whether a variant improves (j > 0: v is a customer); it is then held in the pricing's pieces for `apply`. */
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
    const pv = seqV[j - 1]!;
    const v = seqV[j]!;
    const y = seqV[j + 1]!;
    const a = ls.a;
    const b = ls.b;
    // Symmetric matrices: d(v, .) read from the row of u, x or pu, which stay cached while u's neighbours are walked (exact-symmetry.ts).
    const sym = rs.symmetric;
    const vx = sym ? x * n + v : v * n + x;
    const pvu = sym ? u * n + pv : pv * n + u;
    this.ru = ru;
    this.rv = rv;
    // Values that several variants read, read once (the sums keep their order, so the prices are the same to the bit).
    const dPuV = dU[pu * n + v]!;
    const dPvU = dV[pvu]!;
    const arcU0 = arcU[i - 1]!;
    const arcU1 = arcU[i]!;
    const arcV0 = arcV[j - 1]!;
    const arcV1 = arcV[j]!;
    // u and v.
    let dA = dPuV + dU[vx]! - arcU0 - arcU1;
    let dB = dPvU + dV[u * n + y]! - arcV0 - arcV1;
    if (ls.pairMayImprove(ru, lenU, distU + dA, rv, lenV, distV + dB) && this.priced(ru, rv, u, -1, v, -1)) {
      a.reset()
        .add(ru, 1, i - 1)
        .add(rv, j, j)
        .add(ru, i + 1, lenU);
      b.reset()
        .add(rv, 1, j - 1)
        .add(ru, i, i)
        .add(rv, j + 1, lenV);
      if (ls.confirmPair(ru, rv)) return true;
    }
    if (i + 1 > lenU) return false;
    const xx = seqU[i + 2]!;
    // (u, x) and v.
    const arcU2 = arcU[i + 1]!;
    const dUX = dV[u * n + x]!;
    dA = dPuV + dU[sym ? xx * n + v : v * n + xx]! - arcU0 - arcU1 - arcU2;
    dB = dPvU + dUX + dV[x * n + y]! - arcV0 - arcV1;
    if (ls.pairMayImprove(ru, lenU - 1, distU + dA, rv, lenV + 1, distV + dB) && this.priced(ru, rv, u, x, v, -1)) {
      a.reset()
        .add(ru, 1, i - 1)
        .add(rv, j, j)
        .add(ru, i + 2, lenU);
      b.reset()
        .add(rv, 1, j - 1)
        .add(ru, i, i + 1)
        .add(rv, j + 1, lenV);
      if (ls.confirmPair(ru, rv)) return true;
    }
    if (j + 1 > lenV) return false;
    const yy = seqV[j + 2]!;
    // (u, x) and (v, y).
    // On one matrix d(v, y) is the arc of v's route that the move keeps (its copy, read above).
    dA = dPuV + (dU === dV ? arcV1 : dU[v * n + y]!) + dU[sym ? xx * n + y : y * n + xx]! - arcU0 - arcU1 - arcU2;
    dB = dPvU + dUX + dV[x * n + yy]! - arcV0 - arcV1 - arcV[j + 1]!;
    if (ls.pairMayImprove(ru, lenU, distU + dA, rv, lenV, distV + dB) && this.priced(ru, rv, u, x, v, y)) {
      a.reset()
        .add(ru, 1, i - 1)
        .add(rv, j, j + 1)
        .add(ru, i + 2, lenU);
      b.reset()
        .add(rv, 1, j - 1)
        .add(ru, i, i + 1)
        .add(rv, j + 2, lenV);
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
   * trade places with v (and y, unless -1). Read only here, since most candidates stop at the
   * distance bound.
   */
  private priced(ru: number, rv: number, u: number, x: number, v: number, y: number): boolean {
    const rs = this.ls.rs;
    const m = rs.m;
    const q = m.demand;
    const s = m.service;
    const loadU = rs.totalLoad[ru]!;
    const loadV = rs.totalLoad[rv]!;
    const servU = rs.totalService[ru]!;
    const servV = rs.totalService[rv]!;
    if (x < 0) return this.ls.pairImproves(loadU - q[u]! + q[v]!, servU - s[u]! + s[v]!, loadV + q[u]! - q[v]!, servV + s[u]! - s[v]!);
    const loadA = loadU - q[u]! - q[x]! + q[v]!;
    const servA = servU - s[u]! - s[x]! + s[v]!;
    const loadB = loadV + q[u]! + q[x]! - q[v]!;
    const servB = servV + s[u]! + s[x]! - s[v]!;
    if (y < 0) return this.ls.pairImproves(loadA, servA, loadB, servB);
    return this.ls.pairImproves(loadA + q[y]!, servA + s[y]!, loadB - q[y]!, servB - s[y]!);
  }
}
