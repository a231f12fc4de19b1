/**
 * Random site-dependent VRPTWs in the manner of Cordeau and Laporte (2001)'s SDVRPTW set, to check
 * the search on skills without touching the shared SDVRPTW requests: n customers (100, 200 or
 * 300) uniform on a square of side 200 with the depot in its centre; G = 4 to 6 vehicle groups,
 * each with its own capacity (100 + 25 k for a random k in 0..6) and its own skill set; a quarter of
 * the customers may be served by every group (no skill), the others by one random group or by a
 * random pair (one skill per distinct allowed set, as the shared conversion writes them); demands
 * 1-25, service 1-25 minutes, windows of half-width 30-90 (tight, odd instances) or 60-180 minutes
 * (wide, even ones) centred where a vehicle leaving at 0 can serve the customer and return by the
 * horizon of 1,000; max working hours 450 or 500 minutes; each group gets enough vehicles for about
 * twice the demand it alone may serve plus its share of the rest, and two more (windows and
 * working hours, not capacity, bound the routes: with less some instances had no feasible solution).
 * Distances and travel minutes are Euclidean rounded to 3 decimals (PyVRP's `exact`, as the
 * shared set), objective distance. There is no best known: the table gives the cost, to compare
 * runs of the same seed (e.g. a branch against main).
 *
 * `node --import tsx bench/sd-like.ts [--time S] [--seed N] [--count K] [--instance-seed N]`
 * (time default: the protocol's, 10 s up to 200 customers and 30 s above; SOLVER_CLOCK=cpu counts CPU seconds).
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { solverClockIsCpu } from "../strategies/core/clock.js";
import { benchSettings } from "./settings-env.js";

const SIZES = [100, 200, 300];
const HORIZON = 1000;

export function sdLike(index: number, seedBase: number): { name: string; request: SolveRequestInput } {
  let s = (seedBase * 7919 + index * 104_729) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const customers = SIZES[index % SIZES.length]!;
  const tight = index % 2 === 1;
  const groups = int(4, 6);
  const positions: [number, number][] = [[0, 0]];
  for (let c = 0; c < customers; c++) positions.push([int(-100, 100), int(-100, 100)]);
  const n = positions.length;
  const matrix = positions.map((a) => positions.map((b) => Math.round(1000 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 1000));
  const demands = [0];
  const service = [0];
  const windows: [number, number][] = [[0, HORIZON]];
  // Allowed groups per customer (null: every group).
  const allowed: (number[] | null)[] = [null];
  for (let c = 1; c < n; c++) {
    demands.push(int(1, 25));
    service.push(int(1, 25));
    const out = matrix[0]![c]!;
    const latest = Math.max(out, HORIZON - out - service[c]!);
    const centre = out + rand() * (latest - out);
    const half = tight ? int(30, 90) : int(60, 180);
    windows.push([Math.round(Math.max(0, centre - half)), Math.round(Math.min(HORIZON - out - service[c]!, centre + half))]);
    const kind = rand();
    if (kind < 0.25) allowed.push(null);
    else if (kind < 0.75) allowed.push([int(0, groups - 1)]);
    else {
      const a = int(0, groups - 1);
      allowed.push([a, (a + int(1, groups - 1)) % groups]);
    }
  }
  // One skill per distinct allowed set; each group has the skills of the sets that list it.
  const skillOf = new Map<string, string>();
  const nodeSkills = allowed.map((set) => {
    if (set === null) return null;
    const key = [...set].sort().join(",");
    if (!skillOf.has(key)) skillOf.set(key, `site-${skillOf.size + 1}`);
    return [skillOf.get(key)!];
  });
  const groupSkills = Array.from({ length: groups }, (_, g) =>
    [...skillOf.entries()].filter(([key]) => key.split(",").map(Number).includes(g)).map(([, skill]) => skill),
  );
  const capacities = Array.from({ length: groups }, () => 100 + 25 * int(0, 6));
  const demandOf = new Float64Array(groups);
  let shared = 0;
  for (let c = 1; c < n; c++) {
    const set = allowed[c] ?? null;
    if (set === null) shared += demands[c]!;
    else for (const g of set) demandOf[g] = demandOf[g]! + demands[c]! / set.length;
  }
  const vehicleCapacity: number[] = [];
  const vehicleSkills: string[][] = [];
  for (let g = 0; g < groups; g++) {
    const count = Math.ceil((2 * (demandOf[g]! + shared / groups)) / capacities[g]!) + 2;
    for (let k = 0; k < count; k++) {
      vehicleCapacity.push(capacities[g]!);
      vehicleSkills.push(groupSkills[g]!);
    }
  }
  const m = vehicleCapacity.length;
  const request = {
    name: `SD-like-${customers}-${tight ? "tight" : "wide"}-${index}`,
    objective: "min_total_distance",
    node_num: n,
    vehicle_num: m,
    distance_matrix: matrix,
    start_nodes: new Array(m).fill(0),
    end_nodes: new Array(m).fill(0),
    node_demands: demands,
    vehicles_capacity: vehicleCapacity,
    node_time_windows: windows,
    node_service_time: service,
    vehicle_speeds: new Array(m).fill(1),
    node_skills: nodeSkills,
    vehicle_skills: vehicleSkills,
    max_working_hours: (index % 4 < 2 ? 450 : 500) / 60,
  } as unknown as SolveRequestInput;
  return { name: request.name as string, request };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      time: { type: "string" },
      seed: { type: "string", default: "1" },
      count: { type: "string", default: "6" },
      "instance-seed": { type: "string", default: "2126" },
    },
  });
  console.log(
    `SD-like: ${values.count} instances (instance seed ${values["instance-seed"]}), ` +
      `seed ${values.seed}${solverClockIsCpu() ? ", CPU seconds (SOLVER_CLOCK=cpu)" : ""}`,
  );
  console.log("| instance | customers | vehicles | cost | feasible | routes | time s |");
  console.log("|---|---:|---:|---:|---|---:|---:|");
  for (let i = 0; i < Number(values.count); i++) {
    const { name, request } = sdLike(i, Number(values["instance-seed"]));
    const customers = request.node_num - 1;
    const seconds = values.time ? Number(values.time) : customers <= 200 ? 10 : 30;
    const started = performance.now();
    const outcome = solveRequest(request, {
      settings: benchSettings,
      requestId: name,
      timeLimitSeconds: seconds,
      seed: Number(values.seed),
    });
    const took = ((performance.now() - started) / 1000).toFixed(1);
    if (outcome.status === "solved") {
      console.log(
        `| ${name} | ${customers} | ${request.vehicle_num} | ` +
          `${outcome.result.total_cost.toFixed(2)} | yes | ` +
          `${Object.keys(outcome.result.routes).length} | ${took} |`,
      );
    } else console.log(`| ${name} | ${customers} | ${request.vehicle_num} | - | no (${outcome.status}) | - | ${took} |`);
  }
}
