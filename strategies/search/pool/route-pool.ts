import type { Routes } from "../routes.js";

const FEASIBLE_EPS = 1e-9;

/**
 * A feasible route seen by the search: the vehicle type it is feasible and priced on (problem-data.ts
 * typeOf: skills, capacity, costs, depot and shift all depend on it), its customers in order and
 * its price on that type (fixed + distance cost, soft lateness).
 */
export interface PooledRoute {
  type: number;
  customers: Int32Array;
  cost: number;
}

/**
 * Every distinct feasible route the search has seen, for set partitioning (set-partition.ts) to
 * recombine: routes of different local optima fit together in ways that no single move finds. The
 * routes are read from the route model after each education, only those changed since the last
 * look. Keyed by the vehicle type and the exact sequence (one sequence on two types is two
 * routes: their prices and feasibility differ); when the pool is full the oldest half goes (the routes of the
 * best solution are put back in before each recombination).
 */
export class RoutePool {
  private readonly pool = new Map<string, PooledRoute>();
  private seenAt = -1;

  constructor(
    private readonly rs: Routes,
    private readonly capacity: number,
  ) {}

  get size(): number {
    return this.pool.size;
  }

  /** Adds the feasible routes of the route model changed since the last call. */
  harvest(): void {
    const rs = this.rs;
    const from = this.seenAt;
    this.seenAt = rs.clock;
    for (let r = 0; r < rs.m.routes; r++) {
      if (rs.modifiedAt[r]! <= from || !isFeasible(rs, r)) continue;
      this.add(rs.m.typeOf[r]!, rs.seq[r]!.subarray(1, rs.length[r]! + 1), rs.objective[r]!);
    }
  }

  /** Adds one route of vehicle type `type` (copied); a route already pooled becomes the newest. */
  add(type: number, customers: ArrayLike<number>, cost: number): void {
    const key = routeKey(type, customers);
    this.pool.delete(key);
    if (this.pool.size >= this.capacity) this.dropOldest(Math.ceil(this.capacity / 2));
    this.pool.set(key, { type, customers: Int32Array.from(customers), cost });
  }

  has(key: string): boolean {
    return this.pool.has(key);
  }

  routes(): PooledRoute[] {
    return [...this.pool.values()];
  }

  private dropOldest(count: number): void {
    let left = count;
    for (const key of this.pool.keys()) {
      if (left-- <= 0) break;
      this.pool.delete(key);
    }
  }
}

/** The pool's key of a route of vehicle type `type`. */
export function routeKey(type: number, customers: ArrayLike<number>): string {
  return `${type}:${Array.prototype.join.call(customers, ",")}`;
}

/** Route r is served without load, time or order violations (and is not empty). */
export function isFeasible(rs: Routes, r: number): boolean {
  return (
    rs.length[r]! > 0 &&
    !rs.broken[r] &&
    rs.loadExcess[r]! <= FEASIBLE_EPS &&
    rs.timeWarp[r]! <= FEASIBLE_EPS &&
    rs.durationExcess[r]! <= FEASIBLE_EPS &&
    rs.distanceExcess[r]! <= FEASIBLE_EPS &&
    rs.stopsExcess[r]! === 0 &&
    !(rs.forbidden[r]! > 0)
  );
}
