/**
 * The part of the VRP solve service's strategy interface a strategy module sees, so that this
 * package type-checks without the service's sources. The service's own definitions are in its
 * repository (strategies/core/strategy.ts, problem.ts, budget.ts); a test there checks that
 * these declarations still match them.
 */

/** A solution: each vehicle's customers in visiting order; start and end nodes are implicit. */
export interface Solution {
  routes: number[][];
}

/** One request, compiled into typed arrays. Only read it: the service shares it between calls. */
export interface CompiledProblem {
  nodeCount: number;
  vehicleCount: number;
  /** The nodes to visit (every node that is no vehicle's start or end). */
  customers: Int32Array;
  isDepot: Uint8Array;
  /** dist[i * nodeCount + j]; empty on very large problems given by coordinates (use coords). */
  dist: Float64Array;
  /** x, y per node when the request gave node_positions, else null. */
  coords: Float64Array | null;
  demand: Float64Array;
  capacity: Float64Array;
  fixedCost: Float64Array;
  unitCost: Float64Array;
  startNode: Int32Array;
  endNode: Int32Array;
  objective: "distance" | "cost";
  /** Time windows, service times and speeds; null when the request has none. */
  time: object | null;
  /** Optional stops, skills, shifts, route limits; absent or null when the request uses none. */
  rules?: object | null;
  /** Pickups, backhauls, shipments, extra load dimensions; absent or null when the request uses none. */
  loads?: object | null;
  /** Reload stops and release times (several trips a day); absent or null when the request uses neither. */
  trips?: object | null;
  /** Stops locked at the head of routes (vehicle_locked_stops); absent or null when none is. */
  locks?: object | null;
  /** The price of the largest route workload (balance); absent or null without it. */
  balance?: object | null;
  /** Objective min_vehicles: the service's phases around the strategy use the fewest vehicles first. */
  minVehicles?: boolean;
  /** Ride-time limits, incompatible goods, same-vehicle groups; absent or null when none is used. */
  visits?: object | null;
  /** Travel times, profiles, cost per hour, several windows, breaks, open routes; absent or null when none is used. */
  travel?: object | null;
}

/** The service's seeded random numbers: the only randomness a strategy may use (results repeat). */
export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
}

/** When to stop, and where to report progress. */
export interface Budget {
  readonly rng: Rng;
  /** Counts one iteration; true when the strategy must return now (time limit, iteration cap or cancel). */
  tick(): boolean;
  /** Whether the strategy must return now, without counting an iteration. */
  exhausted(): boolean;
  /** Report each new best feasible solution, as a copy you will not change: the caller's progress. */
  improved(best: Solution): void;
}

export type StrategyFeature =
  | "capacities"
  | "distance_matrix"
  | "time_windows"
  | "multiple_depots"
  | "mixed_fleet"
  | "optional_stops"
  | "skills"
  | "shifts"
  | "route_limits"
  | "pickups"
  | "backhauls"
  | "shipments"
  | "extra_dimensions"
  | "locked_stops"
  | "balance"
  | "min_vehicles"
  | "ride_times"
  | "load_types"
  | "same_vehicle_groups"
  | "duration_matrix"
  | "profiles"
  | "profile_distances"
  | "time_costs"
  | "open_routes"
  | "several_windows"
  | "breaks"
  | "traffic"
  | "reloads"
  | "release_times";

export interface Strategy {
  /** kebab-case, unique among the service's strategies: what a request pins in `strategy`. */
  readonly name: string;
  /** "construction": one solution, then stop; "search": improve until the budget ends; "exact": proven optimum. */
  readonly kind: "construction" | "search" | "exact";
  /** The request features it solves; `supports` must decline any problem using another. */
  readonly features: readonly StrategyFeature[];
  supports(p: CompiledProblem): { ok: true } | { ok: false; reason: string };
  /** Synchronous; returns the best solution when `budget` says stop. */
  solve(p: CompiledProblem, budget: Budget, initial?: Solution): Solution;
}
