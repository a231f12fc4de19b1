/**
 * Type test, checked by `tsc` in the build (never run): the SDK's types carry the travel fields
 * (constraints.md, third table) on the request and the breaks and time costs on the result.
 * Each `@ts-expect-error` line must fail to compile, or the build fails.
 */
import type { SolveRequest, SolvedResult } from "../src/index.js";

export const courier: SolveRequest = {
  node_num: 3,
  vehicle_num: 2,
  distance_matrix: [
    [0, 4, 6],
    [4, 0, 3],
    [6, 3, 0],
  ],
  start_nodes: [0, 0],
  end_nodes: [0, 0],
  node_demands: [0, 1, 1],
  vehicles_capacity: [5, 5],
  node_time_windows: [
    [0, 600],
    [0, 300],
    [0, 600],
  ],
  node_service_time: [0, 5, 5],
  duration_matrix: [
    [0, 12, 20],
    [11, 0, 9],
    [21, 10, 0],
  ],
  profiles: {
    bike: {
      duration_matrix: [
        [0, 30, 45],
        [30, 0, 25],
        [44, 26, 0],
      ],
    },
  },
  vehicle_profiles: [null, "bike"],
  objective: "min_total_cost",
  vehicle_unit_time_costs: [30, 18.5],
  node_time_window_sets: [
    null,
    [
      [0, 60],
      [240, 300],
    ],
    null,
  ],
  vehicle_breaks: [[{ earliest_start: 180, latest_start: 300, duration: 30 }], null],
  vehicle_return_to_end: [true, false],
};

// @ts-expect-error a break has an earliest start, a latest start and a duration
export const wrongBreak: NonNullable<NonNullable<SolveRequest["vehicle_breaks"]>[number]>[number] = { earliest_start: 1, duration: 5 };

export function firstBreakAfter(result: SolvedResult, label: string): number | null {
  const breaks: { start: string; end: string; after_node: number }[] = result.breaks?.[label] ?? [];
  const timeCost: number | undefined = result.route_details?.[label]?.time_cost;
  // @ts-expect-error breaks is optional: present only when some vehicle has a break
  const always: Record<string, unknown[]> = result.breaks;
  return breaks[0]?.after_node ?? (timeCost !== undefined ? Object.keys(always).length : null);
}
