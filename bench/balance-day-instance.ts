/**
 * A dispatcher's day for the balance bench: a fixed fleet of vans that the day needs, each with a
 * shift and a working-hours cap, serving a town's customers, some with delivery windows.
 * - customers: 50 to 80 on a 30 x 30 km square around a central depot (random, clustered or half
 *   of each); 5 to 15 minutes of service; demands 1 to 10;
 * - vans: K = round(customers / 12), at least 3; the capacity is the total demand over 0.9 K, so
 *   every van is needed (K - 1 vans carry less than the day's goods) with some slack to share out;
 * - time: minutes from 07:00; the depot and every shift are open until 17:00 and a driver works
 *   at most 9 hours; vans drive 0.5 km a minute (30 km/h); about half the customers take goods in
 *   the morning (07:00-11:00), around midday (09:00-13:00) or in the afternoon (12:00-16:00).
 * The same index and seed always give the same day.
 */
import type { SolveRequestInput } from "../src/problem/request-types.js";

const SIDE_KM = 30;
const DAY_MINUTES = 600;
const WORKING_HOURS = 9;
const SPEED_KM_PER_MINUTE = 0.5;
const WINDOWS: readonly [number, number][] = [
  [0, 240],
  [120, 360],
  [300, 540],
];

/** Day `index` of the family built from `seedBase`. */
export function dispatcherDay(index: number, seedBase: number): { name: string; request: SolveRequestInput } {
  let s = (seedBase * 7919 + index * 104_729 + 31) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const customers = int(50, 80);
  const clustered = [0, customers, Math.floor(customers / 2)][index % 3]!;
  const centres = Array.from({ length: int(3, 6) }, (): [number, number] => [int(2, SIDE_KM - 2), int(2, SIDE_KM - 2)]);
  const positions: [number, number][] = [[SIDE_KM / 2, SIDE_KM / 2]];
  for (let c = 0; c < customers; c++) {
    if (c < clustered) {
      const [x, y] = centres[int(0, centres.length - 1)]!;
      const r = -1.5 * Math.log(1 - rand());
      const a = 2 * Math.PI * rand();
      const clamp = (z: number) => Math.min(SIDE_KM, Math.max(0, Math.round(10 * z) / 10));
      positions.push([clamp(x + r * Math.cos(a)), clamp(y + r * Math.sin(a))]);
    } else positions.push([int(0, 10 * SIDE_KM) / 10, int(0, 10 * SIDE_KM) / 10]);
  }
  const n = positions.length;
  const matrix = positions.map((a) => positions.map((b) => Math.round(10 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 10));
  const demands = positions.map((_, i) => (i === 0 ? 0 : int(1, 10)));
  const vans = Math.max(3, Math.round(customers / 12));
  const capacity = Math.ceil(demands.reduce((a, b) => a + b, 0) / (0.9 * vans));
  const windows = positions.map((_, i): [number, number] => (i > 0 && rand() < 0.5 ? [...WINDOWS[int(0, 2)]!] : [0, DAY_MINUTES]));
  const kind = ["random", "clustered", "mixed"][index % 3]!;
  return {
    name: `day-${index}-${kind}-n${customers}-k${vans}`,
    request: {
      node_num: n,
      vehicle_num: vans,
      distance_matrix: matrix,
      start_nodes: Array<number>(vans).fill(0),
      end_nodes: Array<number>(vans).fill(0),
      node_demands: demands,
      vehicles_capacity: Array<number>(vans).fill(capacity),
      node_time_windows: windows,
      node_service_time: positions.map((_, i) => (i === 0 ? 0 : int(5, 15))),
      vehicle_speeds: Array<number>(vans).fill(SPEED_KM_PER_MINUTE),
      vehicle_time_windows: Array.from({ length: vans }, (): [number, number] => [0, DAY_MINUTES]),
      max_working_hours: WORKING_HOURS,
    },
  };
}
