import type { TextbookMovePricing } from "../textbook/move-pricing.js";

/**
 * Backhauls on the textbook search (backhaul-model.ts): every route is a delivery part (its
 * leading customers with a delivery) and a pickup part, joined at the cut. Plain 2-opt* between
 * two deliveries hands over the whole tail, pickup part included, so a delivery part can only be
 * recombined together with the pickups behind it; on long routes (15-25 customers) the two parts
 * are separate loops and rarely fit each other's new partner. This 2-opt* exchanges the tails
 * within one part only, keeping the other part where it is: for deliveries u (position i of ru)
 * and v (position j of rv; 0: rv's start), u continues with v's delivery tail and then ru's own
 * pickups, v with u's delivery tail and rv's pickups; for pickups u and v, u's pickup head
 * (ru's pickups up to u) continues with v's pickup tail behind rv's delivery part, and the
 * reverse. Both keep every delivery before every pickup and are priced in O(1) from the prefix
 * sums, the exact peak on board added by `confirm` (after `ls.setPair(ru, rv)`).
 */
export function textbookCutTwoOptStar(ls: TextbookMovePricing, u: number, ru: number, i: number, rv: number, j: number, cutU: number, cutV: number): boolean {
  const demand = ls.m.demand;
  const seqV = ls.seq[rv]!;
  if (demand[u]! > 0) {
    // Deliveries: i <= cutU; v a delivery or rv's start. Both cuts at the ends is plain 2-opt*.
    if (i > cutU || j > cutV || (j > 0 && !(demand[seqV[j]!]! > 0)) || (i === cutU && j === cutV)) return false;
    return deliveryTails(ls, u, ru, i, rv, j, cutU, cutV);
  }
  if (j <= cutV || demand[seqV[j]!]! > 0) return false;
  return pickupHeads(ls, u, ru, i, rv, j, cutU, cutV);
}

/** ru: 1..i, rv's (j+1..cutV), ru's (cutU+1..end); rv: 1..j, ru's (i+1..cutU), rv's (cutV+1..end). */
function deliveryTails(ls: TextbookMovePricing, u: number, ru: number, i: number, rv: number, j: number, cutU: number, cutV: number): boolean {
  const d = ls.m.dist;
  const n = ls.m.nodeCount;
  const seqU = ls.seq[ru]!;
  const seqV = ls.seq[rv]!;
  const fwdU = ls.fwd[ru]!;
  const fwdV = ls.fwd[rv]!;
  const ldU = ls.load[ru]!;
  const ldV = ls.load[rv]!;
  const svU = ls.serv[ru]!;
  const svV = ls.serv[rv]!;
  const v = seqV[j]!;
  const pickU = seqU[cutU + 1]!;
  const pickV = seqV[cutV + 1]!;
  // Distance from ru's first pickup (or end depot) to its end, and likewise for rv.
  const backU = ls.distU - fwdU[cutU + 1]!;
  const backV = ls.distV - fwdV[cutV + 1]!;
  const middleA = j < cutV ? d[u * n + seqV[j + 1]!]! + fwdV[cutV]! - fwdV[j + 1]! + d[seqV[cutV]! * n + pickU]! : d[u * n + pickU]!;
  const middleB = i < cutU ? d[v * n + seqU[i + 1]!]! + fwdU[cutU]! - fwdU[i + 1]! + d[seqU[cutU]! * n + pickV]! : d[v * n + pickV]!;
  const distA = fwdU[i]! + middleA + backU;
  const distB = fwdV[j]! + middleB + backV;
  const countA = i + cutV - j + ls.lenU - cutU;
  const countB = j + cutU - i + ls.lenV - cutV;
  const loadA = ldU[i]! + ldV[cutV]! - ldV[j]! + ls.loadU - ldU[cutU]!;
  const loadB = ldV[j]! + ldU[cutU]! - ldU[i]! + ls.loadV - ldV[cutV]!;
  const servA = svU[i]! + svV[cutV]! - svV[j]! + ls.servU - svU[cutU]!;
  const servB = svV[j]! + svU[cutU]! - svU[i]! + ls.servV - svV[cutV]!;
  if (!ls.improves(countA, distA, loadA, servA, countB, distB, loadB, servB)) return false;
  ls.a.reset().add(ru, 1, i).add(rv, j + 1, cutV).add(ru, cutU + 1, ls.lenU);
  ls.b.reset().add(rv, 1, j).add(ru, i + 1, cutU).add(rv, cutV + 1, ls.lenV);
  return ls.confirm(ru, rv) && ls.commit(ru, rv);
}

/** ru: rv's (1..cutV), ru's (cutU+1..i), rv's (j+1..end); rv: ru's (1..cutU), rv's (cutV+1..j), ru's (i+1..end). */
function pickupHeads(ls: TextbookMovePricing, u: number, ru: number, i: number, rv: number, j: number, cutU: number, cutV: number): boolean {
  const d = ls.m.dist;
  const n = ls.m.nodeCount;
  const seqU = ls.seq[ru]!;
  const seqV = ls.seq[rv]!;
  const fwdU = ls.fwd[ru]!;
  const fwdV = ls.fwd[rv]!;
  const ldU = ls.load[ru]!;
  const ldV = ls.load[rv]!;
  const svU = ls.serv[ru]!;
  const svV = ls.serv[rv]!;
  const v = seqV[j]!;
  const distA = fwdV[cutV]! + d[seqV[cutV]! * n + seqU[cutU + 1]!]! + fwdU[i]! - fwdU[cutU + 1]! + d[u * n + seqV[j + 1]!]! + ls.distV - fwdV[j + 1]!;
  const distB = fwdU[cutU]! + d[seqU[cutU]! * n + seqV[cutV + 1]!]! + fwdV[j]! - fwdV[cutV + 1]! + d[v * n + seqU[i + 1]!]! + ls.distU - fwdU[i + 1]!;
  const countA = cutV + i - cutU + ls.lenV - j;
  const countB = cutU + j - cutV + ls.lenU - i;
  const loadA = ldV[cutV]! + ldU[i]! - ldU[cutU]! + ls.loadV - ldV[j]!;
  const loadB = ldU[cutU]! + ldV[j]! - ldV[cutV]! + ls.loadU - ldU[i]!;
  const servA = svV[cutV]! + svU[i]! - svU[cutU]! + ls.servV - svV[j]!;
  const servB = svU[cutU]! + svV[j]! - svV[cutV]! + ls.servU - svU[i]!;
  if (!ls.improves(countA, distA, loadA, servA, countB, distB, loadB, servB)) return false;
  ls.a.reset().add(rv, 1, cutV).add(ru, cutU + 1, i).add(rv, j + 1, ls.lenV);
  ls.b.reset().add(ru, 1, cutU).add(rv, cutV + 1, j).add(ru, i + 1, ls.lenU);
  return ls.confirm(ru, rv) && ls.commit(ru, rv);
}
