import type { GeneralMovePricing } from "../general/move-pricing.js";
import type { TextbookMovePricing } from "../textbook/move-pricing.js";

const EPS = 1e-7;

/**
 * 2-opt* between two routes, cut after u (position i of ru) and after v (position j of rv; 0:
 * the start): straight, u continues with v's tail and v with u's tail; reversed, u continues
 * with v's head backwards and u's tail, backwards, precedes v's tail. Each route keeps its
 * vehicle (start and end node).
 */

/** Textbook local search: both variants priced in O(1) from the prefix sums (after `ls.setPair(ru, rv)`). */
export function textbookTwoOptStar(ls: TextbookMovePricing, u: number, ru: number, i: number, rv: number, j: number): boolean {
  const d = ls.m.dist;
  const n = ls.m.nodeCount;
  const seqU = ls.rs.seq[ru]!;
  const seqV = ls.rs.seq[rv]!;
  const lenU = ls.lenU;
  const lenV = ls.lenV;
  const endU = lenU + 1;
  const endV = lenV + 1;
  const fwdU = ls.rs.fwd[ru]!;
  const fwdV = ls.rs.fwd[rv]!;
  const distU = ls.distU;
  const distV = ls.distV;
  const ldU = ls.rs.load[ru]!;
  const ldV = ls.rs.load[rv]!;
  const svU = ls.rs.serv[ru]!;
  const svV = ls.rs.serv[rv]!;
  const loadU = ls.loadU;
  const loadV = ls.loadV;
  const servU = ls.servU;
  const servV = ls.servV;
  const x = seqU[i + 1]!;
  const v = seqV[j]!;
  const y = seqV[j + 1]!;
  const a = ls.a;
  const b = ls.b;
  let distA = fwdU[i]! + d[u * n + y]! + distV - fwdV[j + 1]!;
  let distB = fwdV[j]! + d[v * n + x]! + distU - fwdU[i + 1]!;
  if (
    ls.improves(
      i + lenV - j,
      distA,
      ldU[i]! + loadV - ldV[j]!,
      svU[i]! + servV - svV[j]!,
      j + lenU - i,
      distB,
      ldV[j]! + loadU - ldU[i]!,
      svV[j]! + servU - svU[i]!,
    )
  ) {
    a.reset()
      .add(ru, 1, i)
      .add(rv, j + 1, lenV);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i + 1, lenU);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  const bwdU = ls.rs.bwd[ru]!;
  const bwdV = ls.rs.bwd[rv]!;
  distA = fwdU[i]! + d[u * n + v]! + bwdV[j]!;
  distB = bwdU[endU]! - bwdU[i + 1]! + d[x * n + y]! + distV - fwdV[j + 1]!;
  if (
    ls.improves(
      i + j,
      distA,
      ldU[i]! + ldV[j]!,
      svU[i]! + svV[j]!,
      lenU - i + lenV - j,
      distB,
      loadU - ldU[i]! + loadV - ldV[j]!,
      servU - svU[i]! + servV - svV[j]!,
    )
  ) {
    a.reset().add(ru, 1, i).add(rv, 1, j, true);
    b.reset()
      .add(ru, i + 1, lenU, true)
      .add(rv, j + 1, lenV);
    if (ls.confirm(ru, rv)) return ls.commit(ru, rv);
  }
  return false;
}

/** General search: distance and load of both variants from tail-prices.ts, then the exact price (`ls.before` set by the caller). */
export function generalTwoOptStar(ls: GeneralMovePricing, ru: number, i: number, rv: number, j: number): boolean {
  const lenU = ls.rs.length[ru]!;
  const lenV = ls.rs.length[rv]!;
  const before = ls.before - EPS;
  const a = ls.a;
  const b = ls.b;
  // Skills: rv's vehicle takes u's tail either way; a refused tail is not priced (route-rules.ts).
  const rules = ls.rs.rules;
  if (rules && !rules.servesRange(rv, ru, i + 1, lenU, ls.rs.seq[ru]!)) return false;
  let t = ls.tails.straight(ru, i, rv, j);
  if (
    (rules === null || rules.servesRange(ru, rv, j + 1, lenV, ls.rs.seq[rv]!)) &&
    ls.base(ru, t[2]!, t[0]!, t[1]!) + ls.base(rv, t[5]!, t[3]!, t[4]!) < before
  ) {
    a.reset()
      .add(ru, 1, i)
      .add(rv, j + 1, lenV);
    b.reset()
      .add(rv, 1, j)
      .add(ru, i + 1, lenU);
    if (ls.tryPair(ru, rv)) return true;
  }
  if (rules && !rules.servesRange(ru, rv, 1, j, ls.rs.seq[rv]!)) return false;
  t = ls.tails.reversed(ru, i, rv, j);
  if (ls.base(ru, t[2]!, t[0]!, t[1]!) + ls.base(rv, t[5]!, t[3]!, t[4]!) >= before) return false;
  a.reset().add(ru, 1, i).add(rv, 1, j, true);
  b.reset()
    .add(ru, i + 1, lenU, true)
    .add(rv, j + 1, lenV);
  return ls.tryPair(ru, rv);
}
