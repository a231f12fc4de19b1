/**
 * Random prize-collecting VRPTWs in the manner of the shared PCVRPTW set (PyVRP/Instances: the
 * Gehring-Homberger files with prizes), to check the search on instances that are not in
 * ../shared: bench/gh-like.ts's generator (GH-like classes C, R, RC, types 1 and 2, 400-1,000
 * customers), every client optional with skip penalty = its prize max(h x demand, 1), h ~
 * U[0.75, 2.25] (rounded to an integer, as PyVRP's prizes are), depot required. `--customers N`
 * keeps the depot and the first N customers (the classical cut of Solomon-25/50: smaller
 * instances), `--no-windows` drops the time dimension (a prize-collecting CVRP). There is no best
 * known: the table gives each run's cost and served clients, to compare runs of the same seed
 * (e.g. HGS_WINDOWS_METHOD=general for hgs's general search instead of its identical-vehicles one).
 *
 * `node --import tsx bench/pc-like.ts [--time S] [--seed N] [--count K] [--from I] [--customers N] [--no-windows] [--instance-seed N]`
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { solverClockIsCpu } from "../strategies/core/clock.js";
import { ghLike } from "./gh-like.js";
import { benchSettings } from "./settings-env.js";

/** The GH-like instance `index` (or `base`) with prizes, cut to `customers` (all when undefined), with or without windows. */
export function pcLike(
  index: number,
  seedBase: number,
  customers?: number,
  windows = true,
  base?: { name: string; request: SolveRequestInput },
): { name: string; request: SolveRequestInput } {
  // `base`: this index and seed's GH-like instance drawn otherwise (pcLongLike's size).
  const { name, request } = base ?? ghLike(index, seedBase);
  const n = customers === undefined ? request.node_num : Math.min(request.node_num, customers + 1);
  const keep = <T>(xs: T[]): T[] => xs.slice(0, n);
  let s = (seedBase * 31 + index * 7) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const demands = keep(request.node_demands!);
  const vehicles = Math.max(2, Math.ceil((n - 1) / 4));
  const out: SolveRequestInput = {
    objective: "min_total_distance",
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: keep(request.distance_matrix!).map((row) => row.slice(0, n)),
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array(vehicles).fill(request.vehicles_capacity![0]!),
    node_skip_penalties: demands.map((q, i) => (i === 0 ? null : Math.max(1, Math.round((0.75 + 1.5 * rand()) * q)))),
  };
  if (windows) {
    out.node_time_windows = keep(request.node_time_windows!);
    out.node_service_time = keep(request.node_service_time!);
    out.vehicle_speeds = Array(vehicles).fill(1);
  }
  return { name: `pc-${name.replace(/-n\d+/, `-n${n - 1}`)}${windows ? "" : "-nowin"}`, request: out };
}

/**
 * The long-route kind of PyVRP's PCVRPTW files (R2_10_2, RC2_10_2): random or half-clustered
 * customers, type 2 (wide windows, long routes), always 1,000 customers, and the files' fleet,
 * just enough vehicles to carry every demand (19 and 18 there) rather than the GH files' 250,
 * which pcLike keeps. Instance `index` alternates R2 and RC2 over distinct GH-like draws; `customers`
 * draws smaller instances of the same kind (shorter runs).
 */
export function pcLongLike(index: number, seedBase: number, customers = 1000): { name: string; request: SolveRequestInput } {
  // ghLike's index picks the class (index mod 3) and the type (index / 3 mod 2): 4 is R2, 5 is RC2.
  const ghIndex = 4 + (index % 2) + 6 * Math.floor(index / 2);
  const drawn = ghLike(ghIndex, seedBase, [customers]);
  const { request: prized } = pcLike(ghIndex, seedBase, undefined, true, drawn);
  const demand = prized.node_demands!.reduce((sum, q) => sum + q, 0);
  const vehicles = Math.ceil(demand / prized.vehicles_capacity![0]!) + 1;
  const fleet = <T>(xs: T[]): T[] => xs.slice(0, 1).flatMap((x) => Array<T>(vehicles).fill(x));
  return {
    name: `pcl-${drawn.name}`,
    request: {
      ...prized,
      vehicle_num: vehicles,
      start_nodes: fleet(prized.start_nodes),
      end_nodes: fleet(prized.end_nodes),
      vehicles_capacity: fleet(prized.vehicles_capacity!),
      vehicle_speeds: fleet(prized.vehicle_speeds!),
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      time: { type: "string", default: "30" },
      seed: { type: "string", default: "1" },
      count: { type: "string", default: "6" },
      from: { type: "string", default: "0" },
      customers: { type: "string" },
      "no-windows": { type: "boolean", default: false },
      strategy: { type: "string" },
      "instance-seed": { type: "string", default: "2121" },
    },
  });
  const count = Number(values.count);
  const from = Number(values.from);
  const customers = values.customers ? Number(values.customers) : undefined;
  const method = process.env.HGS_WINDOWS_METHOD ?? "default";
  console.log(
    `pc-like: ${count} instances from ${from} (instance seed ` +
      `${values["instance-seed"]}), strategy ${values.strategy ?? "auto"}, ` +
      `HGS_WINDOWS_METHOD ${method}, seed ${values.seed}, ${values.time} s` +
      `${solverClockIsCpu() ? " CPU (SOLVER_CLOCK=cpu)" : ""}`,
  );
  console.log("| instance | cost | served | routes | strategy |");
  console.log("|---|---:|---:|---:|---|");
  for (let i = from; i < from + count; i++) {
    const { name, request } = pcLike(i, Number(values["instance-seed"]), customers, !values["no-windows"]);
    const outcome = solveRequest(request, {
      settings: benchSettings,
      requestId: name,
      timeLimitSeconds: Number(values.time),
      seed: Number(values.seed),
      ...(values.strategy ? { strategy: values.strategy } : {}),
    });
    if (outcome.status !== "solved") {
      console.log(`| ${name} | infeasible | - | - | ${outcome.strategy ?? "-"} |`);
      continue;
    }
    const routes = Object.values(outcome.result.routes) as unknown as number[][];
    const served = routes.reduce((sum, r) => sum + Math.max(0, r.length - 2), 0);
    console.log(`| ${name} | ${outcome.result.total_cost.toFixed(1)} | ${served} | ${routes.length} | ${outcome.result.strategy} |`);
  }
}
