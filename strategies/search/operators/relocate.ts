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
    const v = seqV[j]!;
    const y = seqV[j + 1]!;
    const qu = m.demand[u]!;
    const su = m.service[u]!;
    this.ru = ru;
    this.rv = rv;
    // u after v.
    let dA = d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]!;
    let dB = d[v * n + u]! + d[u * n + y]! - d[v * n + y]!;
    if (ls.pairImproves(ru, lenU - 1, distU + dA, loadU - qu, servU - su, rv, lenV + 1, distV + dB, loadV + qu, servV + su)) {
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
    const qx = m.demand[x]!;
    const sx = m.service[x]!;
    const xx = seqU[i + 2]!;
    // (u, x) after v, in order, then reversed.
    dA = d[pu * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
    dB = d[v * n + u]! + d[u * n + x]! + d[x * n + y]! - d[v * n + y]!;
    const loadA = loadU - qu - qx;
    const servA = servU - su - sx;
    const loadB = loadV + qu + qx;
    const servB = servV + su + sx;
    if (ls.pairImproves(ru, lenU - 2, distU + dA, loadA, servA, rv, lenV + 2, distV + dB, loadB, servB)) {
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
    dB = d[v * n + x]! + d[x * n + u]! + d[u * n + y]! - d[v * n + y]!;
    if (ls.pairImproves(ru, lenU - 2, distU + dA, loadA, servA, rv, lenV + 2, distV + dB, loadB, servB)) {
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
}
