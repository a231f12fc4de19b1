import type { SolveRequestInput } from "../../src/problem/request-types.js";

export type BalanceMeasure = "duration" | "stops" | "distance";

/**
 * A depot in the middle and `customers` customers around it (seeded), `vehicles` vehicles with
 * room for all; windows wide open, service times and speed 1 when `timed` (the time dimension),
 * so that one long route is the shortest plan and balance has something to even out.
 */
export function balanceInstance(
  customers: number,
  vehicles: number,
  seed: number,
  timed: boolean,
  balance?: { measure: BalanceMeasure; cost_per_unit: number },
): SolveRequestInput {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = customers + 1;
  const positions = Array.from({ length: n }, (_, i) => (i === 0 ? [50, 50] : [Math.round(rand() * 100), Math.round(rand() * 100)]));
  return {
    node_num: n,
    vehicle_num: vehicles,
    node_positions: positions,
    distance_matrix: [],
    start_nodes: Array<number>(vehicles).fill(0),
    end_nodes: Array<number>(vehicles).fill(0),
    node_demands: positions.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: Array<number>(vehicles).fill(customers),
    ...(timed
      ? {
          node_time_windows: positions.map(() => [0, 100000]),
          node_service_time: positions.map((_, i) => (i === 0 ? 0 : 5 + Math.floor(rand() * 20))),
          vehicle_speeds: Array<number>(vehicles).fill(1),
        }
      : {}),
    ...(balance ? { balance } : {}),
  } as SolveRequestInput;
}
