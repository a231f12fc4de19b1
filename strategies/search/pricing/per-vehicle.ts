import type { ProblemData } from "../problem-data.js";
import { PairInsertion } from "../pair-insertion.js";
import { Pieces } from "../pieces.js";
import type { Routes } from "../routes.js";
import type { MovePricing, RouteWriter } from "../operators/operator.js";

const EPS = 1e-7;
/**
 * Improvements below this share of the price are rounding noise. With the prices raised for a
 * repair (x100) route prices reach 1e8 and more, where a move that changes nothing could price
 * 1e-7 below the route computed another way, and its reverse too: on an infeasible shipment
 * problem with hard windows the search moved one customer back and forth until its time ran out.
 */
const RELATIVE_EPS = 1e-12;

/** Whether `after` is a real improvement on `before`, not rounding noise (also the moves' lower-bound cut-offs). */
export function below(after: number, before: number): boolean {
  return after < before - EPS - RELATIVE_EPS * Math.abs(before);
}

/**
 * Move pricing for any fleet (types, depots, speeds, rules; operators/*.ts, moves/*.ts): candidate
 * routes as pieces `a` and `b` of the current routes, lower bounds from distance (`pairMayImprove`) and from
 * distance and load (`base`: `pairImproves`, `withinImproves`) checked before the exact price
 * (`confirmPair`, `confirmWithin`: the candidates on their vehicles, the route model routes.ts),
 * and `tryWithin` / `tryPair`, which confirm and apply at once. `onCommit` lets the property test
 * compare each predicted price with a from-scratch one.
 */
export class PerVehiclePricing implements MovePricing {
  readonly a = new Pieces();
  readonly b = new Pieces();
  readonly outA: Int32Array;
  readonly outB: Int32Array;
  /** Cheapest places of a shipment's two stops in a route (pair-aware recreate and pair moves). */
  readonly pairInsertion: PairInsertion;
  private readonly emptyHint: Int32Array;
  /** Penalised cost of the routes the move being priced rewrites, before it. */
  before = 0;
  /** The candidates last bounded by `pairMayImprove`, priced by `pairImproves`. */
  private ru = -1;
  private rv = -1;
  private countA = 0;
  private countB = 0;
  private distA = 0;
  private distB = 0;
  /** A lower bound of the change of the balance term for the candidates bounded last (0 without balance). */
  private balanceBound = 0;
  /** Includes the change of the balance term the move makes (with balance). */
  predicted = 0;
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null = null;
  /** The same for a move that rewrites several routes at once (moves/backhaul-pairing.ts). */
  onCommitMany: ((predicted: number, routes: readonly number[]) => void) | null = null;

  /** `writer`: where the operators' committed moves go (the route store itself unless a localised search records them). */
  constructor(
    readonly rs: Routes,
    private readonly writer: RouteWriter = rs,
  ) {
    const m = rs.m;
    this.outA = new Int32Array(m.customers.length + 2);
    this.outB = new Int32Array(m.customers.length + 2);
    this.pairInsertion = new PairInsertion(rs);
    this.emptyHint = new Int32Array(m.typeSlots.length).fill(-1);
  }

  get m(): ProblemData {
    return this.rs.m;
  }

  /** First empty route of type `type` other than `except` (-1: none left). */
  emptyOfType(type: number, except: number): number {
    const slots = this.m.typeSlots[type]!;
    // The last answer is usually still right: it spares a scan over the type's used vehicles.
    const hinted = this.emptyHint[type]!;
    if (hinted >= 0 && hinted !== except && this.rs.length[hinted] === 0) return hinted;
    for (let k = 0; k < slots.length; k++) {
      const r = slots[k]!;
      if (r !== except && this.rs.length[r] === 0) {
        if (except < 0) this.emptyHint[type] = r;
        return r;
      }
    }
    return -1;
  }

  /** Whether route r, its distance changed by `delta` (same customers), could cost less: a lower bound. */
  withinImproves(r: number, delta: number): boolean {
    const rs = this.rs;
    const len = rs.length[r]!;
    const distance = rs.fwd[r]![len + 1]! + delta;
    let bound = this.base(r, len, distance, rs.load[r]![len]!) + rs.costs.timeFloor(r, distance, rs.serv[r]![len + 1]!);
    // A shorter longest route lowers the balance term: the bound falls by what it may save.
    if (rs.balance) bound += rs.balance.boundDelta(r, len, distance, -1, 0, 0);
    return below(bound, rs.cost[r]!);
  }

  /** Prices pieces `a` on route r's vehicle (a move within r); applies it when it improves. orderKept: as tryPair. */
  tryWithin(r: number, orderKept = false): boolean {
    if (!this.confirmWithin(r, orderKept)) return false;
    this.commitWithin(r);
    return true;
  }

  /** Whether pieces `a` on route r's vehicle cost less than r does now, priced exactly (the price goes to `predicted`). */
  confirmWithin(r: number, orderKept = false): boolean {
    const rs = this.rs;
    const before = rs.cost[r]!;
    const balance = rs.balance;
    // With balance the route's price may rise by as much as the term can fall.
    const limit = balance ? before - balance.delta(r, 0, -1, 0) : before;
    const base = rs.candidates.basePrice(r, this.a, orderKept, limit);
    if (!below(base, limit)) return false;
    let after = base + rs.candidates.timePrice(r, this.a);
    if (balance) after += balance.delta(r, balance.workloadOf(r, this.a), -1, 0);
    if (!below(after, before)) return false;
    this.predicted = after;
    return true;
  }

  commitWithin(r: number): void {
    const count = this.rs.candidates.write(this.a, this.outA);
    this.writer.setRoute(r, this.outA, count);
    this.onCommit?.(this.predicted, r, -1);
  }

  /** Fixed + unit x distance + load penalty of route r with `count` customers (0 when empty). */
  base(r: number, count: number, distance: number, load: number): number {
    if (count === 0) return 0;
    const m = this.rs.m;
    const excess = load - m.capacity[r]!;
    return m.fixedCost[r]! + m.unitCost[r]! * distance + (excess > 0 ? this.rs.penalties.load * excess : 0);
  }

  /**
   * Whether routes ru and rv with these counts and distances may cost less than they do now
   * (`before`, set here): their fixed and distance costs and the time cost of their driving
   * minutes, which `pairImproves` only adds to.
   */
  pairMayImprove(ru: number, countA: number, distA: number, rv: number, countB: number, distB: number): boolean {
    const m = this.rs.m;
    const before = (this.before = this.rs.cost[ru]! + this.rs.cost[rv]!);
    const costs = this.rs.costs;
    const boundA = countA > 0 ? m.fixedCost[ru]! + m.unitCost[ru]! * distA + costs.timeFloor(ru, distA, 0) : 0;
    const boundB = countB > 0 ? m.fixedCost[rv]! + m.unitCost[rv]! * distB + costs.timeFloor(rv, distB, 0) : 0;
    let bound = boundA + boundB;
    // A move that shortens the longest route pays through the balance term, even at equal distance.
    const balance = this.rs.balance;
    if (balance) bound += this.balanceBound = balance.boundDelta(ru, countA, distA, rv, countB, distB);
    if (bound >= before - EPS) return false;
    this.ru = ru;
    this.rv = rv;
    this.countA = countA;
    this.countB = countB;
    this.distA = distA;
    this.distB = distB;
    return true;
  }

  /**
   * Whether the candidates bounded last may cost less than `before`: the fixed, distance and
   * delivered-load part of each price and the least time cost of its driving and service minutes,
   * which the exact price never undercuts.
   */
  pairImproves(loadA: number, servA: number, loadB: number, servB: number): boolean {
    const costs = this.rs.costs;
    const a = this.countA > 0 ? this.base(this.ru, this.countA, this.distA, loadA) + costs.timeFloor(this.ru, this.distA, servA) : 0;
    const b = this.countB > 0 ? this.base(this.rv, this.countB, this.distB, loadB) + costs.timeFloor(this.rv, this.distB, servB) : 0;
    return a + b + this.balanceBound < this.before - EPS;
  }

  /**
   * Prices pieces `a` on ru's vehicle and `b` on rv's; applies the move when it improves on `before`.
   * orderKept: the caller knows both candidates keep every shipment whole (routes.ts `price`).
   */
  tryPair(ru: number, rv: number, orderKept = false): boolean {
    if (!this.confirmPair(ru, rv, orderKept)) return false;
    this.commitPair(ru, rv);
    return true;
  }

  /** Whether pieces `a` on ru's vehicle and `b` on rv's cost less than `before`, priced exactly (the price goes to `predicted`). */
  confirmPair(ru: number, rv: number, orderKept = false): boolean {
    const rs = this.rs;
    const balance = rs.balance;
    // With balance the routes' prices may rise by as much as the term can fall (callers may set
    // `before` without pairMayImprove, so that bound is taken here).
    const limit = balance ? this.before - balance.delta(ru, 0, rv, 0) : this.before;
    const baseA = rs.candidates.basePrice(ru, this.a, orderKept, limit);
    // Prices are never negative: a first route already as dear as both was is enough to stop.
    if (!below(baseA, limit)) return false;
    const baseB = rs.candidates.basePrice(rv, this.b, orderKept, limit - baseA);
    if (!below(baseA + baseB, limit)) return false;
    // Time prices are never negative either: the first route's may already be enough to stop.
    const withA = baseA + baseB + rs.candidates.timePrice(ru, this.a);
    if (!below(withA, limit)) return false;
    let after = withA + rs.candidates.timePrice(rv, this.b);
    if (balance) after += balance.delta(ru, balance.workloadOf(ru, this.a), rv, balance.workloadOf(rv, this.b));
    if (!below(after, this.before)) return false;
    this.predicted = after;
    return true;
  }

  commitPair(ru: number, rv: number): void {
    const rs = this.rs;
    const countA = rs.candidates.write(this.a, this.outA);
    const countB = rs.candidates.write(this.b, this.outB);
    this.writer.setRoute(ru, this.outA, countA);
    this.writer.setRoute(rv, this.outB, countB);
    this.onCommit?.(this.predicted, ru, rv);
  }
}
