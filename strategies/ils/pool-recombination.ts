import type { Budget } from "../core/budget.js";
import { solverNow } from "../core/clock.js";
import type { FleetModel } from "../search/fleet-model.js";
import { highsRuntime } from "../search/pool/highs-runtime.js";
import { addPairInsertions } from "../search/pool/pair-enrichment.js";
import { RoutePool } from "../search/pool/route-pool.js";
import { solveSetPartition, type PartitionColumn } from "../search/pool/set-partition.js";
import { Routes } from "../search/routes.js";

/**
 * Shares of the budget at which the pool is recombined (the last leaves time to polish the
 * result). Six rather than three: on generated 400-task instances (bench/pdptw-like.ts, seeds 1
 * and 2) one seed ended a route too many and 1.8% worse with three, and nine gained nothing more
 * (BENCHMARKS.md, issue 22, "set partitioning").
 */
const CHECKPOINTS = [0.25, 0.4, 0.55, 0.7, 0.85, 0.95];
/** Each recombination may take this share of the whole budget, and at most half of what is left. */
const SOLVE_SHARE = 0.08;
/** Routes kept in the pool: set partitioning over ~2,000 of them took 0.4-2.3 s on lrc1_4_1. */
const POOL_CAPACITY = 4000;

/**
 * Set-partitioning recombination for the general ILS: a pool of the feasible routes the search
 * has seen, enriched around the best solution (pair-enrichment.ts), from which HiGHS picks the
 * cheapest set serving every customer once, a few times per solve. It applies when every vehicle
 * is alike (a route's price does not depend on which vehicle drives it), nothing is optional or
 * restricted (every customer must be served, by any vehicle), and there are shipments, the case
 * measured (BENCHMARKS.md, issue 22).
 */
export class PoolRecombination {
  private readonly pool: RoutePool;
  private readonly scratch: Routes;
  private readonly rowOf: Int32Array;
  private next = 0;

  static applies(m: FleetModel): boolean {
    return highsRuntime() !== null && m.typeSlots.length === 1 && m.rules === null && m.order?.partner != null;
  }

  constructor(
    private readonly rs: Routes,
    private readonly budget: Budget,
    private readonly startedMs: number,
  ) {
    this.pool = new RoutePool(rs, POOL_CAPACITY);
    this.scratch = new Routes(rs.m);
    this.rowOf = new Int32Array(rs.m.nodeCount).fill(-1);
    rs.m.customers.forEach((c, row) => (this.rowOf[c] = row));
  }

  /** Pools the feasible routes changed since the last call (after each education). */
  harvest(): void {
    this.pool.harvest();
  }

  /** Whether the next checkpoint has been reached (each one answers true once). */
  due(): boolean {
    if (this.next >= CHECKPOINTS.length || this.budget.progress(this.startedMs) < CHECKPOINTS[this.next]!) return false;
    while (this.next < CHECKPOINTS.length && this.budget.progress(this.startedMs) >= CHECKPOINTS[this.next]!) this.next++;
    return true;
  }

  /**
   * The cheapest plan found from the pool and the best solution's routes (one list per vehicle),
   * or null when none is cheaper than `bestCost` by more than rounding.
   */
  recombine(best: readonly (readonly number[])[], bestCost: number): number[][] | null {
    const m = this.rs.m;
    for (const route of best) if (route.length > 0) this.pool.add(route, this.priceOf(route));
    addPairInsertions(this.pool, this.scratch, best);
    const routes = this.pool.routes();
    const bestKeys = new Set(best.filter((r) => r.length > 0).map((r) => r.join(",")));
    const start: number[] = [];
    const columns: PartitionColumn[] = routes.map((route, j) => {
      if (bestKeys.has(route.customers.join(","))) start.push(j);
      return { cost: route.cost, rows: route.customers.map((c) => this.rowOf[c]!) };
    });
    const total = (this.budget.deadlineMs - this.startedMs) / 1000;
    const left = (this.budget.deadlineMs - solverNow()) / 1000;
    const chosen = solveSetPartition({ rowCount: m.customers.length, columns, groupLimits: [m.routes], start, timeLimitSeconds: Math.min(total * SOLVE_SHARE, left / 2), shouldStop: () => this.budget.exhausted() });
    if (chosen === null || !servesEachOnce(chosen.map((j) => routes[j]!.customers), m.customers.length, this.rowOf)) return null;
    let cost = 0;
    for (const j of chosen) cost += routes[j]!.cost;
    if (cost >= bestCost - 1e-6 * Math.max(1, Math.abs(bestCost))) return null;
    const plan: number[][] = Array.from({ length: m.routes }, () => []);
    chosen.forEach((j, slot) => (plan[m.typeSlots[0]![slot]!] = Array.from(routes[j]!.customers)));
    return plan;
  }

  private priceOf(route: readonly number[]): number {
    this.scratch.setRoute(0, route, route.length, false);
    return this.scratch.objective[0]!;
  }
}

/** Whether the routes serve every customer exactly once (a guard on the solver's answer). */
function servesEachOnce(routes: readonly Int32Array[], customers: number, rowOf: Int32Array): boolean {
  const served = new Uint8Array(customers);
  let count = 0;
  for (const route of routes) {
    for (const c of route) {
      if (served[rowOf[c]!]) return false;
      served[rowOf[c]!] = 1;
      count++;
    }
  }
  return count === customers;
}
