import type { CompiledProblem, Solution } from "../core/problem.js";
import { looksFeasible, type Snapshot } from "./snapshot.js";

/**
 * Under the service's default reassignment price (Reassignment.movedShare), the cheapest feasible
 * plan the search met for each count of moved stops up to the allowance (that share of the
 * unlocked stops), counted without the price: a front that keeps a plan only when every plan with
 * fewer moves costs more. The answer is the front's cheapest plan, so a re-plan moves at most the
 * allowance, and within it the price no longer holds back a cheaper plan; the price itself adapts
 * to keep the search near the allowance (moves-price.ts).
 */
export class MovedStopsFront {
  /** plans.get(k): the cheapest plan met that moves k stops, when no plan with fewer costs less. */
  private readonly plans = new Map<number, { cost: number; routes: number[][] }>();
  /** Feasible plans offered since the last `takeCounts`, and how many of them within the allowance. */
  private feasible = 0;
  private within = 0;

  constructor(
    /** Moved stops allowed. */
    readonly allowance: number,
  ) {}

  /** The front of a problem whose reassignment price is the service's default, else null. */
  static forProblem(p: CompiledProblem): MovedStopsFront | null {
    const r = p.reassignment;
    if (!r || r.movedShare === undefined) return null;
    let movable = 0;
    for (let c = 0; c < p.nodeCount; c++) if (r.home[c]! >= 0 && !(p.locks && p.locks.vehicle[c]! >= 0)) movable++;
    return new MovedStopsFront(Math.floor(r.movedShare * movable));
  }

  /** A plan the search met, priced at `price` per moved stop. */
  offer(s: Snapshot, price: number): void {
    if (!looksFeasible(s)) return;
    const moved = s.away;
    this.feasible++;
    if (moved > this.allowance) return;
    this.within++;
    const cost = s.objective + s.unserved - price * moved;
    for (const [k, plan] of this.plans) if (k <= moved && plan.cost <= cost + 1e-9) return;
    for (const [k, plan] of this.plans) if (k >= moved && plan.cost >= cost) this.plans.delete(k);
    this.plans.set(moved, { cost, routes: s.routes.map((r) => r.slice()) });
  }

  /**
   * The feasible plans offered since the last call, and how many of them moved no more than the
   * allowance; null (the counts kept) while fewer than `atLeast` feasible plans came.
   */
  takeCounts(atLeast = 0): { feasible: number; within: number } | null {
    if (this.feasible < atLeast) return null;
    const counts = { feasible: this.feasible, within: this.within };
    this.feasible = this.within = 0;
    return counts;
  }

  /** The cheapest plan within the allowance (the one with the most moves: the front's cost falls as they rise), or null. */
  answer(): Solution | null {
    let chosen = -1;
    for (const k of this.plans.keys()) if (k > chosen) chosen = k;
    return chosen < 0 ? null : { routes: this.plans.get(chosen)!.routes.map((r) => r.slice()) };
  }
}
