import type { StrategyFeature } from "../../strategies/core/strategy.js";
import type { ConstraintFields } from "../problem/constraint-fields.js";
import type { SolveRequestInput } from "../problem/request-types.js";

/** Open windows, no service, speed 1: the time dimension the travel families add to. */
function timed(r: SolveRequestInput & ConstraintFields, withSpeeds = true): void {
  r.node_time_windows = Array.from({ length: r.node_num }, () => [0, 10_000]);
  r.node_service_time = Array<number>(r.node_num).fill(5);
  if (withSpeeds) r.vehicle_speeds = Array<number>(r.vehicle_num).fill(1);
}

/** Travel minutes from coordinates, 1.5 x the distance plus a minute: not proportional to it. */
function durations(r: SolveRequestInput): number[][] {
  const pos = r.node_positions as number[][];
  return pos.map((a, i) => pos.map((b, j) => (i === j ? 0 : Math.round(1.5 * Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!)) + 1)));
}

/**
 * The families of constraints.md's third table: the base request with one travel field added,
 * feasible by construction (open windows, room in every shift).
 */
export function travelFamily(req: SolveRequestInput, feature: StrategyFeature): void {
  const r = req as SolveRequestInput & ConstraintFields;
  switch (feature) {
    case "duration_matrix":
      timed(r, false);
      r.duration_matrix = durations(r);
      break;
    case "profiles":
      r.profiles = { slow: { duration_matrix: durations(r).map((row) => row.map((x) => 2 * x)) } };
      r.vehicle_profiles = [null, "slow"];
      timed(r);
      break;
    case "profile_distances": {
      const pos = r.node_positions as number[][];
      r.profiles = { bike: { distance_matrix: pos.map((a) => pos.map((b) => Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!))) } };
      r.vehicle_profiles = ["bike", null];
      break;
    }
    case "time_costs":
      timed(r);
      r.objective = "min_total_cost";
      r.vehicle_fixed_costs = [10, 10];
      r.vehicle_unit_distance_costs = [1, 1];
      r.vehicle_unit_time_costs = [30, 20];
      break;
    case "open_routes":
      r.vehicle_return_to_end = [false, true];
      break;
    case "several_windows":
      timed(r);
      r.node_time_window_sets = r.node_time_windows!.map((_, i) =>
        i === 0
          ? null
          : [
              [0, 100 + 10 * i],
              [300, 10_000],
            ],
      );
      break;
    case "traffic":
      // A rush hour in the middle of the morning: driving then takes half as long again.
      timed(r);
      r.time_dependent_durations = [
        { start: 0, factor: 1 },
        { start: 60, factor: 1.5 },
        { start: 180, factor: 1 },
      ];
      break;
    case "breaks":
      timed(r);
      r.vehicle_breaks = [[{ earliest_start: 30, latest_start: 600, duration: 20 }], null];
      break;
  }
}
