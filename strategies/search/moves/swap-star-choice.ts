import type { Routes } from "../routes.js";
import { CheapestInsertions } from "./insertion-cache.js";

const EPS = 1e-7;

/** No move improves; an exchange of the customers at best1 and best2; best1 moved into route 2; best2 moved into route 1. */
export const NO_MOVE = 0;
export const EXCHANGE = 1;
export const INTO_SECOND = 2;
export const INTO_FIRST = 3;

/**
 * SWAP*'s choice between two routes (Vidal 2022; swap-star.ts applies it): the exchange of one
 * customer of each, each reinserted at its cheapest place in the other route (in the place the
 * other left, or at one of its three cached cheapest places, insertion-cache.ts), or one
 * customer's relocation to its cheapest place, whichever costs least on each route's own
 * vehicle price of distance and load (fixed + unit x distance, load and additive duration
 * excess: cost-evaluator.ts), below the two routes' current cost. The route caps, time and
 * visit rules and the balance term are priced afterwards, on the chosen move alone.
 */
export class SwapStarChoice {
  /** NO_MOVE, EXCHANGE, INTO_SECOND or INTO_FIRST. */
  kind = NO_MOVE;
  /** Positions of the customers that leave route 1 and route 2 (-1: none). */
  best1 = -1;
  best2 = -1;
  /** Where the incoming customer goes in route 1 and route 2: after this position, -1 in the leaving one's place. */
  at1 = -1;
  at2 = -1;
  /** Both routes' cost now, and the chosen move's price of both on distance and load. */
  before = 0;
  after = 0;
  /** The chosen move's distances of route 1 and route 2, for the route caps' price, which the choice leaves out. */
  newDist1 = 0;
  newDist2 = 0;
  private readonly insertions: CheapestInsertions;
  /** Per position of one route, where its three cheapest insertions in the other are stored. */
  private readonly insAt1: Int32Array;
  private readonly insAt2: Int32Array;
  private readonly removal1: Float64Array;
  private readonly removal2: Float64Array;

  constructor(private readonly ls: Routes) {
    const slots = ls.m.customers.length + 2;
    this.insertions = new CheapestInsertions(ls);
    this.insAt1 = new Int32Array(slots);
    this.insAt2 = new Int32Array(slots);
    this.removal1 = new Float64Array(slots);
    this.removal2 = new Float64Array(slots);
  }

  /** Chooses the move between routes r1 and r2 as above; whether one improves (its fields then describe it). */
  choose(r1: number, r2: number): boolean {
    const ls = this.ls;
    const m = ls.m;
    const pen = ls.penalties;
    const costs = ls.costs;
    const at1s = this.insAt1;
    const at2s = this.insAt2;
    const len1 = ls.length[r1]!;
    const len2 = ls.length[r2]!;
    this.kind = NO_MOVE;
    if (len1 === 0 && len2 === 0) return false;
    this.insertions.preprocess(r1, r2, at1s, this.removal1);
    this.insertions.preprocess(r2, r1, at2s, this.removal2);
    const insCost = this.insertions.cost;
    const insPos = this.insertions.pos;
    const seq1 = ls.seq[r1]!;
    const seq2 = ls.seq[r2]!;
    const dist1 = ls.fwd[r1]![len1 + 1]!;
    const dist2 = ls.fwd[r2]![len2 + 1]!;
    const load1 = ls.load[r1]![len1 + 1]!;
    const load2 = ls.load[r2]![len2 + 1]!;
    const serv1 = ls.serv[r1]![len1 + 1]!;
    const serv2 = ls.serv[r2]![len2 + 1]!;
    const before = ls.cost[r1]! + ls.cost[r2]!;
    // Penalties currently paid, and the load penalty alone after an exchange: the quick filter.
    const unit1 = m.unitCost[r1]!;
    const unit2 = m.unitCost[r2]!;
    const sameUnit = unit1 === unit2;
    const paid = before - (m.fixedCost[r1]! + m.fixedCost[r2]!) - (sameUnit ? unit1 * (dist1 + dist2) : unit1 * dist1 + unit2 * dist2);
    const capacity1 = m.capacity[r1]!;
    const capacity2 = m.capacity[r2]!;
    const loadPrice = pen.load;
    // The reassignment cost is not in the totals: the routes' current one, plus each moved stop's change.
    const reassignment = ls.reassignment;
    const kept = reassignment ? reassignment.routePrice[r1]! + reassignment.routePrice[r2]! : 0;

    let bestAfter = before - EPS;
    let kind = NO_MOVE;
    let best1 = -1;
    let best2 = -1;
    let at1 = -1;
    let at2 = -1;
    // The chosen move's distances, for the route caps' price (rules), which the choice leaves out.
    let newDist1 = dist1;
    let newDist2 = dist2;
    // Skills (route-rules.ts): a customer moves only to a route whose vehicle may serve it.
    const rules = ls.rules;
    const sameProfile = rules === null || rules.fr.profileOf[r1] === rules.fr.profileOf[r2];
    // Read once for the whole pair of routes: the exchange loop below runs len1 x len2 times.
    const demand = m.demand;
    const service = m.service;
    const removal1 = this.removal1;
    const removal2 = this.removal2;
    // Each customer's cheapest place in the other route once its partner leaves: in the partner's
    // place or at the first of its three cached places that does not touch the partner (Vidal
    // 2022). Written out here, with the route arrays read once per pair of routes, and u's cached
    // places once per u: this loop runs len1 x len2 times.
    const n = m.nodeCount;
    const symmetric = ls.symmetric;
    const d1 = ls.slotMatrix[r1]!;
    const d2 = ls.slotMatrix[r2]!;
    const skip1 = ls.skipArc[r1]!;
    const skip2 = ls.skipArc[r2]!;
    for (let k1 = 1; k1 <= len1; k1++) {
      const u = seq1[k1]!;
      if (!sameProfile && !rules!.serves(r2, u)) continue;
      const qu = demand[u]!;
      const su = service[u]!;
      const rem1 = removal1[k1]!;
      const rowU = u * n;
      const base1 = at1s[k1]!;
      const p0 = insPos[base1]!;
      const p1 = insPos[base1 + 1]!;
      const p2 = insPos[base1 + 2]!;
      // v in u's place: between u's neighbours, whose rows stay fixed while v runs over route r2
      // (under a symmetric matrix d(v, a) is d(a, v), bit for bit).
      const prev1 = seq1[k1 - 1]!;
      const next1 = seq1[k1 + 1]!;
      const rowPrev1 = prev1 * n;
      const rowNext1 = next1 * n;
      const skipU = skip1[k1]!;
      for (let k2 = 1; k2 <= len2; k2++) {
        const v = seq2[k2]!;
        if (!sameProfile && !rules!.serves(r1, v)) continue;
        const qv = demand[v]!;
        const rem2 = removal2[k2]!;
        const newLoad1 = load1 - qu + qv;
        const newLoad2 = load2 - qv + qu;
        const over1 = newLoad1 > capacity1 ? loadPrice * (newLoad1 - capacity1) : 0;
        const over2 = newLoad2 > capacity2 ? loadPrice * (newLoad2 - capacity2) : 0;
        if ((sameUnit ? unit1 * (rem1 + rem2) : unit1 * rem1 + unit2 * rem2) + over1 + over2 - paid >= 0) continue;
        const sv = service[v]!;
        // u into r2 without v.
        const prev2 = seq2[k2 - 1]!;
        let extra2 = d2[symmetric ? rowU + prev2 : prev2 * n + u]! + d2[rowU + seq2[k2 + 1]!]! - skip2[k2]!;
        let pos2 = -1;
        const t2 = firstApart(p0, p1, p2, k2);
        if (t2 >= 0 && insCost[base1 + t2]! < extra2) {
          extra2 = insCost[base1 + t2]!;
          pos2 = insPos[base1 + t2]!;
        }
        // v into r1 without u.
        let extra1 = d1[rowPrev1 + v]! + d1[symmetric ? rowNext1 + v : v * n + next1]! - skipU;
        let pos1 = -1;
        const base2 = at2s[k2]!;
        const t1 = firstApart(insPos[base2]!, insPos[base2 + 1]!, insPos[base2 + 2]!, k1);
        if (t1 >= 0 && insCost[base2 + t1]! < extra1) {
          extra1 = insCost[base2 + t1]!;
          pos1 = insPos[base2 + t1]!;
        }
        const after =
          costs.fromTotals(r1, len1, dist1 + rem1 + extra1, newLoad1, serv1 - su + sv) +
          costs.fromTotals(r2, len2, dist2 + rem2 + extra2, newLoad2, serv2 - sv + su) +
          (reassignment ? kept + reassignment.moveDelta(u, r1, r2) + reassignment.moveDelta(v, r2, r1) : 0);
        if (after < bestAfter) {
          bestAfter = after;
          kind = EXCHANGE;
          best1 = k1;
          best2 = k2;
          at1 = pos1;
          at2 = pos2;
          newDist1 = dist1 + rem1 + extra1;
          newDist2 = dist2 + rem2 + extra2;
        }
      }
    }
    // Plain relocations to the best insertion point come for free.
    for (let k1 = 1; k1 <= len1; k1++) {
      const u = seq1[k1]!;
      if (!sameProfile && !rules!.serves(r2, u)) continue;
      const out1 = dist1 + removal1[k1]!;
      const in2 = dist2 + insCost[at1s[k1]!]!;
      const after =
        costs.fromTotals(r1, len1 - 1, out1, load1 - demand[u]!, serv1 - service[u]!) +
        costs.fromTotals(r2, len2 + 1, in2, load2 + demand[u]!, serv2 + service[u]!) +
        (reassignment ? kept + reassignment.moveDelta(u, r1, r2) : 0);
      if (after < bestAfter) {
        bestAfter = after;
        kind = INTO_SECOND;
        best1 = k1;
        at2 = insPos[at1s[k1]!]!;
        newDist1 = out1;
        newDist2 = in2;
      }
    }
    for (let k2 = 1; k2 <= len2; k2++) {
      const v = seq2[k2]!;
      if (!sameProfile && !rules!.serves(r1, v)) continue;
      const out2 = dist2 + removal2[k2]!;
      const in1 = dist1 + insCost[at2s[k2]!]!;
      const after =
        costs.fromTotals(r2, len2 - 1, out2, load2 - demand[v]!, serv2 - service[v]!) +
        costs.fromTotals(r1, len1 + 1, in1, load1 + demand[v]!, serv1 + service[v]!) +
        (reassignment ? kept + reassignment.moveDelta(v, r2, r1) : 0);
      if (after < bestAfter) {
        bestAfter = after;
        kind = INTO_FIRST;
        best2 = k2;
        at1 = insPos[at2s[k2]!]!;
        newDist2 = out2;
        newDist1 = in1;
      }
    }
    this.before = before;
    this.after = bestAfter;
    this.kind = kind;
    this.best1 = best1;
    this.best2 = best2;
    this.at1 = at1;
    this.at2 = at2;
    this.newDist1 = newDist1;
    this.newDist2 = newDist2;
    return kind !== NO_MOVE;
  }
}

/**
 * Which of a customer's three cached places (positions after which it goes, -1 past the last
 * found) is the first that does not touch position k, whose customer leaves: -1 when none.
 */
function firstApart(p0: number, p1: number, p2: number, k: number): number {
  if (p0 < 0) return -1;
  if (p0 !== k && p0 !== k - 1) return 0;
  if (p1 < 0) return -1;
  if (p1 !== k && p1 !== k - 1) return 1;
  return p2 >= 0 && p2 !== k && p2 !== k - 1 ? 2 : -1;
}
