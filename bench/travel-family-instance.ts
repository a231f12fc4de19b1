/**
 * Generated problems with the time and cost fields partners measure (constraints.md, "Time and
 * cost as partners measure them"), each built around a planted plan so that feasibility is certain.
 * The plan comes first: customers on a 200 x 200 grid (random, clustered or half of each) are cut
 * into sectors around a central depot, one per route, each ordered by nearest neighbour and 2-opt.
 * Its schedule is then driven under the family's time model, and every window is drawn around the
 * planted arrival (no waiting), so the planted plan meets every window, break and capacity.
 *
 * Families:
 * - `durations`: a duration matrix that is not proportional to distance (a slow centre, fast
 *   outskirts, climbs north cost 10% more), no speeds.
 * - `profiles`: two networks on a mixed fleet: vans on the request's duration matrix, bikes on a
 *   `bike` profile's (three times slower, the same roads and distances).
 * - `two-windows`: two windows per customer, the planted arrival in one of them, the other one
 *   earlier or later (a split Solomon-like window).
 * - `breaks`: one or two breaks per shift, taken in the plan where the first one comes due.
 * - `open`: routes that end at their last stop (`vehicle_return_to_end` false).
 * - `time-cost`: minimum total cost with a cost per hour of route duration beside fixed and
 *   distance costs.
 */
import type { SolveRequestInput } from "../src/problem/request-types.js";

export const TRAVEL_FAMILIES = ["durations", "profiles", "two-windows", "breaks", "open", "time-cost"] as const;
export type TravelFamily = (typeof TRAVEL_FAMILIES)[number];

export interface TravelInstance {
  name: string;
  family: TravelFamily;
  /** The v1 fields and the family's extension fields (constraints.md names and shapes). */
  request: SolveRequestInput & Record<string, unknown>;
  /** The planted plan: customers per vehicle, in visiting order. */
  planted: number[][];
  /** Its objective value, computed here from the family's own rules (independent of the evaluator). */
  plantedCost: number;
  /** Per node the window the planted plan serves it in (its only one unless several were drawn). */
  plantedWindows: [number, number][];
}

type Point = [number, number];
type Matrix = number[][];

function rngFrom(seed: number): { rand: () => number; int: (lo: number, hi: number) => number } {
  let s = seed >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return { rand, int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)) };
}

const round1 = (x: number) => Math.round(10 * x) / 10;

/** Nearest-neighbour order from node 0, then 2-opt on `d` until no improving move. */
function orderRoute(nodes: number[], d: Matrix): number[] {
  const left = new Set(nodes);
  const tour = [0];
  while (left.size > 0) {
    const at = tour[tour.length - 1]!;
    let best = -1;
    for (const c of left) if (best < 0 || d[at]![c]! < d[at]![best]!) best = c;
    tour.push(best);
    left.delete(best);
  }
  tour.push(0);
  for (let improved = true; improved;) {
    improved = false;
    for (let i = 1; i < tour.length - 2; i++) {
      for (let j = i + 1; j < tour.length - 1; j++) {
        const [a, b, c, e] = [tour[i - 1]!, tour[i]!, tour[j]!, tour[j + 1]!];
        if (d[a]![c]! + d[b]![e]! < d[a]![b]! + d[c]![e]! - 1e-9) {
          tour.splice(i, j - i + 1, ...tour.slice(i, j + 1).reverse());
          improved = true;
        }
      }
    }
  }
  return tour.slice(1, -1);
}

/** Travel minutes on a network where the centre is slow, the outskirts fast and climbs dearer. */
function congestedMinutes(pos: Point[], i: number, j: number, distance: number, slowCentre: number): number {
  const pace = (p: Point) => (Math.hypot(p[0] - 100, p[1] - 100) < 50 ? slowCentre : 0.8);
  const climb = pos[j]![1] > pos[i]![1] ? 1.1 : 1;
  return round1(distance * climb * ((pace(pos[i]!) + pace(pos[j]!)) / 2));
}

interface Vehicle {
  capacity: number;
  /** The matrices it drives on. */
  dist: Matrix;
  minutes: Matrix;
  returns: boolean;
  breaks: { earliest_start: number; latest_start: number; duration: number }[];
}

interface Drive {
  /** Planted arrival minute per customer of the route. */
  arrive: number[];
  /** Leaves the last stop (open route) or arrives at the end node. */
  finish: number;
  distance: number;
}

/** Drives `route` from minute 0 without waiting, taking each break once it has come due. */
function drive(route: number[], v: Vehicle, service: number[], breakPlan: Vehicle["breaks"]): Drive {
  let clock = 0;
  let prev = 0;
  let distance = 0;
  let due = 0;
  const takeDueBreaks = () => {
    while (due < breakPlan.length && clock >= breakPlan[due]!.earliest_start) {
      const plan = breakPlan[due]!;
      plan.latest_start = Math.max(plan.latest_start, Math.ceil(clock));
      clock += plan.duration;
      due++;
    }
  };
  const arrive: number[] = [];
  for (const c of route) {
    takeDueBreaks();
    clock += v.minutes[prev]![c]!;
    distance += v.dist[prev]![c]!;
    arrive.push(clock);
    clock += service[c]!;
    prev = c;
  }
  takeDueBreaks();
  // A break not yet due is taken at the last stop, as early as its window allows.
  for (; due < breakPlan.length; due++) {
    const plan = breakPlan[due]!;
    clock = Math.max(clock, plan.earliest_start) + plan.duration;
  }
  if (v.returns) {
    clock += v.minutes[prev]![0]!;
    distance += v.dist[prev]![0]!;
  }
  return { arrive, finish: clock, distance };
}

/** Instance `index` of `family`; the same index, family and seed always give the same instance. */
export function travelInstance(family: TravelFamily, index: number, seed = 2026): TravelInstance {
  const familySalt = TRAVEL_FAMILIES.indexOf(family) + 1;
  const { rand, int } = rngFrom(seed * 7919 + index * 104_729 + familySalt * 15_485_863);
  const customers = int(60, 300);
  const pos: Point[] = [[100, 100]];
  const centres = Array.from({ length: int(3, 8) }, (): Point => [int(0, 200), int(0, 200)]);
  const clustered = [0, customers, Math.floor(customers / 2)][int(0, 2)]!;
  for (let c = 0; c < customers; c++) {
    if (c < clustered) {
      const [x, y] = centres[int(0, centres.length - 1)]!;
      const r = -8 * Math.log(1 - rand());
      const a = 2 * Math.PI * rand();
      pos.push([Math.min(200, Math.max(0, Math.round(x + r * Math.cos(a)))), Math.min(200, Math.max(0, Math.round(y + r * Math.sin(a))))]);
    } else pos.push([int(0, 200), int(0, 200)]);
  }
  const n = pos.length;
  const dist: Matrix = pos.map((a) => pos.map((b) => round1(Math.hypot(a[0] - b[0], a[1] - b[1]))));
  const service = pos.map((_, i) => (i === 0 ? 0 : int(5, 15)));
  const demand = pos.map((_, i) => (i === 0 ? 0 : int(1, 30)));

  const hasDurations = family === "durations" || family === "profiles";
  const minutes: Matrix = hasDurations ? dist.map((row, i) => row.map((d, j) => congestedMinutes(pos, i, j, d, 1.8))) : dist;
  // The bike network: the same roads at a third of the pace, without the van's congestion.
  const bikeMinutes: Matrix = dist.map((row) => row.map((d) => round1(d * 3)));

  // The planted routes: sectors of 6 to 14 customers around the depot.
  const routeSize = int(6, 14);
  const routeCount = Math.max(2, Math.round(customers / routeSize));
  const order = Array.from({ length: customers }, (_, i) => i + 1).sort(
    (a, b) => Math.atan2(pos[a]![1] - 100, pos[a]![0] - 100) - Math.atan2(pos[b]![1] - 100, pos[b]![0] - 100),
  );
  const sectors = Array.from({ length: routeCount }, (_, r) =>
    order.slice(Math.floor((r * customers) / routeCount), Math.floor(((r + 1) * customers) / routeCount)),
  );
  // Bikes take every third route (profiles only); spare vehicles, a fifth more, stay unused in the plan.
  const bikeRoute = (r: number) => family === "profiles" && r % 3 === 0;
  const vehicleCount = routeCount + Math.ceil(routeCount / 5);
  const vehicles: Vehicle[] = Array.from({ length: vehicleCount }, (_, v) => ({
    capacity: 0,
    dist,
    minutes: bikeRoute(v) ? bikeMinutes : minutes,
    returns: !(family === "open" && v % 4 !== 3),
    breaks: [],
  }));
  const planted: number[][] = Array.from({ length: vehicleCount }, (_, v) =>
    v < routeCount ? orderRoute(sectors[v]!, vehicles[v]!.dist) : [],
  );
  const loads = planted.map((route) => route.reduce((sum, c) => sum + demand[c]!, 0));
  const maxLoad = Math.max(...loads);
  for (let v = 0; v < vehicleCount; v++) {
    vehicles[v]!.capacity = bikeRoute(v) ? Math.max(loads[v]!, Math.ceil(maxLoad / 2)) : Math.ceil(maxLoad * (1 + 0.1 * rand()));
    if (family === "breaks") {
      const first = { earliest_start: int(90, 200), latest_start: 0, duration: int(15, 45) };
      const second = { earliest_start: first.earliest_start + int(150, 240), latest_start: 0, duration: int(10, 20) };
      vehicles[v]!.breaks = rand() < 0.5 ? [first] : [first, second];
      for (const b of vehicles[v]!.breaks) b.latest_start = b.earliest_start + int(30, 90);
    }
  }

  // Drive the plan, then draw every window around its planted arrival.
  const drives = planted.map((route, v) => drive(route, vehicles[v]!, service, vehicles[v]!.breaks));
  const horizon = Math.ceil(Math.max(...drives.map((d) => d.finish)) * 1.3 + 60);
  const windows: [number, number][] = pos.map(() => [0, horizon]);
  const windowSets: ([number, number][] | null)[] = pos.map(() => null);
  const plantedWindows: [number, number][] = pos.map(() => [0, horizon]);
  const windowShare = 0.5 + 0.5 * rand();
  planted.forEach((route, v) =>
    route.forEach((c, k) => {
      const at = drives[v]!.arrive[k]!;
      if (family !== "two-windows" && rand() >= windowShare) return;
      const half = int(20, 90);
      const own: [number, number] = [Math.max(0, Math.floor(at - half * rand())), Math.ceil(at + half * rand()) + 1];
      windows[c] = own;
      plantedWindows[c] = own;
      if (family !== "two-windows") return;
      const gap = int(30, 120);
      const width = int(30, 120);
      const other: [number, number] =
        rand() < 0.5 && own[0] > gap + width ? [own[0] - gap - width, own[0] - gap] : [own[1] + gap, own[1] + gap + width];
      const set = other[0] < own[0] ? [other, own] : [own, other];
      windowSets[c] = set;
      windows[c] = [set[0]![0], set[1]![1]];
      if (windows[c]![1] > horizon) windows[0] = [0, Math.max(windows[0]![1], windows[c]![1] + 60)];
    }),
  );

  const costObjective = family === "time-cost" || family === "profiles";
  const fixed = vehicles.map((v) => (v.minutes === bikeMinutes ? 20 : 60));
  const unit = vehicles.map((v) => (v.minutes === bikeMinutes ? 0.2 : 1));
  const hourly = vehicles.map(() => (family === "time-cost" ? int(15, 40) : 0));
  const plantedCost = planted.reduce((sum, route, v) => {
    if (route.length === 0) return sum;
    const d = drives[v]!;
    if (!costObjective) return sum + d.distance;
    return sum + fixed[v]! + unit[v]! * d.distance + (hourly[v]! * d.finish) / 60;
  }, 0);

  const request: SolveRequestInput & Record<string, unknown> = {
    objective: costObjective ? "min_total_cost" : "min_total_distance",
    node_num: n,
    vehicle_num: vehicleCount,
    distance_matrix: dist,
    start_nodes: Array(vehicleCount).fill(0),
    end_nodes: Array(vehicleCount).fill(0),
    node_demands: demand,
    vehicles_capacity: vehicles.map((v) => v.capacity),
    node_time_windows: windows,
    node_service_time: service,
    ...(costObjective ? { vehicle_fixed_costs: fixed, vehicle_unit_distance_costs: unit } : {}),
  };
  if (hasDurations) request.duration_matrix = minutes;
  else request.vehicle_speeds = Array(vehicleCount).fill(1);
  if (family === "profiles") {
    request.profiles = { bike: { duration_matrix: bikeMinutes } };
    request.vehicle_profiles = vehicles.map((v) => (v.minutes === bikeMinutes ? "bike" : null));
  }
  if (family === "two-windows") request.node_time_window_sets = windowSets;
  if (family === "breaks") request.vehicle_breaks = vehicles.map((v) => v.breaks);
  if (family === "open") request.vehicle_return_to_end = vehicles.map((v) => v.returns);
  if (family === "time-cost") request.vehicle_unit_time_costs = hourly;
  plantedWindows[0] = windows[0]!;
  return { name: `${family}-${index}-n${customers}`, family, request, planted, plantedCost, plantedWindows };
}
