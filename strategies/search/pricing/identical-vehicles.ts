import type { CostEvaluator } from "../cost-evaluator.js";
import { Pieces } from "../pieces.js";
import type { ProblemData } from "../problem-data.js";
import type { Routes } from "../routes.js";
import type { MovePricing, RouteWriter } from "../operators/operator.js";

const EPS = 1e-7;

/**
 * Move pricing for a fleet of identical vehicles from one depot (the identical-vehicles model,
 * identical-vehicles-model.ts, read as slot 0): candidate routes as pieces `a` and `b` of the current
 * routes; `pairImproves` prices two candidate routes from their totals (distance, load, service:
 * O(1) from the prefix sums), `confirmPair` adds the exact load on board and time-window penalty
 * of the pieces on the route model (routes.ts) and `commitPair` applies them; `withinImproves` /
 * `confirmWithin` / `commitWithin` do the same for a move within one route. The tolerance is
 * absolute (1e-7): identical vehicles keep prices small.
 */
export class IdenticalVehiclesPricing implements MovePricing {
  readonly a = new Pieces();
  readonly b = new Pieces();
  readonly m: ProblemData;
  readonly outA: Int32Array;
  readonly outB: Int32Array;
  /** Penalised cost of the candidate routes (set when they improve). */
  predicted = 0;
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null = null;
  private readonly costs: CostEvaluator;
  /** Cost of both routes before the move being priced (set by pairImproves). */
  private before = 0;
  /** Numbers from the start (not undefined until the constructor), so that V8 keeps them as doubles. */
  private readonly fixedCost: number = 0;
  private readonly unitCost: number = 0;
  /** The candidates last bounded by `pairMayImprove`, priced by `pairImproves`. */
  private countA = 0;
  private countB = 0;
  private distA = 0;
  private distB = 0;
  /** Delivered totals of the two candidate routes last priced by `pairImproves` (for the exact load in `confirmPair`). */
  private loadA = 0;
  private loadB = 0;

  /** `writer`: where committed moves go (the route store itself unless a localised search records them). */
  constructor(
    readonly rs: Routes,
    private readonly writer: RouteWriter = rs,
  ) {
    const m = (this.m = rs.m);
    this.costs = rs.costs;
    this.fixedCost = m.fixedCost[0]!;
    this.unitCost = m.unitCost[0]!;
    this.outA = new Int32Array(m.customers.length + 2);
    this.outB = new Int32Array(m.customers.length + 2);
  }

  /** Whether routes ru and rv with these counts and distances may cost less than they do now (`before`, set here). */
  pairMayImprove(ru: number, countA: number, distA: number, rv: number, countB: number, distB: number): boolean {
    const before = (this.before = this.rs.cost[ru]! + this.rs.cost[rv]!);
    // The vehicles are identical: their fixed and unit cost, read once, bound every candidate.
    const boundA = countA > 0 ? this.fixedCost + this.unitCost * distA : 0;
    const boundB = countB > 0 ? this.fixedCost + this.unitCost * distB : 0;
    if (boundA + boundB >= before - EPS) return false;
    this.countA = countA;
    this.countB = countB;
    this.distA = distA;
    this.distB = distB;
    return true;
  }

  /** Whether the candidates bounded last cost less than `before`, priced from their totals. */
  pairImproves(loadA: number, servA: number, loadB: number, servB: number): boolean {
    const after =
      this.costs.fromTotals(0, this.countA, this.distA, loadA, servA) + this.costs.fromTotals(0, this.countB, this.distB, loadB, servB);
    this.predicted = after;
    this.loadA = loadA;
    this.loadB = loadB;
    return after < this.before - EPS;
  }

  /**
   * Adds what `pairImproves` left out to an improving price: the load above the delivered total
   * (pickups on board: the peak of the route model's load segments, backhaul-model.ts) and the
   * time penalties of both candidate routes (pieces `a` and `b`); whether it still improves.
   */
  confirmPair(ra: number, rb: number): boolean {
    if (this.rs.loads) {
      this.predicted += this.loadCorrection(ra, this.a, this.loadA) + this.loadCorrection(rb, this.b, this.loadB);
      if (this.predicted >= this.before - EPS) return false;
    }
    if (!this.m.windows) return true;
    // A time price is never negative, so a candidate that fails on one route's alone fails on
    // both: b (the route that receives customers in most moves) is priced first and often alone.
    const timeB = this.rs.candidates.timePrice(rb, this.b);
    if (this.predicted + timeB >= this.before - EPS) return false;
    this.predicted += this.rs.candidates.timePrice(ra, this.a) + timeB;
    return this.predicted < this.before - EPS;
  }

  commitPair(ra: number, rb: number): void {
    const countA = this.rs.candidates.write(this.a, this.outA);
    const countB = this.rs.candidates.write(this.b, this.outB);
    this.writer.setRoute(ra, this.outA, countA);
    this.writer.setRoute(rb, this.outB, countB);
    if (this.onCommit) this.onCommit(this.predicted, ra, rb);
  }

  /** Whether changing route r's distance by `delta` lowers its penalised cost. */
  withinImproves(r: number, delta: number): boolean {
    // Under windows a longer route may still warp less: no shortcut on the distance alone.
    if (delta > -EPS && !this.m.windows) return false;
    const rs = this.rs;
    const after = this.costs.fromTotals(r, rs.length[r]!, rs.totalDistance[r]! + delta, rs.totalLoad[r]!, rs.totalService[r]!);
    this.predicted = after;
    return after < this.rs.cost[r]! - EPS;
  }

  /**
   * Adds the load above the delivered total and the time penalty of the candidate (pieces `a`) to an
   * improving distance price; whether it still improves.
   */
  confirmWithin(r: number): boolean {
    if (this.rs.loads) {
      this.predicted += this.loadCorrection(r, this.a, this.rs.load[r]![this.rs.length[r]! + 1]!);
      if (this.predicted >= this.rs.cost[r]! - EPS) return false;
    }
    if (!this.m.windows) return true;
    this.predicted += this.rs.candidates.timePrice(r, this.a);
    return this.predicted < this.rs.cost[r]! - EPS;
  }

  /**
   * Penalty of vehicle r's load excess serving `pieces` (every dimension's peak on board), minus
   * that of its delivered total `delivered`, which fromTotals priced: never negative, since the
   * peak is at least what leaves the depot.
   */
  private loadCorrection(r: number, pieces: Pieces, delivered: number): number {
    if (pieces.size === 0) return 0;
    const exact = this.rs.loads!.excessOfPieces(r, pieces, this.rs.seq);
    return this.rs.penalties.load * (exact - Math.max(0, delivered - this.m.capacity[r]!));
  }

  /** The first empty route other than `except` (-1: none): the vehicles are identical, so there is one type. */
  emptyOfType(type: number, except: number): number {
    if (type > 0) return -1;
    for (let r = 0; r < this.m.routes; r++) if (r !== except && this.rs.length[r] === 0) return r;
    return -1;
  }

  commitWithin(r: number): void {
    const count = this.rs.candidates.write(this.a, this.outA);
    this.writer.setRoute(r, this.outA, count);
    if (this.onCommit) this.onCommit(this.predicted, r, -1);
  }
}
