import type { GeneralMovePricing } from "../general/move-pricing.js";
import type { TextbookMovePricing } from "../textbook/move-pricing.js";

/**
 * Relocate (Or-opt of one or two customers): customer u at position i of route ru, or u and its
 * successor x (in order and reversed), goes after position j of route rv (j = 0: first).
 * Between routes, priced from distance deltas and the routes' totals; within a route, from the
 * distance delta alone (load and service stay). Each function returns whether it applied a move.
 */

/** Between two routes of the textbook local search (after `ls.setPair(ru, rv)`). */
export function textbookRelocate(ls: TextbookMovePricing, u: number, ru: number, i: number, rv: number, j: number): boolean {
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
  const a = ls.a;
  const b = ls.b;
  // Relocate u after v.
  let dA = d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]!;
  let dB = d[v * n + u]! + d[u * n + y]! - d[v * n + y]!;
  if (ls.improves(lenU - 1, distU + dA, loadU - qu, servU - su, lenV + 1, distV + dB, loadV + qu, servV + su)) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(ru, i + 1, lenU);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i, i)
      .add(rv, j + 1, lenV);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  if (i + 1 >= endU) return false;
  const qx = m.demand[x]!;
  const sx = m.service[x]!;
  const xx = seqU[i + 2]!;
  // Relocate (u, x) after v, in order and reversed.
  dA = d[pu * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
  dB = d[v * n + u]! + d[u * n + x]! + d[x * n + y]! - d[v * n + y]!;
  if (ls.improves(lenU - 2, distU + dA, loadU - qu - qx, servU - su - sx, lenV + 2, distV + dB, loadV + qu + qx, servV + su + sx)) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i, i + 1)
      .add(rv, j + 1, lenV);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  dB = d[v * n + x]! + d[x * n + u]! + d[u * n + y]! - d[v * n + y]!;
  if (ls.improves(lenU - 2, distU + dA, loadU - qu - qx, servU - su - sx, lenV + 2, distV + dB, loadV + qu + qx, servV + su + sx)) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i, i + 1, true)
      .add(rv, j + 1, lenV);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  return false;
}

/** Between two routes of the general search (positions 1..length are customers; `ls.before` set by the caller). */
export function generalRelocate(ls: GeneralMovePricing, ru: number, i: number, rv: number, j: number): boolean {
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
  // Relocate u after v.
  let removeA = d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]!;
  if (
    ls.base(ru, lenU - 1, distU + removeA, loadU - qu) +
      ls.base(rv, lenV + 1, distV + d[v * n + u]! + d[u * n + y]! - d[v * n + y]!, loadV + qu) <
    before
  ) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(ru, i + 1, lenU);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i, i)
      .add(rv, j + 1, lenV);
    if (ls.tryPair(ru, rv)) return true;
  }
  if (i + 1 > lenU) return false;
  const xx = seqU[i + 2]!;
  const qx = m.demand[x]!;
  // Relocate (u, x) after v, in order and reversed.
  removeA = d[pu * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
  const baseA = ls.base(ru, lenU - 2, distU + removeA, loadU - qu - qx);
  if (baseA + ls.base(rv, lenV + 2, distV + d[v * n + u]! + d[u * n + x]! + d[x * n + y]! - d[v * n + y]!, loadV + qu + qx) < before) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i, i + 1)
      .add(rv, j + 1, lenV);
    if (ls.tryPair(ru, rv)) return true;
  }
  if (baseA + ls.base(rv, lenV + 2, distV + d[v * n + x]! + d[x * n + u]! + d[u * n + y]! - d[v * n + y]!, loadV + qu + qx) < before) {
    a.reset()
      .add(ru, 1, i - 1)
      .add(ru, i + 2, lenU);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i, i + 1, true)
      .add(rv, j + 1, lenV);
    if (ls.tryPair(ru, rv)) return true;
  }
  return false;
}

const EPS = 1e-7;

/** Within one route of the textbook local search: u (at i), or (u, x) in order and reversed, after position j. */
export function textbookRelocateWithin(ls: TextbookMovePricing, u: number, r: number, i: number, j: number): boolean {
  const m = ls.m;
  const n = m.nodeCount;
  const d = m.dist;
  const seq = ls.rs.seq[r]!;
  const end = ls.rs.length[r]! + 1;
  const pu = seq[i - 1]!;
  const x = seq[i + 1]!;
  const v = seq[j]!;
  const y = seq[j + 1]!;
  const a = ls.a;
  const removeU = d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]!;
  if (ls.improvesWithin(r, removeU + d[v * n + u]! + d[u * n + y]! - d[v * n + y]!)) {
    if (j > i)
      a.reset()
        .add(r, 1, i - 1)
        .add(r, i + 1, j)
        .add(r, i, i)
        .add(r, j + 1, end - 1);
    else
      a.reset()
        .add(r, 1, j)
        .add(r, i, i)
        .add(r, j + 1, i - 1)
        .add(r, i + 1, end - 1);
    if (ls.confirmWithin(r)) return ls.commitWithin(r);
  }
  if (!(i + 1 < end && j !== i + 1)) return false;
  const xx = seq[i + 2]!;
  const removePair = d[pu * n + xx]! - d[pu * n + u]! - d[x * n + xx]!;
  if (ls.improvesWithin(r, removePair + d[v * n + u]! + d[x * n + y]! - d[v * n + y]!)) {
    if (j > i + 1)
      a.reset()
        .add(r, 1, i - 1)
        .add(r, i + 2, j)
        .add(r, i, i + 1)
        .add(r, j + 1, end - 1);
    else
      a.reset()
        .add(r, 1, j)
        .add(r, i, i + 1)
        .add(r, j + 1, i - 1)
        .add(r, i + 2, end - 1);
    if (ls.confirmWithin(r)) return ls.commitWithin(r);
  }
  if (ls.improvesWithin(r, removePair - d[u * n + x]! + d[v * n + x]! + d[x * n + u]! + d[u * n + y]! - d[v * n + y]!)) {
    if (j > i + 1)
      a.reset()
        .add(r, 1, i - 1)
        .add(r, i + 2, j)
        .add(r, i, i + 1, true)
        .add(r, j + 1, end - 1);
    else
      a.reset()
        .add(r, 1, j)
        .add(r, i, i + 1, true)
        .add(r, j + 1, i - 1)
        .add(r, i + 2, end - 1);
    if (ls.confirmWithin(r)) return ls.commitWithin(r);
  }
  return false;
}

/** Within one route of the general search: u (at i), or (u, x) in order and reversed, after position j. */
export function generalRelocateWithin(ls: GeneralMovePricing, r: number, i: number, j: number): boolean {
  const rs = ls.rs;
  const n = rs.m.nodeCount;
  const d = rs.m.dist;
  const seq = rs.seq[r]!;
  const len = rs.length[r]!;
  const a = ls.a;
  const u = seq[i]!;
  const pu = seq[i - 1]!;
  const x = seq[i + 1]!;
  const sj = seq[j]!;
  const sj1 = seq[j + 1]!;
  const opened = -d[sj * n + sj1]!;
  if (ls.mayImprove(r, d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]! + d[sj * n + u]! + d[u * n + sj1]! + opened)) {
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
    if (ls.tryWithin(r)) return true;
  }
  if (!(i + 1 <= len && j !== i + 1)) return false;
  const xx = seq[i + 2]!;
  const removed = d[pu * n + xx]! - d[pu * n + u]! - d[x * n + xx]! + opened;
  for (const reversed of [false, true]) {
    const inserted = reversed ? d[sj * n + x]! + d[x * n + u]! + d[u * n + sj1]! - d[u * n + x]! : d[sj * n + u]! + d[x * n + sj1]!;
    if (!ls.mayImprove(r, removed + inserted)) continue;
    if (j > i + 1)
      a.reset()
        .add(r, 1, i - 1)
        .add(r, i + 2, j)
        .add(r, i, i + 1, reversed)
        .add(r, j + 1, len);
    else
      a.reset()
        .add(r, 1, j)
        .add(r, i, i + 1, reversed)
        .add(r, j + 1, i - 1)
        .add(r, i + 2, len);
    if (ls.tryWithin(r)) return true;
  }
  return false;
}
