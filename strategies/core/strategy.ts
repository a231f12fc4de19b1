import type { Budget } from "./budget.js";
import type { CompiledProblem, Solution } from "./problem.js";

/**
 * The feature families of a request a strategy may claim (GET /api/v1/strategies lists them as
 * `supports`, and the conformance kit generates one small instance of each). `capacities` is the
 * base every strategy takes: one depot, node_positions, demands and capacities. The travel
 * features (TRAVEL_FEATURES), `balance`, `min_vehicles` and the visit rules (`ride_times`,
 * `load_types`, `same_vehicle_groups`) are refused at submission when the pinned strategy, or
 * without a pin every loaded one, does not claim them, so a strategy never meets a field it would
 * ignore. `min_vehicles` is searched by the service's phases around any strategy
 * (search/fewest-vehicles.ts): a strategy claims it when its plans may go through them.
 */
export const STRATEGY_FEATURES = [
  "capacities",
  "distance_matrix",
  "time_windows",
  "multiple_depots",
  "mixed_fleet",
  "optional_stops",
  "skills",
  "shifts",
  "route_limits",
  "pickups",
  "backhauls",
  "shipments",
  "extra_dimensions",
  "reloads",
  "release_times",
  "locked_stops",
  "balance",
  "min_vehicles",
  "ride_times",
  "load_types",
  "same_vehicle_groups",
  "duration_matrix",
  "profiles",
  "profile_distances",
  "time_costs",
  "open_routes",
  "several_windows",
  "breaks",
  "traffic",
] as const;
export type StrategyFeature = (typeof STRATEGY_FEATURES)[number];

/** The features of travel times, profiles, cost per hour, open routes, several windows and breaks. */
export const TRAVEL_FEATURES = [
  "duration_matrix",
  "profiles",
  "profile_distances",
  "time_costs",
  "open_routes",
  "several_windows",
  "breaks",
  "traffic",
] as const;

/**
 * What a strategy promises about quality: a `construction` builds one solution and stops (no claim
 * to optimality), a `search` improves until its budget ends, an `exact` one proves an optimum
 * within the sizes its `supports` accepts. Tests hold searches and exact ones to optima.
 */
export type StrategyKind = "construction" | "search" | "exact";

/**
 * A solver plugin. `solve` is synchronous and anytime: it returns the best solution found when the
 * budget runs out (possibly incomplete: the caller checks it with the evaluator).
 */
export interface Strategy {
  /** kebab-case; also result.strategy and the metric label. */
  readonly name: string;
  readonly kind: StrategyKind;
  /** The feature families it solves; `supports` must decline a problem that uses any other. */
  readonly features: readonly StrategyFeature[];
  /** Whether it takes this problem; a refusal's reason is shown to the caller who pinned it. */
  supports(p: CompiledProblem): { ok: true } | { ok: false; reason: string };
  /**
   * `initial`, when given, is a solution to start from (it may be partial or infeasible): a
   * strategy that can use it seeds its search with it, the others may ignore it.
   */
  solve(p: CompiledProblem, budget: Budget, initial?: Solution): Solution;
  /**
   * A cooperative strategy may hand work to idle workers through `budget.helpers` (core/helpers.ts);
   * the others never see it. With no helper available it must search exactly as without one.
   */
  readonly cooperative?: boolean;
}
