/**
 * Tight limited fleets around a strong known plan. A random CVRP in the manner of Uchoa et al.'s
 * X generator (bench/x-like-instance.ts, 50-300 customers) is solved by hgs for a long time; its
 * routes become the known plan, and the fleet is cut to fit exactly those routes: the routes,
 * sorted by load, are split into 2-4 groups, each a vehicle type whose capacity is the largest
 * load among its routes and whose count is the number of its routes (groups of equal capacity
 * merge: a good CVRP's routes are nearly full, so some instances keep a single type). The plan is feasible by construction and,
 * being a long search's result on a looser problem (one capacity above every load), is close to
 * the tightened problem's optimum too, so a gap to it measures quality, not only feasibility.
 *
 * Generating takes a long solve per instance and its outcome depends on the CPU it got, so the
 * generated family is kept in a cache file (bench/instances/strong-tight-fleets-SEED.json): only
 * the generator's arguments, the fleet and the plan; the positions and demands are drawn again.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { compileRequest } from "../src/problem/compile-request.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import type { SettingsOverride } from "../strategies/settings.js";
import { generateXLike } from "./x-like-instance.js";

/** One vehicle type of the tightened fleet: vehicles of a type come together, smallest type first. */
export interface FleetType {
  capacity: number;
  count: number;
  fixed: number;
}

/** What the cache keeps of one instance; everything else is drawn again from `index` and `seed`. */
export interface StrongTightRecord {
  name: string;
  index: number;
  seed: number;
  customers: number;
  types: FleetType[];
  /** The known plan: customers per vehicle, in visiting order, vehicles in the fleet's order. */
  plan: number[][];
  planCost: number;
  /** CPU or wall seconds (as the generating process's clock) the plan's search was given. */
  solveSeconds: number;
}

export interface StrongTightInstance extends StrongTightRecord {
  request: SolveRequestInput;
  /** Total demand / total capacity of the tightened fleet. */
  utilisation: number;
}

export interface GenerateOptions {
  /** Time for the search that finds the plan. */
  seconds: number;
  /** Iterations for that search (tests: a short one). */
  maxIterations?: number;
  /** Customers instead of a draw from 50-300 (tests: a tiny instance). */
  customers?: number;
  solveSeed?: number;
  settings?: SettingsOverride;
}

function rngFrom(seed: number): { rand: () => number; int: (lo: number, hi: number) => number } {
  let s = seed >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return { rand, int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)) };
}

/** The untightened CVRP (one capacity, spare vehicles) of instance `index`; route sizes 4-16 as X's smaller classes. */
function baseRequest(index: number, seed: number, customers: number): SolveRequestInput {
  return generateXLike(index, seed, customers, [4, 16]).request;
}

/** The customers drawn for instance `index`, and its draws of type count and fixed-cost share. */
function draws(index: number, seed: number): { customers: number; typeCount: number; fixedShare: number } {
  const { int } = rngFrom(seed * 6007 + index * 92_821 + 17);
  return { customers: int(50, 300), typeCount: int(2, 4), fixedShare: [0, 0.2, 0.5][int(0, 2)]! };
}

/** The request of a tightened fleet: the base instance's nodes, one vehicle per known route. */
export function tightRequest(record: Omit<StrongTightRecord, "plan" | "planCost" | "solveSeconds">): SolveRequestInput {
  const base = baseRequest(record.index, record.seed, record.customers);
  const fleet = record.types.flatMap((t) => Array.from({ length: t.count }, () => t));
  return {
    ...base,
    name: record.name,
    objective: "min_total_cost",
    vehicle_num: fleet.length,
    start_nodes: fleet.map(() => 0),
    end_nodes: fleet.map(() => 0),
    vehicles_capacity: fleet.map((t) => t.capacity),
    vehicle_fixed_costs: fleet.map((t) => t.fixed),
    vehicle_unit_distance_costs: fleet.map(() => 1),
  };
}

/**
 * Splits routes (sorted by load) into at most `typeCount` contiguous groups at random cuts; a
 * group's capacity is its largest load, and groups whose capacities coincide merge, so types differ.
 */
export function fitFleet(
  routes: number[][],
  demands: readonly number[],
  typeCount: number,
  rand: () => number,
): { types: Omit<FleetType, "fixed">[]; plan: number[][] } {
  const load = (r: number[]) => r.reduce((a, c) => a + demands[c]!, 0);
  const plan = routes.filter((r) => r.length > 0).sort((a, b) => load(a) - load(b));
  // The cuts: the first few of the positions 1 .. length - 1 in a random order (a partial shuffle).
  const positions = Array.from({ length: plan.length - 1 }, (_, i) => i + 1);
  const wanted = Math.min(typeCount, plan.length) - 1;
  for (let k = 0; k < wanted; k++) {
    const j = k + Math.floor(rand() * (positions.length - k));
    [positions[k], positions[j]] = [positions[j]!, positions[k]!];
  }
  const bounds = [0, ...positions.slice(0, wanted).sort((a, b) => a - b), plan.length];
  const types: Omit<FleetType, "fixed">[] = [];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const capacity = load(plan[bounds[g + 1]! - 1]!);
    const count = bounds[g + 1]! - bounds[g]!;
    const last = types[types.length - 1];
    if (last && last.capacity === capacity) last.count += count;
    else types.push({ capacity, count });
  }
  return { types, plan };
}

/** The plan's cost and feasibility, priced by the service's own evaluator. */
export function scorePlan(request: SolveRequestInput, plan: number[][]): { cost: number; feasible: boolean } {
  const { problem } = compileRequest(request);
  const score = evaluateSolution(problem, { routes: plan });
  return { cost: score.cost, feasible: score.feasible };
}

/** Instance `index` of family `seed`: solves the base CVRP with hgs, then tightens the fleet to its routes. */
export function generateStrongTight(index: number, seed: number, options: GenerateOptions): StrongTightInstance {
  const drawn = draws(index, seed);
  const customers = options.customers ?? drawn.customers;
  const base = baseRequest(index, seed, customers);
  const name = `strong-${String(index + 1).padStart(2, "0")}`;
  const outcome = solveRequest(base, {
    requestId: name,
    timeLimitSeconds: options.seconds,
    seed: options.solveSeed ?? 1,
    strategy: "hgs",
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
  });
  if (outcome.status !== "solved") throw new Error(`${name}: the base instance was not solved: ${outcome.error}`);
  const routes = Object.values(outcome.result.routes).map((nodes) => nodes.filter((c) => c !== 0));
  const { rand } = rngFrom(seed * 31 + index * 7 + 3);
  const fitted = fitFleet(routes, base.node_demands!, drawn.typeCount, rand);
  // Larger vehicles cost more to use: a share of the mean route length, in proportion to capacity.
  const meanRoute = outcome.result.total_distance / fitted.plan.length;
  const largest = fitted.types[fitted.types.length - 1]!.capacity;
  const types = fitted.types.map((t) => ({ ...t, fixed: Math.round((drawn.fixedShare * meanRoute * t.capacity) / largest) }));
  const record = { name, index, seed, customers, types, plan: fitted.plan, planCost: 0, solveSeconds: options.seconds };
  return withRequest({ ...record, planCost: scorePlan(tightRequest(record), fitted.plan).cost });
}

/** A record with its request rebuilt, after checking that the plan still fits and costs what was stored. */
export function withRequest(record: StrongTightRecord): StrongTightInstance {
  const request = tightRequest(record);
  const { cost, feasible } = scorePlan(request, record.plan);
  if (!feasible || Math.abs(cost - record.planCost) > 1e-6 * Math.max(1, cost)) {
    throw new Error(`${record.name}: the stored plan is ${feasible ? `priced ${cost}, not ${record.planCost}` : "infeasible"}`);
  }
  const demand = request.node_demands!.reduce((a, b) => a + b, 0);
  const capacity = request.vehicles_capacity.reduce((a, b) => a + b, 0);
  return { ...record, request, utilisation: demand / capacity };
}

/** The cache file's records (none when it does not exist). */
export function readCache(path: string): StrongTightRecord[] {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as { instances: StrongTightRecord[] }).instances : [];
}

/** Writes the records one per line, so the file stays small and reviewable. */
export function writeCache(path: string, records: readonly StrongTightRecord[]): void {
  const sorted = [...records].sort((a, b) => a.index - b.index);
  writeFileSync(path, `{"instances": [\n${sorted.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`);
}

/**
 * The first `count` instances of family `seed`: from the cache, generating (and caching, one by
 * one, so an interrupted run keeps what it made) the ones it lacks.
 */
export function strongTightFamily(
  path: string,
  count: number,
  seed: number,
  options: GenerateOptions,
  log: (line: string) => void,
): StrongTightInstance[] {
  const records = readCache(path).filter((r) => r.seed === seed);
  const out: StrongTightInstance[] = [];
  for (let index = 0; index < count; index++) {
    const cached = records.find((r) => r.index === index);
    if (cached) {
      out.push(withRequest(cached));
      continue;
    }
    const started = performance.now();
    const instance = generateStrongTight(index, seed, options);
    const { request: _request, utilisation: _utilisation, ...record } = instance;
    records.push(record);
    writeCache(path, records);
    log(`generated ${instance.name} (${instance.customers} customers) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    out.push(instance);
  }
  return out;
}

/**
 * The same instance with spare vehicles: more vehicles of its own types (drawn in proportion to
 * their counts) until the fleet's capacity is about demand / `utilisation`. The known plan stays
 * feasible at the same cost, but the search must now choose its vehicles, as on a real fleet that
 * is limited but not cut to one plan; a gap below 0 means it found a cheaper choice.
 */
export function withSpareVehicles(instance: StrongTightInstance, utilisation: number): StrongTightInstance {
  const { rand } = rngFrom(instance.seed * 13 + instance.index * 101 + 5);
  const demand = instance.request.node_demands!.reduce((a, b) => a + b, 0);
  const types = instance.types.map((t) => ({ ...t }));
  const total = types.reduce((a, t) => a + t.count, 0);
  let capacity = types.reduce((a, t) => a + t.capacity * t.count, 0);
  while (capacity < demand / utilisation) {
    let pick = rand() * total;
    const type = types.find((t) => (pick -= t.count) < 0) ?? types[types.length - 1]!;
    type.count++;
    capacity += type.capacity;
  }
  // Vehicles come type by type: the plan's routes keep their type, spares follow each type's own.
  const plan: number[][] = [];
  let next = 0;
  types.forEach((t, k) => {
    const own = instance.types[k]!.count;
    for (let i = 0; i < t.count; i++) plan.push(i < own ? instance.plan[next + i]! : []);
    next += own;
  });
  const record = { ...instance, name: `${instance.name}-spare`, types, plan };
  const { request: _request, utilisation: _utilisation, ...stored } = record;
  return withRequest(stored);
}
