import type { Rng } from "../../core/rng.js";
import type { Routes } from "../routes.js";
import { rulePrice } from "../cost-evaluator.js";
import { CheapestInsertions } from "./insertion-cache.js";
import { rewrite } from "./swap-star-lists.js";

const EPS = 1e-7;

/**
 * What SWAP* needs from a local search: the route model, two scratch buffers, and how it
 * rewrites a route (so that a search's bookkeeping, e.g. the localised search's promising
 * customers, follows). Routes are priced from their totals on their own vehicles
 * (cost-evaluator.ts).
 */
export interface SwapStarHost {
  readonly rs: Routes;
  readonly scratch: Int32Array;
  readonly scratch2: Int32Array;
  setRoute(r: number, customers: Int32Array, count: number): void;
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null;
}

/**
 * SWAP* (Vidal 2022), the one implementation both local searches use: exchanges one customer of
 * a route with one of another, each reinserted at its best place in the other route (not
 * necessarily where the other was), or relocates one customer to its best place, choosing on
 * each route's own vehicle price of distance and load from cached cheapest insertions; the
 * chosen move's route caps (rules) and, under windows, its exact time price (time warp or soft
 * lateness, and durations; route-times.ts or route-schedules.ts) are added before it is applied.
 * Skills are never broken: a customer moves only to a vehicle that may serve it. Breaks are not
 * priced here: a search with them does not use SWAP*.
 */
export class SwapStar {
  private readonly insertions: CheapestInsertions;
  /** Per position of one route, where its three cheapest insertions in the other are stored. */
  private readonly insAt1: Int32Array;
  private readonly insAt2: Int32Array;
  private readonly removal1: Float64Array;
  private readonly removal2: Float64Array;
  private readonly pairMark: Uint8Array;
  private readonly swapTestedAt: Float64Array;
  private readonly routeOrder: Int32Array;

  private readonly ls: Routes;

  constructor(private readonly host: SwapStarHost) {
    const ls = (this.ls = host.rs);
    const m = ls.m;
    const slots = m.customers.length + 2;
    const routes = m.routes;
    this.insertions = new CheapestInsertions(ls);
    this.insAt1 = new Int32Array(slots);
    this.insAt2 = new Int32Array(slots);
    this.removal1 = new Float64Array(slots);
    this.removal2 = new Float64Array(slots);
    this.pairMark = new Uint8Array(routes * routes);
    this.swapTestedAt = new Float64Array(routes);
    this.routeOrder = Int32Array.from({ length: routes }, (_, r) => r);
  }

  /** Starts a local-search run: every pair of routes is tested again. */
  forget(): void {
    this.swapTestedAt.fill(-1);
  }

  /**
   * SWAP* (Vidal 2022) between pairs of routes that are neighbours (some customer of one has a
   * granular neighbour in the other: a coordinate-free stand-in for overlapping polar sectors),
   * re-tested only when either route changed since.
   */
  pass(rng: Rng, loop: number): boolean {
    const m = this.ls.m;
    const routes = m.routes;
    const mark = this.pairMark;
    mark.fill(0);
    for (const u of m.customers) {
      const ru = this.ls.routeOf[u]!;
      const near = m.neighbours[u]!;
      for (let k = 0; k < near.length; k++) {
        const rv = this.ls.routeOf[near[k]!]!;
        if (rv !== ru) mark[ru < rv ? ru * routes + rv : rv * routes + ru] = 1;
      }
    }
    const order = this.routeOrder;
    for (let k = order.length - 1; k > 0; k--) {
      const t = rng.int(k + 1);
      const tmp = order[k]!;
      order[k] = order[t]!;
      order[t] = tmp;
    }
    let improved = false;
    for (let a = 0; a < routes; a++) {
      const r1 = order[a]!;
      const last = this.swapTestedAt[r1]!;
      this.swapTestedAt[r1] = this.ls.clock;
      for (let r2 = 0; r2 < routes; r2++) {
        if (r2 === r1 || mark[r1 < r2 ? r1 * routes + r2 : r2 * routes + r1] === 0) continue;
        if (this.ls.length[r1] === 0 || this.ls.length[r2] === 0) continue;
        if (loop > 0 && Math.max(this.ls.modifiedAt[r1]!, this.ls.modifiedAt[r2]!) <= last) continue;
        if (this.swapStar(r1, r2)) improved = true;
      }
    }
    return improved;
  }

  /**
   * As pass, after a localised change (an iterated search's ruin and recreate): visits only the
   * routes that changed since they were last tested, each with its neighbour routes (those of
   * its customers' granular neighbours), skipping pairs already tested since both last changed;
   * so the cost follows the routes that changed instead of all pairs of routes.
   */
  passLocalised(rng: Rng): boolean {
    const ls = this.ls;
    const m = ls.m;
    const routes = m.routes;
    const changed: number[] = [];
    for (let r = 0; r < routes; r++) if (ls.modifiedAt[r]! > this.swapTestedAt[r]! && ls.length[r]! > 0) changed.push(r);
    rng.shuffle(changed);
    const mark = this.pairMark;
    let improved = false;
    for (const r1 of changed) {
      // Routes near r1, and whether r1 changed since each was last tested from its side.
      const seq = ls.seq[r1]!;
      const near: number[] = [];
      for (let k = 1; k <= ls.length[r1]!; k++) {
        const list = m.neighbours[seq[k]!]!;
        for (let t = 0; t < list.length; t++) {
          const r2 = ls.routeOf[list[t]!]!;
          if (r2 >= 0 && r2 !== r1 && mark[r2] === 0) {
            mark[r2] = 1;
            near.push(r2);
          }
        }
      }
      for (const r2 of near) mark[r2] = 0;
      for (const r2 of near) {
        if (ls.length[r1] === 0 || ls.length[r2] === 0) continue;
        // Tested since both last changed (from either side, earlier in this pass): skip.
        const last = Math.max(this.swapTestedAt[r1]!, this.swapTestedAt[r2]!);
        if (Math.max(ls.modifiedAt[r1]!, ls.modifiedAt[r2]!) <= last) continue;
        if (this.swapStar(r1, r2)) improved = true;
      }
      this.swapTestedAt[r1] = ls.clock;
    }
    return improved;
  }

  private swapStar(r1: number, r2: number): boolean {
    const m = this.ls.m;
    const pen = this.ls.penalties;
    const costs = this.ls.costs;
    const at1s = this.insAt1;
    const at2s = this.insAt2;
    const len1 = this.ls.length[r1]!;
    const len2 = this.ls.length[r2]!;
    if (len1 === 0 && len2 === 0) return false;
    this.insertions.preprocess(r1, r2, at1s, this.removal1);
    this.insertions.preprocess(r2, r1, at2s, this.removal2);
    const insCost = this.insertions.cost;
    const insPos = this.insertions.pos;
    const seq1 = this.ls.seq[r1]!;
    const seq2 = this.ls.seq[r2]!;
    const dist1 = this.ls.fwd[r1]![len1 + 1]!;
    const dist2 = this.ls.fwd[r2]![len2 + 1]!;
    const load1 = this.ls.load[r1]![len1 + 1]!;
    const load2 = this.ls.load[r2]![len2 + 1]!;
    const serv1 = this.ls.serv[r1]![len1 + 1]!;
    const serv2 = this.ls.serv[r2]![len2 + 1]!;
    const before = this.ls.cost[r1]! + this.ls.cost[r2]!;
    // Penalties currently paid, and the load penalty alone after an exchange: the quick filter.
    const unit1 = m.unitCost[r1]!;
    const unit2 = m.unitCost[r2]!;
    const sameUnit = unit1 === unit2;
    const paid = before - (m.fixedCost[r1]! + m.fixedCost[r2]!) - (sameUnit ? unit1 * (dist1 + dist2) : unit1 * dist1 + unit2 * dist2);
    const capacity1 = m.capacity[r1]!;
    const capacity2 = m.capacity[r2]!;
    const loadPrice = pen.load;
    // The reassignment cost is not in the totals: the routes' current one, plus each moved stop's change.
    const reassignment = this.ls.reassignment;
    const kept = reassignment ? reassignment.routePrice[r1]! + reassignment.routePrice[r2]! : 0;

    let bestAfter = before - EPS;
    let kind = 0;
    let best1 = -1;
    let best2 = -1;
    let at1 = -1;
    let at2 = -1;
    // The chosen move's distances, for the route caps' price (rules), which the choice leaves out.
    let newDist1 = dist1;
    let newDist2 = dist2;
    // Skills (route-rules.ts): a customer moves only to a route whose vehicle may serve it.
    const rules = this.ls.rules;
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
    const symmetric = this.ls.symmetric;
    const d1 = this.ls.slotMatrix[r1]!;
    const d2 = this.ls.slotMatrix[r2]!;
    const skip1 = this.ls.skipArc[r1]!;
    const skip2 = this.ls.skipArc[r2]!;
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
          kind = 1;
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
      const after =
        costs.fromTotals(r1, len1 - 1, dist1 + this.removal1[k1]!, load1 - m.demand[u]!, serv1 - m.service[u]!) +
        costs.fromTotals(r2, len2 + 1, dist2 + insCost[at1s[k1]!]!, load2 + m.demand[u]!, serv2 + m.service[u]!) +
        (reassignment ? kept + reassignment.moveDelta(u, r1, r2) : 0);
      if (after < bestAfter) {
        bestAfter = after;
        kind = 2;
        best1 = k1;
        at2 = insPos[at1s[k1]!]!;
        newDist1 = dist1 + this.removal1[k1]!;
        newDist2 = dist2 + insCost[at1s[k1]!]!;
      }
    }
    for (let k2 = 1; k2 <= len2; k2++) {
      const v = seq2[k2]!;
      if (!sameProfile && !rules!.serves(r1, v)) continue;
      const after =
        costs.fromTotals(r2, len2 - 1, dist2 + this.removal2[k2]!, load2 - m.demand[v]!, serv2 - m.service[v]!) +
        costs.fromTotals(r1, len1 + 1, dist1 + insCost[at2s[k2]!]!, load1 + m.demand[v]!, serv1 + m.service[v]!) +
        (reassignment ? kept + reassignment.moveDelta(v, r2, r1) : 0);
      if (after < bestAfter) {
        bestAfter = after;
        kind = 3;
        best2 = k2;
        at1 = insPos[at2s[k2]!]!;
        newDist2 = dist2 + this.removal2[k2]!;
        newDist1 = dist1 + insCost[at2s[k2]!]!;
      }
    }
    if (kind === 0) return false;
    let new1: number;
    let new2: number;
    if (kind === 1) {
      new1 = rewrite(this.ls, r1, best1, seq2[best2]!, at1, this.host.scratch);
      new2 = rewrite(this.ls, r2, best2, seq1[best1]!, at2, this.host.scratch2);
    } else if (kind === 2) {
      new1 = rewrite(this.ls, r1, best1, -1, -2, this.host.scratch);
      new2 = rewrite(this.ls, r2, -1, seq1[best1]!, at2, this.host.scratch2);
    } else {
      new1 = rewrite(this.ls, r1, -1, seq2[best2]!, at1, this.host.scratch);
      new2 = rewrite(this.ls, r2, best2, -1, -2, this.host.scratch2);
    }
    if (this.ls.loads) {
      // Chosen on the delivered load (a lower bound of the peak on board): priced at every
      // dimension's peak, and refused when it breaks the backhaul order (route-loads.ts).
      const exact =
        this.ls.loads.listPriceCorrection(r1, this.host.scratch, new1) + this.ls.loads.listPriceCorrection(r2, this.host.scratch2, new2);
      bestAfter += pen.load * exact;
      if (bestAfter >= before - EPS) return false;
    }
    if (rules !== null) {
      // Chosen without the route caps (distance, stops): their price is added before it is applied.
      // An emptied route is an unused vehicle, which no cap prices.
      if (new1 > 0) bestAfter += rulePrice(pen, rules.distanceExcess(r1, newDist1), rules.stopsExcess(r1, new1));
      if (new2 > 0) bestAfter += rulePrice(pen, rules.distanceExcess(r2, newDist2), rules.stopsExcess(r2, new2));
      if (bestAfter >= before - EPS) return false;
    }
    if (this.ls.times || this.ls.schedules) {
      // Chosen on distance and load; priced exactly (time warp or lateness, duration) before it is applied.
      bestAfter +=
        this.ls.candidates.listTimePrice(r1, this.host.scratch, new1) + this.ls.candidates.listTimePrice(r2, this.host.scratch2, new2);
      if (bestAfter >= before - EPS) return false;
    } else if (this.ls.visits) {
      // Chosen without the visit rules (route-visits.ts): their price is added before it is applied.
      bestAfter += this.ls.visits.price(r1, this.host.scratch, new1, pen) + this.ls.visits.price(r2, this.host.scratch2, new2, pen);
      if (bestAfter >= before - EPS) return false;
    }
    const balance = this.ls.balance;
    if (balance !== null) {
      // Chosen without the balance term: its change is priced before the move is applied.
      const w1 = balance.workloadOfList(r1, this.host.scratch, new1, newDist1);
      bestAfter += balance.delta(r1, w1, r2, balance.workloadOfList(r2, this.host.scratch2, new2, newDist2));
      if (bestAfter >= before - EPS) return false;
    }
    this.host.setRoute(r1, this.host.scratch, new1);
    this.host.setRoute(r2, this.host.scratch2, new2);
    if (this.host.onCommit) this.host.onCommit(bestAfter, r1, r2);
    return true;
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
