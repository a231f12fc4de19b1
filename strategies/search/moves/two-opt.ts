import type { GeneralMovePricing } from "../general/move-pricing.js";
import type { TextbookMovePricing } from "../textbook/move-pricing.js";

/**
 * 2-opt within one route: with u at position i and v at j > i, the part x..v (positions i+1..j)
 * is reversed. Only the distance changes; the reversed part's comes from the backward prefix sums.
 */

function delta(d: Float64Array, n: number, seq: Int32Array, fwd: Float64Array, bwd: Float64Array, i: number, j: number): number {
  const u = seq[i]!;
  const x = seq[i + 1]!;
  const v = seq[j]!;
  const y = seq[j + 1]!;
  return d[u * n + v]! + bwd[j]! - bwd[i + 1]! + d[x * n + y]! - d[u * n + x]! - (fwd[j]! - fwd[i + 1]!) - d[v * n + y]!;
}

export function textbookTwoOpt(ls: TextbookMovePricing, r: number, i: number, j: number): boolean {
  if (!ls.withinImproves(r, delta(ls.m.dist, ls.m.nodeCount, ls.rs.seq[r]!, ls.rs.fwd[r]!, ls.rs.bwd[r]!, i, j))) return false;
  ls.a
    .reset()
    .add(r, 1, i)
    .add(r, i + 1, j, true)
    .add(r, j + 1, ls.rs.length[r]!);
  if (!ls.confirmWithin(r)) return false;
  ls.commitWithin(r);
  return true;
}

export function generalTwoOpt(ls: GeneralMovePricing, r: number, i: number, j: number): boolean {
  const rs = ls.rs;
  const d = rs.m.dist;
  const n = rs.m.nodeCount;
  const seq = rs.seq[r]!;
  const u = seq[i]!;
  const x = seq[i + 1]!;
  const sj = seq[j]!;
  const sj1 = seq[j + 1]!;
  const fwd = rs.fwd[r]!;
  const bwd = rs.bwd[r]!;
  // The general search's own order of summation, kept so that its routes stay as they were.
  const change = d[u * n + sj]! + d[x * n + sj1]! - d[u * n + x]! + -d[sj * n + sj1]! + bwd[j]! - bwd[i + 1]! - (fwd[j]! - fwd[i + 1]!);
  if (!ls.withinImproves(r, change)) return false;
  ls.a
    .reset()
    .add(r, 1, i)
    .add(r, i + 1, j, true)
    .add(r, j + 1, rs.length[r]!);
  return ls.tryWithin(r);
}
