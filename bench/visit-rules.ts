/**
 * Ride-time limits, incompatible goods and same-vehicle groups on generated families, each
 * instance feasible by construction (a witness plan, checked by the evaluator before the solve):
 *
 * - `ride`: every customer in a shipment, amounts 1-10, capacity 40; each shipment's
 *   max_ride_minutes is its direct drive times 1.2 to 2 (at least 5 minutes more), so serving the
 *   delivery right after its pickup always fits; windows as wide as the day, service 5 minutes.
 * - `goods`: deliveries of four goods types (food, bleach, paper, cash; food and cash never with
 *   bleach), demands 1-10, capacity 40; the witness is one bin-packed trip per type.
 * - `groups`: deliveries, half of the customers in disjoint groups of 2-4, demands 1-10, capacity
 *   40; the witness is each group on its own vehicle and the rest one by one.
 *
 * Customers on a square of side 100, depot in the centre, as many vehicles as the witness needs
 * (others free: distance objective). Each instance is solved with the rule and again with its
 * fields removed (same seed, same time), through the service's path (solveRequest); the answer
 * with the rule is judged by the evaluator and by the independent checker (checker/). The table
 * gives per instance both distances and their ratio, then per family the feasible count and the
 * median ratio.
 *
 * `node --import tsx bench/visit-rules.ts [--time S] [--seeds A-B] [--customers N] [--family ride,goods,groups]`
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { compileRequest } from "../src/problem/compile-request.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { checkDistanceResult } from "../checker/check-result.js";

type Family = "ride" | "goods" | "groups";
type Request = SolveRequestInput & Record<string, unknown>;

const SIDE = 100;
const CAPACITY = 40;
const RULE_FIELDS: Record<Family, string[]> = {
  ride: [],
  goods: ["node_load_types", "incompatible_load_types"],
  groups: ["same_vehicle_groups"],
};

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** Customers on the square, depot 0 in the centre. */
function positions(n: number, rand: () => number): number[][] {
  return [[SIDE / 2, SIDE / 2], ...Array.from({ length: n }, () => [Math.round(rand() * SIDE), Math.round(rand() * SIDE)])];
}

/** Bin-packs `items` (customer, amount) into trips of CAPACITY in the given order. */
function pack(items: [number, number][]): number[][] {
  const trips: number[][] = [];
  let load = CAPACITY + 1;
  for (const [c, amount] of items) {
    if (load + amount > CAPACITY) {
      trips.push([]);
      load = 0;
    }
    trips[trips.length - 1]!.push(c);
    load += amount;
  }
  return trips;
}

function base(pos: number[][], demands: number[], vehicles: number): Request {
  const n = pos.length;
  return {
    node_num: n,
    vehicle_num: vehicles,
    node_positions: pos,
    distance_matrix: [],
    start_nodes: Array<number>(vehicles).fill(0),
    end_nodes: Array<number>(vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array<number>(vehicles).fill(CAPACITY),
  } as Request;
}

/** The instance and a feasible witness plan (one route per vehicle). */
export function visitFamily(family: Family, seed: number, customers: number): { request: Request; witness: number[][] } {
  const rand = rng(seed * 7919 + family.length);
  const pos = positions(customers, rand);
  const n = pos.length;
  if (family === "ride") {
    const pairs = Math.floor(customers / 2);
    const shipments = Array.from({ length: pairs }, (_, k) => {
      const pickup = 1 + 2 * k;
      const delivery = pickup + 1;
      const direct = Math.hypot(pos[pickup]![0]! - pos[delivery]![0]!, pos[pickup]![1]! - pos[delivery]![1]!);
      const limit = Math.round(Math.max(direct + 5, direct * (1.2 + 0.8 * rand())));
      return { pickup, delivery, amount: 1 + Math.floor(rand() * 10), max_ride_minutes: limit };
    });
    const witness = pack(shipments.map((s) => [s.pickup, s.amount] as [number, number])).map((trip) =>
      trip.flatMap((pickup) => [pickup, pickup + 1]),
    );
    const request = base(pos, Array<number>(n).fill(0), witness.length + 2);
    Object.assign(request, {
      shipments,
      node_time_windows: Array.from({ length: n }, () => [0, 100_000]),
      node_service_time: [0, ...Array<number>(n - 1).fill(5)],
      vehicle_speeds: Array<number>(request.vehicle_num).fill(1),
    });
    return { request, witness };
  }
  const demands = [0, ...Array.from({ length: customers }, () => 1 + Math.floor(rand() * 10))];
  if (family === "goods") {
    const types = ["food", "bleach", "paper", "cash"];
    const typeOf = [null, ...Array.from({ length: customers }, () => types[Math.floor(rand() * types.length)]!)];
    const witness = types.flatMap((type) =>
      pack(
        typeOf
          .flatMap((t, c) => (t === type ? [[c, demands[c]!] as [number, number]] : []))
          .sort((a, b) => angle(pos, a[0]) - angle(pos, b[0])),
      ),
    );
    const request = base(pos, demands, witness.length + 2);
    Object.assign(request, {
      node_load_types: typeOf,
      incompatible_load_types: [
        ["food", "bleach"],
        ["cash", "bleach"],
      ],
    });
    return { request, witness };
  }
  const groups: number[][] = [];
  const free: number[] = [];
  let c = 1;
  while (c <= customers) {
    const size = 2 + Math.floor(rand() * 3);
    if (rand() < 0.5 && c + size - 1 <= customers) {
      groups.push(Array.from({ length: size }, (_, k) => c + k));
      c += size;
    } else free.push(c++);
  }
  const witness = [...groups.map((g) => g.slice()), ...free.map((x) => [x])];
  const request = base(pos, demands, witness.length);
  request.same_vehicle_groups = groups;
  return { request, witness };
}

function angle(pos: number[][], c: number): number {
  return Math.atan2(pos[c]![1]! - SIDE / 2, pos[c]![0]! - SIDE / 2);
}

function without(family: Family, request: Request): Request {
  const copy = { ...request };
  for (const field of RULE_FIELDS[family]) delete copy[field];
  type Shipment = { pickup: number; delivery: number; amount: number; max_ride_minutes?: number };
  if (family === "ride")
    copy.shipments = (request.shipments as Shipment[]).map(({ pickup, delivery, amount }) => ({ pickup, delivery, amount }));
  return copy as Request;
}

function distanceOf(request: Request, time: number, seed: number): { distance: number; routes: number[][] | null; result: unknown } {
  const outcome = solveRequest(request, { requestId: "visit-rules-bench", timeLimitSeconds: time, seed });
  if (outcome.status !== "solved") return { distance: Number.NaN, routes: null, result: null };
  const result = outcome.result as unknown as { total_cost: number; routes: Record<string, number[]> };
  const routes = Array.from({ length: request.vehicle_num }, (_, v) => (result.routes[`Vehicle ${v}`] ?? [0, 0]).slice(1, -1));
  return { distance: result.total_cost, routes, result };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      time: { type: "string", default: "5" },
      seeds: { type: "string", default: "1-6" },
      customers: { type: "string", default: "60" },
      family: { type: "string", default: "ride,goods,groups" },
    },
  });
  const time = Number(values.time);
  const [from, to] = values.seeds.split("-").map(Number) as [number, number];
  const customers = Number(values.customers);
  console.log(`visit rules: ${customers} customers, seeds ${from}-${to}, ${time} s a solve, solver seed 1`);
  console.log("family  seed  witness ok  with rule  without  ratio   evaluator  checker");
  for (const family of values.family.split(",") as Family[]) {
    const ratios: number[] = [];
    let accepted = 0;
    let instances = 0;
    for (let seed = from; seed <= to; seed++) {
      instances++;
      const { request, witness } = visitFamily(family, seed, customers);
      const p = compileRequest(request).problem;
      const witnessOk = evaluateSolution(p, { routes: Array.from({ length: request.vehicle_num }, (_, v) => witness[v] ?? []) }).feasible;
      const withRule = distanceOf(request, time, 1);
      const plain = distanceOf(without(family, request), time, 1);
      const evaluatorOk = withRule.routes !== null && evaluateSolution(p, { routes: withRule.routes }).feasible;
      let checkerOk = false;
      if (withRule.result) {
        try {
          checkDistanceResult(request as never, withRule.result as never);
          checkerOk = true;
        } catch (error) {
          console.log(`  checker: ${(error as Error).message}`);
        }
      }
      if (evaluatorOk && checkerOk) accepted++;
      const ratio = withRule.distance / plain.distance;
      if (Number.isFinite(ratio)) ratios.push(ratio);
      console.log(
        `${family.padEnd(7)} ${String(seed).padStart(4)}  ${String(witnessOk).padEnd(10)}  ${withRule.distance.toFixed(1).padStart(9)}  ` +
          `${plain.distance.toFixed(1).padStart(7)}  ${ratio.toFixed(3)}  ${String(evaluatorOk).padEnd(9)}  ${checkerOk}`,
      );
    }
    console.log(
      `${family}: ${accepted}/${instances} accepted by the evaluator and the checker, median cost ratio ${median(ratios).toFixed(3)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
