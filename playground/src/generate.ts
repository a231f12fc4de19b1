import { addServiceConstraints, type ServiceConstraintOptions } from "./generate-constraints.js";
import { addLoadFields, type LoadOptions } from "./generate-loads.js";
import { addTimeFields, type TimeFieldOptions } from "./generate-time.js";
import type { SolveRequest } from "./types.js";

export interface GeneratorOptions extends LoadOptions, ServiceConstraintOptions, TimeFieldOptions {
  nodes: number;
  depots: number;
  capacities: boolean;
  windows: boolean;
  timeLimitSeconds: number;
  seed: number;
}

/** mulberry32: a tiny seeded generator, so a problem can be generated again from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SQUARE = 100;
const DAY_MINUTES = 720;

/**
 * A random problem on a 100 x 100 square (positions only, so large ones stay small on the wire):
 * the first `depots` nodes are depots, vehicles spread over them round-robin. With capacities,
 * demands 1-9 and about ten customers' worth per vehicle; with windows, a 12-hour day, windows of
 * one to three hours, service 5-15 min, speed 1 and an 11-hour cap. Built to be feasible with
 * room to spare; the plan's limits (e.g. 200 vehicles) still apply.
 */
export function generateProblem(options: GeneratorOptions): SolveRequest {
  const rand = random(options.seed);
  const n = Math.max(options.depots + 1, Math.floor(options.nodes));
  const depots = Math.max(1, Math.min(options.depots, n - 1));
  const customers = n - depots;
  const positions: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const spread = i < depots ? 0.6 : 1; // depots away from the edges
    positions.push([round1(SQUARE * (0.5 + (rand() - 0.5) * spread)), round1(SQUARE * (0.5 + (rand() - 0.5) * spread))]);
  }
  const demands = positions.map((_, i) => (i < depots ? 0 : options.capacities ? 1 + Math.floor(rand() * 9) : 1));
  const perVehicle = options.windows ? 8 : 10;
  const vehicles = Math.max(depots, Math.min(200, Math.ceil((customers / perVehicle) * 1.3)));
  const totalDemand = demands.reduce((a, b) => a + b, 0);
  const capacity = options.capacities ? Math.max(9, Math.ceil(totalDemand / (vehicles * 0.75))) : customers;
  const vehicleDepot = Array.from({ length: vehicles }, (_, v) => v % depots);
  const request: SolveRequest = {
    name:
      `Random ${n} nodes${options.capacities ? ", capacities" : ""}` +
      `${options.windows ? ", windows" : ""}${depots > 1 ? `, ${depots} depots` : ""} ` +
      `(seed ${options.seed})`,
    node_num: n,
    vehicle_num: vehicles,
    node_positions: positions,
    distance_matrix: [],
    start_nodes: vehicleDepot,
    end_nodes: vehicleDepot,
    node_demands: demands,
    vehicles_capacity: new Array<number>(vehicles).fill(capacity),
    time_limit_seconds: options.timeLimitSeconds,
  };
  if (options.windows) {
    request.node_time_windows = positions.map((_, i) => {
      if (i < depots) return [0, DAY_MINUTES];
      const start = Math.floor(rand() * (DAY_MINUTES - 300)) + 60;
      return [start, start + 60 + Math.floor(rand() * 120)];
    });
    request.node_service_time = positions.map((_, i) => (i < depots ? 0 : 5 + Math.floor(rand() * 11)));
    request.vehicle_speeds = new Array<number>(vehicles).fill(1);
    request.max_working_hours = 11;
  }
  if (options.optional || options.skills || options.shifts) addServiceConstraints(request, options, rand, depots);
  if (options.twoWindows || options.breaks || options.profiles) addTimeFields(request, options, rand, depots);
  addLoadFields(request, options, options.seed);
  return request;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
