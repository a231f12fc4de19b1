import type { Rng } from "../../core/rng.js";
import type { Routes } from "../routes.js";
import { rulePrice } from "../cost-evaluator.js";
import { EXCHANGE, INTO_SECOND, SwapStarChoice } from "./swap-star-choice.js";
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
  private readonly choice: SwapStarChoice;
  private readonly pairMark: Uint8Array;
  private readonly swapTestedAt: Float64Array;
  private readonly routeOrder: Int32Array;

  private readonly ls: Routes;

  constructor(private readonly host: SwapStarHost) {
    const ls = (this.ls = host.rs);
    const routes = ls.m.routes;
    this.choice = new SwapStarChoice(ls);
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

  /** SWAP*'s choice between r1 and r2 (swap-star-choice.ts), priced in full and applied when it still improves. */
  private swapStar(r1: number, r2: number): boolean {
    const choice = this.choice;
    if (!choice.choose(r1, r2)) return false;
    const { kind, best1, best2, at1, at2, newDist1, newDist2, before } = choice;
    let bestAfter = choice.after;
    const pen = this.ls.penalties;
    const rules = this.ls.rules;
    const seq1 = this.ls.seq[r1]!;
    const seq2 = this.ls.seq[r2]!;
    let new1: number;
    let new2: number;
    if (kind === EXCHANGE) {
      new1 = rewrite(this.ls, r1, best1, seq2[best2]!, at1, this.host.scratch);
      new2 = rewrite(this.ls, r2, best2, seq1[best1]!, at2, this.host.scratch2);
    } else if (kind === INTO_SECOND) {
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
