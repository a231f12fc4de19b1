/**
 * Generated windowed problems with rush hours, each built around a
 * planted plan that is feasible under the traffic. The day starts at 06:00 (base_start_time);
 * driving takes 1.6 times as long from 07:00 to 09:00 and from 16:00 to 18:00. Customers on a
 * 160 x 160 grid (random, clustered or half of each) are cut into sectors around a central depot,
 * one per route, each ordered by nearest neighbour; each route leaves the depot at a drawn minute
 * between 06:00 and 08:30 and is driven through the slots at their pace, and the windows of most customers
 * are drawn around their planted arrival, so the planted plan meets every window.
 */
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { arrivalAfter, type TrafficSlots } from "../strategies/core/traffic.js";

/** The slots of a day starting at 06:00: rush hours 07:00-09:00 and 16:00-18:00 at factor 1.6. */
export const RUSH_HOURS = [
  { start: 0, factor: 1 },
  { start: 60, factor: 1.6 },
  { start: 180, factor: 1 },
  { start: 600, factor: 1.6 },
  { start: 720, factor: 1 },
];

/** The day: 06:00 to 21:00. */
export const DAY_MINUTES = 900;

export interface TrafficInstance {
  name: string;
  /** The request with time_dependent_durations. */
  request: SolveRequestInput & Record<string, unknown>;
  /** The same request at the day's mean pace and without the slots: what a planner on mean speeds sees. */
  meanSpeed: SolveRequestInput & Record<string, unknown>;
  /** The same request at the pace outside the rush hours (factor 1), without the slots. */
  freeFlow: SolveRequestInput & Record<string, unknown>;
  planted: number[][];
}

/** The day's mean factor over [0, until]: the pace a planner on mean speeds assumes. */
export function meanFactor(until: number): number {
  let sum = 0;
  RUSH_HOURS.forEach((slot, k) => {
    const end = Math.min(until, RUSH_HOURS[k + 1]?.start ?? until);
    if (end > slot.start) sum += (end - slot.start) * slot.factor;
  });
  return sum / until;
}

function rngFrom(seed: number): { rand: () => number; int: (lo: number, hi: number) => number } {
  let s = seed >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return { rand, int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)) };
}

const round1 = (x: number) => Math.round(10 * x) / 10;

/** Nearest-neighbour order from node 0 on `d`. */
function nearestOrder(nodes: number[], d: number[][]): number[] {
  const left = new Set(nodes);
  const tour: number[] = [];
  let at = 0;
  while (left.size > 0) {
    let best = -1;
    for (const c of left) if (best < 0 || d[at]![c]! < d[at]![best]!) best = c;
    tour.push(best);
    left.delete(best);
    at = best;
  }
  return tour;
}

/** Instance `index`; the same index and seed always give the same instance. */
export function trafficInstance(index: number, seed = 2026): TrafficInstance {
  const { rand, int } = rngFrom(seed * 7919 + index * 104_729 + 68);
  const slots: TrafficSlots = {
    start: Float64Array.from(RUSH_HOURS, (s) => s.start),
    factor: Float64Array.from(RUSH_HOURS, (s) => s.factor),
  };
  const customers = int(60, 120);
  const pos: [number, number][] = [[80, 80]];
  const centres = Array.from({ length: int(3, 6) }, (): [number, number] => [int(0, 160), int(0, 160)]);
  const clustered = [0, customers, Math.floor(customers / 2)][int(0, 2)]!;
  for (let c = 0; c < customers; c++) {
    if (c < clustered) {
      const [x, y] = centres[int(0, centres.length - 1)]!;
      const r = -5 * Math.log(1 - rand());
      const a = 2 * Math.PI * rand();
      pos.push([Math.min(160, Math.max(0, Math.round(x + r * Math.cos(a)))), Math.min(160, Math.max(0, Math.round(y + r * Math.sin(a))))]);
    } else pos.push([int(0, 160), int(0, 160)]);
  }
  const n = pos.length;
  const dist = pos.map((a) => pos.map((b) => round1(Math.hypot(a[0] - b[0], a[1] - b[1]))));
  const service = pos.map((_, i) => (i === 0 ? 0 : int(5, 15)));
  const demand = pos.map((_, i) => (i === 0 ? 0 : int(1, 20)));

  const routeSize = int(5, 9);
  const routeCount = Math.max(2, Math.round(customers / routeSize));
  const order = Array.from({ length: customers }, (_, i) => i + 1).sort(
    (a, b) => Math.atan2(pos[a]![1] - 80, pos[a]![0] - 80) - Math.atan2(pos[b]![1] - 80, pos[b]![0] - 80),
  );
  const vehicleCount = routeCount + Math.ceil(routeCount / 5);
  const planted = Array.from({ length: vehicleCount }, (_, r) =>
    r < routeCount
      ? nearestOrder(order.slice(Math.floor((r * customers) / routeCount), Math.floor(((r + 1) * customers) / routeCount)), dist)
      : [],
  );
  const loads = planted.map((route) => route.reduce((sum, c) => sum + demand[c]!, 0));
  const capacity = Math.ceil(Math.max(...loads) * 1.1);

  // Drive each planted route through the slots from a morning departure; windows around the arrivals.
  const windows: [number, number][] = pos.map(() => [0, DAY_MINUTES]);
  const windowShare = 0.8 + 0.2 * rand();
  for (const route of planted) {
    if (route.length === 0) continue;
    let clock = int(0, 150);
    let prev = 0;
    for (const c of route) {
      clock = arrivalAfter(slots, clock, dist[prev]![c]!);
      if (rand() < windowShare) {
        const half = int(5, 25);
        windows[c] = [Math.max(0, Math.floor(clock - half * rand())), Math.ceil(clock + half * rand()) + 1];
      }
      clock += service[c]!;
      prev = c;
    }
    if (arrivalAfter(slots, clock, dist[prev]![0]!) > DAY_MINUTES) throw new Error(`instance ${index}: a planted route ends after the day`);
  }

  const request: SolveRequestInput & Record<string, unknown> = {
    node_num: n,
    vehicle_num: vehicleCount,
    node_positions: pos,
    distance_matrix: dist,
    start_nodes: Array(vehicleCount).fill(0),
    end_nodes: Array(vehicleCount).fill(0),
    node_demands: demand,
    vehicles_capacity: Array(vehicleCount).fill(capacity),
    node_time_windows: windows,
    node_service_time: service,
    vehicle_speeds: Array(vehicleCount).fill(1),
    base_start_time: [6, 0, 0],
    time_dependent_durations: RUSH_HOURS,
  };
  const { time_dependent_durations: _slots, ...plain } = request;
  const meanSpeed = { ...plain, vehicle_speeds: Array(vehicleCount).fill(1 / meanFactor(DAY_MINUTES)) };
  return { name: `traffic-${index}-n${customers}`, request, meanSpeed, freeFlow: plain, planted };
}
