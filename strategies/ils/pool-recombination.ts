import type { Budget } from "../core/budget.js";
import { solverNow } from "../core/clock.js";
import { highsRuntime } from "../search/pool/highs-runtime.js";
import { addCustomerInsertions } from "../search/pool/customer-enrichment.js";
import { addPairInsertions } from "../search/pool/pair-enrichment.js";
import { PartitionRows } from "../search/pool/partition-rows.js";
import { isFeasible, routeKey, RoutePool, type PooledRoute, type PoolGroups } from "../search/pool/route-pool.js";
import { solveSetPartition, type PartitionColumn } from "../search/pool/set-partition.js";
import { Routes } from "../search/routes.js";
import type { PerVehicleSettings } from "../settings.js";

/**
 * Shares of the budget at which the pool is recombined (the last leaves time to polish the
 * result). Six rather than three: with three, long-route runs could end with a route too many;
 * more than six gained nothing (BENCHMARKS.md, PDPTW).
 */
const CHECKPOINTS = [0.25, 0.4, 0.55, 0.7, 0.85, 0.95];
/** Each recombination may take this share of the whole budget, and at most half of what is left. */
const SOLVE_SHARE = 0.08;
/**
 * A search for a plan with a route fewer (fewerRoutes) may take this share of the whole budget:
 * it has no start, and proving that the pool holds none can take HiGHS long.
 */
const SQUEEZE_SHARE = SOLVE_SHARE / 3;
/** Routes kept in the pool: set partitioning over a few thousand of them takes HiGHS seconds on large instances. */
const POOL_CAPACITY = 4000;

/**
 * Set-partitioning recombination for the general ILS: a pool of the feasible routes the search
 * has seen, each in its group (its vehicle type, or its own vehicle when locked stops or a
 * reassignment cost tie routes to vehicles: route-pool.ts PoolGroups), enriched around the best
 * solution (one more shipment or customer in one of its routes: pair-enrichment.ts,
 * customer-enrichment.ts), from which HiGHS picks the cheapest set serving every required customer
 * once (optional ones at most once) with at most as many routes of each group as it has vehicles,
 * a few times per solve (and, for a start with a vehicle fewer, the cheapest set with a route
 * fewer than the best: fewerRoutes). Applied where it was measured to help (strategies/settings.ts):
 * shipments on a fleet of identical vehicles without rules (BENCHMARKS.md, PDPTW) and re-plans
 * with a reassignment cost (BENCHMARKS.md, Re-planning).
 */
export class PoolRecombination {
  private readonly pool: RoutePool;
  private readonly scratch: Routes;
  private readonly rows: PartitionRows;
  private next = 0;
  /**
   * The best solution whose routes and enrichment are pooled since the last harvest: fewerRoutes
   * follows a recombine on the same best, and enriching it again would only re-add the same routes.
   */
  private enrichedFor: readonly (readonly number[])[] | null = null;

  /** Whether set partitioning runs: where the family's settings have it and HiGHS is there. */
  static applies(settings: Pick<PerVehicleSettings, "setPartitioning">): boolean {
    return highsRuntime() !== null && settings.setPartitioning;
  }

  constructor(
    private readonly rs: Routes,
    private readonly budget: Budget,
    private readonly startedMs: number,
  ) {
    this.pool = new RoutePool(rs, POOL_CAPACITY);
    this.scratch = new Routes(rs.m);
    this.rows = new PartitionRows(rs.m);
  }

  /** Pools the feasible routes changed since the last call (after each education). */
  harvest(): void {
    this.pool.harvest();
    this.enrichedFor = null;
  }

  /** Whether the next checkpoint has been reached (each one answers true once). */
  due(): boolean {
    if (this.next >= CHECKPOINTS.length || this.budget.progress(this.startedMs) < CHECKPOINTS[this.next]!) return false;
    while (this.next < CHECKPOINTS.length && this.budget.progress(this.startedMs) >= CHECKPOINTS[this.next]!) this.next++;
    return true;
  }

  /**
   * The cheapest plan found from the pool and the best solution's routes (one list per vehicle),
   * or null when none is cheaper than `bestCost` by more than rounding. The plan is priced as the
   * search's objective prices a solution (per-vehicle-parts.ts, PerVehicleBest): its routes' prices on their
   * vehicles plus the skip prices of the customers it leaves out.
   */
  recombine(best: readonly (readonly number[])[], bestCost: number): number[][] | null {
    const found = this.partition(best, Number.POSITIVE_INFINITY, SOLVE_SHARE);
    if (found === null || found.cost >= bestCost - 1e-6 * Math.max(1, Math.abs(bestCost))) return null;
    return found.plan;
  }

  /**
   * The cheapest plan from the pool with at most `routeLimit` routes, whatever its cost against
   * the best (a start for the search with a vehicle fewer, set-partitioning-step.ts), or null when the pool
   * has none, HiGHS finds none within SQUEEZE_SHARE of the budget, or the fleet has several vehicle
   * types or its vehicles are groups of their own (the limit is on the one group's routes).
   */
  fewerRoutes(best: readonly (readonly number[])[], routeLimit: number): number[][] | null {
    if (this.pool.groups.slots.length !== 1) return null;
    return this.partition(best, routeLimit, SQUEEZE_SHARE)?.plan ?? null;
  }

  /**
   * Set partitioning over the pool, the best solution's routes and their enrichment, with at most
   * `routeLimit` routes of each group (and never more than its vehicles), started from the best
   * solution when that fits the limit; the plan (one list per vehicle) and its price, or null.
   */
  private partition(best: readonly (readonly number[])[], routeLimit: number, share: number): { plan: number[][]; cost: number } | null {
    const m = this.rs.m;
    const groups = this.pool.groups;
    if (best !== this.enrichedFor) {
      best.forEach((route, v) => {
        const cost = route.length > 0 ? priceOn(this.scratch, groups, groups.of[v]!, route) : null;
        if (cost !== null) this.pool.add(groups.of[v]!, route, cost);
      });
      addPairInsertions(this.pool, this.scratch, best);
      addCustomerInsertions(this.pool, this.scratch, best);
      this.enrichedFor = best;
    }
    const pooled = this.pool.routes();
    const routes = pooled.concat(otherGroups(this.scratch, groups, pooled));
    const bestKeys = new Set(best.flatMap((route, v) => (route.length > 0 ? [routeKey(groups.of[v]!, route)] : [])));
    const start: number[] = [];
    const columns: PartitionColumn[] = routes.map((route, j) => {
      if (bestKeys.has(routeKey(route.group, route.customers))) start.push(j);
      return { cost: this.rows.columnCost(route), rows: this.rows.rows(route.customers), group: route.group };
    });
    const groupLimits = groups.slots.map((slots) => Math.min(slots.length, routeLimit));
    const startFits = groups.slots.every(
      (_, g) => best.filter((route, v) => route.length > 0 && groups.of[v] === g).length <= groupLimits[g]!,
    );
    const total = (this.budget.deadlineMs - this.startedMs) / 1000;
    const left = (this.budget.deadlineMs - solverNow()) / 1000;
    const chosen = solveSetPartition({
      rowCount: this.rows.count,
      optionalRows: this.rows.optionalRows,
      columns,
      groupLimits,
      start: startFits ? start : [],
      timeLimitSeconds: Math.min(total * share, left / 2),
      shouldStop: () => this.budget.exhausted(),
    });
    if (chosen === null) return null;
    const plan: number[][] = Array.from({ length: m.routes }, () => []);
    const used = new Int32Array(groups.slots.length);
    for (const j of chosen) {
      const route = routes[j]!;
      const slots = groups.slots[route.group]!;
      if (used[route.group]! >= groupLimits[route.group]!) return null;
      plan[slots[used[route.group]!++]!] = Array.from(route.customers);
    }
    const cost = this.rows.planCost(chosen.map((j) => routes[j]!));
    return cost === null ? null : { plan, cost };
  }
}

/** The price of `customers` on a vehicle of group `group`, or null when they are not feasible on it. */
function priceOn(scratch: Routes, groups: PoolGroups, group: number, customers: ArrayLike<number>): number | null {
  const slot = groups.slots[group]![0]!;
  scratch.setRoute(slot, customers, customers.length, false);
  return isFeasible(scratch, slot) ? scratch.objective[slot]! : null;
}

/**
 * The pooled sequences on the other vehicle types they are feasible on, at those types' prices (a
 * route found on one type may fit another whose vehicles are free): more columns, never a pooled
 * one again. Nothing on a fleet of one type, or where each vehicle is its own group (a route
 * then belongs to the vehicle of its locked stops or its reassignment price).
 */
function otherGroups(scratch: Routes, groups: PoolGroups, pooled: readonly PooledRoute[]): PooledRoute[] {
  const count = groups.slots.length;
  if (count === 1 || groups.perVehicle) return [];
  const known = new Set(pooled.map((route) => routeKey(route.group, route.customers)));
  const out: PooledRoute[] = [];
  for (const route of pooled) {
    for (let g = 0; g < count; g++) {
      const key = routeKey(g, route.customers);
      if (known.has(key)) continue;
      known.add(key);
      const cost = priceOn(scratch, groups, g, route.customers);
      if (cost !== null) out.push({ group: g, customers: route.customers, cost });
    }
  }
  return out;
}
