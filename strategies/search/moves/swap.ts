import type { GeneralMovePricing } from "../general/move-pricing.js";
import type { TextbookMovePricing } from "../textbook/move-pricing.js";

const EPS = 1e-7;

/**
 * Exchange: customer u at position i of route ru (or u and its successor x) trades places with
 * customer v at position j of route rv (or v and its successor y): 1-1, 2-1 and 2-2 between two
 * routes, 1-1 within one. Priced from distance deltas and the routes' totals.
 */

/** Between two routes of the textbook local search (j > 0: v is a customer; after `ls.setPair(ru, rv)`). */
export function textbookSwap(ls: TextbookMovePricing, u: number, ru: number, i: number, rv: number, j: number): boolean {
  const m = ls.m;
  const n = m.nodeCount;
  const d = m.dist;
  const seqU = ls.rs.seq[ru]!;
  const seqV = ls.rs.seq[rv]!;
  const lenU = ls.lenU;
  const lenV = ls.lenV;
  const endU = lenU + 1;
  const endV = lenV + 1;
  const distU = ls.distU;
  const distV = ls.distV;
  const loadU = ls.loadU;
  const loadV = ls.loadV;
  const servU = ls.servU;
  const servV = ls.servV;
  const pu = seqU[i - 1]!;
  const x = seqU[i + 1]!;
  const v = seqV[j]!;
  const y = seqV[j + 1]!;
  const qu = m.demand[u]!;
  const su = m.service[u]!;
  const qx = m.demand[x]!;
  const sx = m.service[x]!;
  const pv = seqV[j - 1]!;
  const qv = m.demand[v]!;
  const sv = m.service[v]!;
  const a = ls.a;
  const b = ls.b;
  // Swap u and v.
  let dA = d[pu * n + v]! + d[v * n + x]! - d[pu * n + u]! - d[u * n + x]!;
  let dB = d[pv * n + u]! + d[u * n + y]! - d[pv * n + v]! - d[v * n + y]!;
  if (ls.improves(lenU, distU + dA, loadU - qu + qv, servU - su + sv, lenV, distV + dB, loadV + qu - qv, servV + su - sv)) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(rv, j, j)
      .add(ru, i + 1, lenU);
    b.reset()
      .add(rv, 1, j - 1)
      .add(ru, i, i)
      .add(rv, j + 1, lenV);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  if (i + 1 >= endU) return false;
  const xx = seqU[i + 2]!;
  // Swap (u, x) and v.
  dA = d[pu * n + v]! + d[v * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
  dB = d[pv * n + u]! + d[u * n + x]! + d[x * n + y]! - d[pv * n + v]! - d[v * n + y]!;
  if (
    ls.improves(
      lenU - 1,
      distU + dA,
      loadU - qu - qx + qv,
      servU - su - sx + sv,
      lenV + 1,
      distV + dB,
      loadV + qu + qx - qv,
      servV + su + sx - sv,
    )
  ) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(rv, j, j)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j - 1)
      .add(ru, i, i + 1)
      .add(rv, j + 1, lenV);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  if (j + 1 >= endV) return false;
  const yy = seqV[j + 2]!;
  const qy = m.demand[y]!;
  const sy = m.service[y]!;
  // Swap (u, x) and (v, y).
  dA = d[pu * n + v]! + d[v * n + y]! + d[y * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
  dB = d[pv * n + u]! + d[u * n + x]! + d[x * n + yy]! - d[pv * n + v]! - d[v * n + y]! - d[y * n + yy]!;
  if (
    ls.improves(
      lenU,
      distU + dA,
      loadU - qu - qx + qv + qy,
      servU - su - sx + sv + sy,
      lenV,
      distV + dB,
      loadV + qu + qx - qv - qy,
      servV + su + sx - sv - sy,
    )
  ) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(rv, j, j + 1)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j - 1)
      .add(ru, i, i + 1)
      .add(rv, j + 2, lenV);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  return false;
}

/** Between two routes of the general search (j > 0; `ls.before` set by the caller). */
export function generalSwap(ls: GeneralMovePricing, ru: number, i: number, rv: number, j: number): boolean {
  const rs = ls.rs;
  const m = rs.m;
  const n = m.nodeCount;
  const d = m.dist;
  const lenU = rs.length[ru]!;
  const lenV = rs.length[rv]!;
  const seqU = rs.seq[ru]!;
  const seqV = rs.seq[rv]!;
  const distU = rs.fwd[ru]![lenU + 1]!;
  const distV = rs.fwd[rv]![lenV + 1]!;
  const loadU = rs.load[ru]![lenU]!;
  const loadV = rs.load[rv]![lenV]!;
  const u = seqU[i]!;
  const pu = seqU[i - 1]!;
  const x = seqU[i + 1]!;
  const v = seqV[j]!;
  const y = seqV[j + 1]!;
  const qu = m.demand[u]!;
  const a = ls.a;
  const b = ls.b;
  const before = ls.before - EPS;
  const pairOut = i + 1 <= lenU;
  const xx = pairOut ? seqU[i + 2]! : -1;
  const qx = pairOut ? m.demand[x]! : 0;
  const pv = seqV[j - 1]!;
  const qv = m.demand[v]!;
  const removeV = -d[pv * n + v]! - d[v * n + y]!;
  if (
    ls.base(ru, lenU, distU + d[pu * n + v]! + d[v * n + x]! - d[pu * n + u]! - d[u * n + x]!, loadU - qu + qv) +
      ls.base(rv, lenV, distV + d[pv * n + u]! + d[u * n + y]! + removeV, loadV - qv + qu) <
    before
  ) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(rv, j, j)
      .add(ru, i + 1, lenU);
    b.reset()
      .add(rv, 1, j - 1)
      .add(ru, i, i)
      .add(rv, j + 1, lenV);
    if (ls.tryPair(ru, rv)) return true;
  }
  if (!pairOut) return false;
  const removeUX = -d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
  if (
    ls.base(ru, lenU - 1, distU + d[pu * n + v]! + d[v * n + xx]! + removeUX, loadU - qu - qx + qv) +
      ls.base(rv, lenV + 1, distV + d[pv * n + u]! + d[u * n + x]! + d[x * n + y]! + removeV, loadV - qv + qu + qx) <
    before
  ) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(rv, j, j)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j - 1)
      .add(ru, i, i + 1)
      .add(rv, j + 1, lenV);
    if (ls.tryPair(ru, rv)) return true;
  }
  if (j + 1 > lenV) return false;
  const yy = seqV[j + 2]!;
  const qy = m.demand[y]!;
  if (
    ls.base(ru, lenU, distU + d[pu * n + v]! + d[v * n + y]! + d[y * n + xx]! + removeUX, loadU - qu - qx + qv + qy) +
      ls.base(
        rv,
        lenV,
        distV + d[pv * n + u]! + d[u * n + x]! + d[x * n + yy]! - d[pv * n + v]! - d[v * n + y]! - d[y * n + yy]!,
        loadV - qv - qy + qu + qx,
      ) <
    before
  ) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(rv, j, j + 1)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j - 1)
      .add(ru, i, i + 1)
      .add(rv, j + 2, lenV);
    if (ls.tryPair(ru, rv)) return true;
  }
  return false;
}

/** Within one route of the textbook local search: the customers at i and j > 0 trade places. */
export function textbookSwapWithin(ls: TextbookMovePricing, r: number, i: number, j: number): boolean {
  const end = ls.rs.length[r]! + 1;
  const a = ls.a;
  const lo = Math.min(i, j);
  const hi = Math.max(i, j);
  if (!ls.withinImproves(r, swapDelta(ls.m.dist, ls.m.nodeCount, ls.rs.seq[r]!, lo, hi))) return false;
  if (hi === lo + 1)
    a.reset()
      .add(r, 1, lo - 1)
      .add(r, hi, hi)
      .add(r, lo, lo)
      .add(r, hi + 1, end - 1);
  else
    a.reset()
      .add(r, 1, lo - 1)
      .add(r, hi, hi)
      .add(r, lo + 1, hi - 1)
      .add(r, lo, lo)
      .add(r, hi + 1, end - 1);
  if (!ls.confirmWithin(r)) return false;
  ls.commitWithin(r);
  return true;
}

/** Within one route of the general search: the customers at i and j > 0 trade places. */
export function generalSwapWithin(ls: GeneralMovePricing, r: number, i: number, j: number): boolean {
  const rs = ls.rs;
  const len = rs.length[r]!;
  const lo = Math.min(i, j);
  const hi = Math.max(i, j);
  if (!ls.withinImproves(r, swapDelta(rs.m.dist, rs.m.nodeCount, rs.seq[r]!, lo, hi))) return false;
  ls.a
    .reset()
    .add(r, 1, lo - 1)
    .add(r, hi, hi)
    .add(r, lo + 1, hi - 1)
    .add(r, lo, lo)
    .add(r, hi + 1, len);
  return ls.tryWithin(r);
}

/** Distance change of exchanging the visits at positions lo < hi of one route. */
function swapDelta(d: Float64Array, n: number, seq: Int32Array, lo: number, hi: number): number {
  const p = seq[lo - 1]!;
  const l = seq[lo]!;
  const h = seq[hi]!;
  const q = seq[hi + 1]!;
  if (hi === lo + 1) return d[p * n + h]! + d[h * n + l]! + d[l * n + q]! - d[p * n + l]! - d[l * n + h]! - d[h * n + q]!;
  const l1 = seq[lo + 1]!;
  const h0 = seq[hi - 1]!;
  return d[p * n + h]! + d[h * n + l1]! + d[h0 * n + l]! + d[l * n + q]! - d[p * n + l]! - d[l * n + l1]! - d[h0 * n + h]! - d[h * n + q]!;
}
