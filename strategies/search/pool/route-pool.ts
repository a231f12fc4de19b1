import type { ProblemData } from "../problem-data.js";
import type { Routes } from "../routes.js";

const FEASIBLE_EPS = 1e-9;

/**
 * A feasible route seen by the search: the group of vehicles it is feasible and priced on (see
 * PoolGroups), its customers in order and its price there (fixed + distance cost, soft lateness,
 * reassignment cost).
 */
export interface PooledRoute {
  group: number;
  customers: Int32Array;
  cost: number;
}

/**
 * The vehicles a pooled route may go to, as groups: usually the vehicle types (problem-data.ts
 * typeOf: skills, capacity, costs, depot and shift all depend on the type). A route that starts
 * with a vehicle's locked stops, or whose price depends on the vehicle its stops had in the given
 * plan (a reassignment cost), belongs to that one vehicle: each vehicle is then its own group.
 */
export interface PoolGroups {
  /** Group of each vehicle slot. */
  readonly of: Int32Array;
  /** Vehicle slots of each group. */
  readonly slots: readonly ArrayLike<number>[];
  /** Whether each vehicle is its own group. */
  readonly perVehicle: boolean;
}

export function poolGroups(m: ProblemData): PoolGroups {
  if (m.locks === null && m.reassignment === null) return { of: m.typeOf, slots: m.typeSlots, perVehicle: false };
  const of = Int32Array.from({ length: m.routes }, (_, r) => r);
  return { of, slots: Array.from(of, (r) => [r]), perVehicle: true };
}

/**
 * Every distinct feasible route the search has seen, for set partitioning (set-partition.ts) to
 * recombine: routes of different local optima fit together in ways that no single move finds. The
 * routes are read from the route model after each education, only those changed since the last
 * look. Keyed by the group and the exact sequence (one sequence in two groups is two routes:
 * their prices and feasibility differ); when the pool is full the oldest half goes (the routes of
 * the best solution are put back in before each recombination).
 */
export class RoutePool {
  private readonly pool = new Map<string, PooledRoute>();
  private seenAt = -1;
  readonly groups: PoolGroups;

  constructor(
    private readonly rs: Routes,
    private readonly capacity: number,
  ) {
    this.groups = poolGroups(rs.m);
  }

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
      this.add(this.groups.of[r]!, rs.seq[r]!.subarray(1, rs.length[r]! + 1), rs.objective[r]!);
    }
  }

  /** Adds one route of group `group` (copied); a route already pooled becomes the newest. */
  add(group: number, customers: ArrayLike<number>, cost: number): void {
    const key = routeKey(group, customers);
    this.pool.delete(key);
    if (this.pool.size >= this.capacity) this.dropOldest(Math.ceil(this.capacity / 2));
    this.pool.set(key, { group, customers: Int32Array.from(customers), cost });
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

/** The pool's key of a route of group `group`. */
export function routeKey(group: number, customers: ArrayLike<number>): string {
  return `${group}:${Array.prototype.join.call(customers, ",")}`;
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
