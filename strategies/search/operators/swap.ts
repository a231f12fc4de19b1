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
    const d = m.dist;
    const seqU = rs.seq[ru]!;
    const seqV = rs.seq[rv]!;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const distU = rs.fwd[ru]![lenU + 1]!;
    const distV = rs.fwd[rv]![lenV + 1]!;
    // The end depot adds no load (routes.ts), so the total at lenU + 1 is the delivered load.
    const loadU = rs.load[ru]![lenU + 1]!;
    const loadV = rs.load[rv]![lenV + 1]!;
    const servU = rs.serv[ru]![lenU + 1]!;
    const servV = rs.serv[rv]![lenV + 1]!;
    const u = seqU[i]!;
    const pu = seqU[i - 1]!;
    const x = seqU[i + 1]!;
    const pv = seqV[j - 1]!;
    const v = seqV[j]!;
    const y = seqV[j + 1]!;
    const qu = m.demand[u]!;
    const su = m.service[u]!;
    const qv = m.demand[v]!;
    const sv = m.service[v]!;
    const a = ls.a;
    const b = ls.b;
    this.ru = ru;
    this.rv = rv;
    // u and v.
    let dA = d[pu * n + v]! + d[v * n + x]! - d[pu * n + u]! - d[u * n + x]!;
    let dB = d[pv * n + u]! + d[u * n + y]! - d[pv * n + v]! - d[v * n + y]!;
    if (ls.pairImproves(ru, lenU, distU + dA, loadU - qu + qv, servU - su + sv, rv, lenV, distV + dB, loadV + qu - qv, servV + su - sv)) {
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
    const qx = m.demand[x]!;
    const sx = m.service[x]!;
    // (u, x) and v.
    dA = d[pu * n + v]! + d[v * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
    dB = d[pv * n + u]! + d[u * n + x]! + d[x * n + y]! - d[pv * n + v]! - d[v * n + y]!;
    const loadA = loadU - qu - qx + qv;
    const servA = servU - su - sx + sv;
    const loadB = loadV + qu + qx - qv;
    const servB = servV + su + sx - sv;
    if (ls.pairImproves(ru, lenU - 1, distU + dA, loadA, servA, rv, lenV + 1, distV + dB, loadB, servB)) {
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
    const qy = m.demand[y]!;
    const sy = m.service[y]!;
    // (u, x) and (v, y).
    dA = d[pu * n + v]! + d[v * n + y]! + d[y * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
    dB = d[pv * n + u]! + d[u * n + x]! + d[x * n + yy]! - d[pv * n + v]! - d[v * n + y]! - d[y * n + yy]!;
    if (ls.pairImproves(ru, lenU, distU + dA, loadA + qy, servA + sy, rv, lenV, distV + dB, loadB - qy, servB - sy)) {
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
}
