/**
 * Rich problems of 2,000-5,000 customers on real coordinates: the customers of an XXL request
 * (Arnold, Gendreau and Sorensen 2019; Belgian road-network points, shared/benchmarks/requests/XXL)
 * sampled, with several depots, a mixed fleet and time windows, each built around a known feasible
 * solution so that feasibility is certain:
 * - depots: the XXL depot and 2-3 sampled points (3 or 4 in all); each customer belongs to the
 *   depot nearest to it in the construction (the solver is free to serve it from any depot);
 * - fleet: three types, capacity 20 / 40 / 80 (XXL demands are 1-3), fixed cost 300 / 500 / 900 and
 *   unit distance cost 1 / 1.3 / 1.7 (objective min_total_cost), speed 10 units per minute (the
 *   region is about 1,400-2,000 units across), service 3 minutes, horizon 600 minutes;
 * - construction: each depot's customers by polar angle, cut into routes in that order, each route
 *   on a random type, closed when the next customer would overload it or bring it back after the
 *   horizon; then 70% of the customers get a window of 60-180 minutes that contains the time the
 *   construction serves them (the others are open all day), so the construction stays feasible;
 * - vehicles: per depot and type, the construction's count plus 15% plus one.
 * With `mixed` false and one depot, the same windows on identical vehicles: an identical-vehicles VRPTW.
 * `known` is the construction's cost (an upper bound on the optimum).
 */
import { readFileSync } from "node:fs";
import type { SolveRequestInput } from "../src/problem/request-types.js";

const TYPES = [
  { capacity: 20, fixed: 300, unit: 1 },
  { capacity: 40, fixed: 500, unit: 1.3 },
  { capacity: 80, fixed: 900, unit: 1.7 },
];
const SPEED = 10;
const SERVICE = 3;
const HORIZON = 600;
const WINDOW_SHARE = 0.7;

export interface RichInstance {
  name: string;
  request: SolveRequestInput;
  /** Cost of the construction the instance was built around. */
  known: number;
}

/** `mixed` false: one depot's worth of identical vehicles (type 40 / 500 / 1.3) instead of three types. */
export function generateRichXxl(xxlFile: string, customers: number, depots: number, seed: number, mixed = true): RichInstance {
  const source = JSON.parse(readFileSync(xxlFile, "utf8")) as { name: string; node_positions: [number, number][]; node_demands: number[] };
  let s = (seed * 7919 + customers * 104_729 + depots) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  // Partial Fisher-Yates over the XXL customers: the first customers + depots - 1 are the sample.
  const pool = Array.from({ length: source.node_positions.length - 1 }, (_, i) => i + 1);
  const picked = customers + depots - 1;
  if (picked > pool.length) throw new Error(`${source.name} has only ${pool.length} customers`);
  for (let i = 0; i < picked; i++) {
    const j = int(i, pool.length - 1);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const sample = pool.slice(0, picked);
  const positions: [number, number][] = [source.node_positions[0]!, ...sample.slice(0, depots - 1).map((i) => source.node_positions[i]!)];
  const demands: number[] = Array(depots).fill(0);
  for (const i of sample.slice(depots - 1)) {
    positions.push(source.node_positions[i]!);
    demands.push(source.node_demands[i]!);
  }
  const n = positions.length;
  const dist = (a: number, b: number) => Math.hypot(positions[a]![0] - positions[b]![0], positions[a]![1] - positions[b]![1]);

  // Construction: nearest depot, polar order, cut by capacity and horizon.
  const byDepot: number[][] = Array.from({ length: depots }, () => []);
  for (let c = depots; c < n; c++) {
    let best = 0;
    for (let d = 1; d < depots; d++) if (dist(d, c) < dist(best, c)) best = d;
    byDepot[best]!.push(c);
  }
  const windows: [number, number][] = positions.map(() => [0, HORIZON]);
  const used = Array.from({ length: depots }, () => TYPES.map(() => 0));
  let known = 0;
  for (let d = 0; d < depots; d++) {
    const angle = (c: number) => Math.atan2(positions[c]![1] - positions[d]![1], positions[c]![0] - positions[d]![0]);
    const order = byDepot[d]!.sort((a, b) => angle(a) - angle(b));
    let k = 0;
    while (k < order.length) {
      const type = mixed ? int(0, TYPES.length - 1) : 1;
      const { capacity, fixed, unit } = TYPES[type]!;
      let load = 0;
      let clock = 0;
      let prev = d;
      let length = 0;
      const served: [number, number][] = [];
      while (k < order.length) {
        const c = order[k]!;
        const arrive = clock + dist(prev, c) / SPEED;
        const back = arrive + SERVICE + dist(c, d) / SPEED;
        if (served.length > 0 && (load + demands[c]! > capacity || back > HORIZON)) break;
        if (back > HORIZON) throw new Error(`customer ${c} cannot be served within the horizon`);
        load += demands[c]!;
        length += dist(prev, c);
        served.push([c, arrive]);
        clock = arrive + SERVICE;
        prev = c;
        k++;
      }
      length += dist(prev, d);
      known += fixed + unit * length;
      used[d]![type]!++;
      for (const [c, arrive] of served) {
        if (rand() >= WINDOW_SHARE) continue;
        const width = int(60, 180);
        const open = Math.max(0, Math.floor(arrive - rand() * width));
        windows[c] = [open, Math.min(HORIZON, Math.max(Math.ceil(arrive), open + width))];
      }
    }
  }
  const starts: number[] = [];
  const capacities: number[] = [];
  const fixedCosts: number[] = [];
  const unitCosts: number[] = [];
  used.forEach((perType, d) =>
    perType.forEach((count, t) => {
      for (let i = 0; i < (count > 0 ? count + Math.ceil(0.15 * count) + 1 : 0); i++) {
        starts.push(d);
        capacities.push(TYPES[t]!.capacity);
        fixedCosts.push(TYPES[t]!.fixed);
        unitCosts.push(TYPES[t]!.unit);
      }
    }),
  );
  const vehicles = starts.length;
  return {
    name: `rich-${source.name}-n${customers}-d${depots}${mixed ? "" : "-identical"}`,
    known,
    request: {
      objective: "min_total_cost",
      node_num: n,
      vehicle_num: vehicles,
      distance_matrix: [],
      node_positions: positions,
      start_nodes: starts,
      end_nodes: starts,
      node_demands: demands,
      vehicles_capacity: capacities,
      vehicle_fixed_costs: fixedCosts,
      vehicle_unit_distance_costs: unitCosts,
      node_time_windows: windows,
      node_service_time: positions.map((_, i) => (i < depots ? 0 : SERVICE)),
      vehicle_speeds: Array(vehicles).fill(SPEED),
    },
  };
}
