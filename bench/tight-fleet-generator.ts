/**
 * Tight limited fleets with a planted solution: mixed vehicle types, a limited number
 * of each, 80-95% of the fleet's total capacity used, and feasibility certain because each
 * instance is built around a solution. The solution comes first: customers are placed, cut into
 * one sector per vehicle (a sweep around the depot, sector sizes in proportion to capacity), and
 * only then are demands drawn so that each sector fills its vehicle to a chosen share (some
 * vehicles full to the last unit). Demands are integers, some of them large (up to about half of
 * the smallest vehicle), which makes the packing hard. Positions on a 1000 x 1000 grid, random,
 * clustered or half of each; costs as in Pessoa et al. (2018)'s HVRP: larger vehicles cost more
 * to use and per unit of distance. The planted routes are ordered by nearest neighbour and 2-opt,
 * so their cost is a fair reference (a gap below 0 means the solver beat the planted solution).
 */
import type { SolveRequestInput } from "../src/problem/request-types.js";

export interface TightFleetInstance {
  name: string;
  request: SolveRequestInput;
  /** The planted solution: customers per vehicle, in visiting order. */
  planted: number[][];
  plantedCost: number;
  /** Total demand / total capacity. */
  utilisation: number;
}

interface VehicleType {
  capacity: number;
  fixed: number;
  unit: number;
}

function rngFrom(seed: number): { rand: () => number; int: (lo: number, hi: number) => number } {
  let s = seed >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return { rand, int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)) };
}

const dist = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Nearest-neighbour order from the depot, then 2-opt until no improving move. */
function orderRoute(nodes: number[], pos: [number, number][]): number[] {
  const left = new Set(nodes);
  const route: number[] = [];
  let at = 0;
  while (left.size > 0) {
    let best = -1;
    for (const c of left) if (best < 0 || dist(pos[at]!, pos[c]!) < dist(pos[at]!, pos[best]!)) best = c;
    route.push(best);
    left.delete(best);
    at = best;
  }
  const tour = [0, ...route, 0];
  for (let improved = true; improved;) {
    improved = false;
    for (let i = 1; i < tour.length - 2; i++) {
      for (let j = i + 1; j < tour.length - 1; j++) {
        const delta =
          dist(pos[tour[i - 1]!]!, pos[tour[j]!]!) +
          dist(pos[tour[i]!]!, pos[tour[j + 1]!]!) -
          dist(pos[tour[i - 1]!]!, pos[tour[i]!]!) -
          dist(pos[tour[j]!]!, pos[tour[j + 1]!]!);
        if (delta < -1e-9) {
          tour.splice(i, j - i + 1, ...tour.slice(i, j + 1).reverse());
          improved = true;
        }
      }
    }
  }
  return tour.slice(1, -1);
}

/** Splits `total` into `parts` positive integers with uneven, partly large shares. */
function splitDemand(total: number, parts: number, rand: () => number): number[] {
  const weights = Array.from({ length: parts }, () => (rand() < 0.15 ? 3 + 4 * rand() : 0.3 + rand()));
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.max(1, Math.floor(((total - parts) * w) / sum) + 1));
  let rest = total - out.reduce((a, b) => a + b, 0);
  for (let i = 0; rest !== 0; i = (i + 1) % parts) {
    if (rest > 0) {
      out[i]!++;
      rest--;
    } else if (out[i]! > 1) {
      out[i]!--;
      rest++;
    }
  }
  return out;
}

/** Instance `index` (0-based) of the family; the same index and seed always give the same instance. */
export function tightFleetInstance(index: number, seed = 2026): TightFleetInstance {
  const { rand, int } = rngFrom(seed * 7919 + index * 104_729);
  const customers = int(50, 300);
  const utilisation = 0.8 + 0.15 * rand();
  // 3 to 9 vehicle types, capacities in a geometric progression (as in Pessoa et al.'s HVRP),
  // bigger ones dearer to use and per unit of distance; a limited count of each, enough vehicles
  // for routes of about 3 to 12 customers (few customers per vehicle make each demand a large
  // share of a vehicle: the packing is what is hard).
  const base = int(10, 150);
  const ratio = 1.2 + 0.3 * rand();
  const typeCount = int(3, 9);
  const types: VehicleType[] = Array.from({ length: typeCount }, (_, t) => {
    const capacity = Math.max(2, Math.round(base * Math.pow(ratio, t)));
    return {
      capacity,
      fixed: Math.round(20 * Math.pow(capacity, 0.8)),
      unit: Math.round((0.8 + (0.6 * Math.pow(ratio, t)) / Math.pow(ratio, typeCount - 1)) * 100) / 100,
    };
  });
  const routeSize = int(3, 12);
  const vehicleCount = Math.max(typeCount, Math.round(customers / routeSize));
  const fleet: VehicleType[] = types.slice();
  while (fleet.length < vehicleCount) fleet.push(types[int(0, typeCount - 1)]!);
  fleet.sort((a, b) => a.capacity - b.capacity || a.fixed - b.fixed);

  const depotKind = int(0, 2);
  const depot: [number, number] = depotKind === 0 ? [500, 500] : depotKind === 1 ? [0, 0] : [int(0, 1000), int(0, 1000)];
  const pos: [number, number][] = [depot];
  const centres = Array.from({ length: int(3, 8) }, () => [int(0, 1000), int(0, 1000)] as const);
  const clustered = [0, customers, Math.floor(customers / 2)][int(0, 2)]!;
  for (let c = 0; c < customers; c++) {
    if (c < clustered) {
      const [x, y] = centres[int(0, centres.length - 1)]!;
      const r = -40 * Math.log(1 - rand());
      const a = 2 * Math.PI * rand();
      pos.push([
        Math.min(1000, Math.max(0, Math.round(x + r * Math.cos(a)))),
        Math.min(1000, Math.max(0, Math.round(y + r * Math.sin(a)))),
      ]);
    } else pos.push([int(0, 1000), int(0, 1000)]);
  }

  // The planted solution: a sweep cut into sectors of sizes in proportion to capacity.
  const order = Array.from({ length: customers }, (_, i) => i + 1).sort(
    (a, b) => Math.atan2(pos[a]![1] - depot[1], pos[a]![0] - depot[0]) - Math.atan2(pos[b]![1] - depot[1], pos[b]![0] - depot[0]),
  );
  const shuffledFleet = fleet.map((_, v) => v).sort(() => rand() - 0.5);
  const totalCapacity = fleet.reduce((a, t) => a + t.capacity, 0);
  const planted: number[][] = Array.from({ length: fleet.length }, () => []);
  let cursor = 0;
  shuffledFleet.forEach((v, k) => {
    const share =
      k === shuffledFleet.length - 1 ? customers - cursor : Math.max(1, Math.round((customers * fleet[v]!.capacity) / totalCapacity));
    const take = Math.min(share, customers - cursor - (shuffledFleet.length - 1 - k));
    planted[v] = order.slice(cursor, cursor + Math.max(1, take));
    cursor += Math.max(1, take);
  });

  // Demands: each sector fills its vehicle to a share around the target (two in five of them full).
  const demands = new Array<number>(customers + 1).fill(0);
  let totalDemand = 0;
  planted.forEach((route, v) => {
    const capacity = fleet[v]!.capacity;
    const fill = rand() < 0.4 ? 1 : Math.min(1, Math.max(0.55, utilisation - 0.15 + 0.25 * rand()));
    const load = Math.max(route.length, Math.min(capacity, Math.round(fill * capacity)));
    splitDemand(load, route.length, rand).forEach((d, i) => (demands[route[i]!] = d));
    totalDemand += load;
  });
  // Trim or top up towards the target share of total capacity, never above a vehicle's capacity.
  const target = Math.round(utilisation * totalCapacity);
  for (let guard = 0; totalDemand !== target && guard < 100_000; guard++) {
    const v = int(0, fleet.length - 1);
    const route = planted[v]!;
    const c = route[int(0, route.length - 1)]!;
    const load = route.reduce((a, x) => a + demands[x]!, 0);
    if (totalDemand < target && load < fleet[v]!.capacity) {
      demands[c]!++;
      totalDemand++;
    } else if (totalDemand > target && demands[c]! > 1) {
      demands[c]!--;
      totalDemand--;
    }
  }
  for (let v = 0; v < planted.length; v++) planted[v] = orderRoute(planted[v]!, pos);

  let plantedCost = 0;
  planted.forEach((route, v) => {
    if (route.length === 0) return;
    let d = 0;
    let at = 0;
    for (const c of route) {
      d += dist(pos[at]!, pos[c]!);
      at = c;
    }
    d += dist(pos[at]!, pos[0]!);
    plantedCost += fleet[v]!.fixed + fleet[v]!.unit * d;
  });

  const request: SolveRequestInput = {
    name: `tight-${String(index + 1).padStart(2, "0")}`,
    objective: "min_total_cost",
    node_num: customers + 1,
    vehicle_num: fleet.length,
    node_positions: pos,
    distance_matrix: [],
    start_nodes: fleet.map(() => 0),
    end_nodes: fleet.map(() => 0),
    node_demands: demands,
    vehicles_capacity: fleet.map((t) => t.capacity),
    vehicle_fixed_costs: fleet.map((t) => t.fixed),
    vehicle_unit_distance_costs: fleet.map((t) => t.unit),
  };
  return { name: request.name!, request, planted, plantedCost, utilisation: totalDemand / totalCapacity };
}
