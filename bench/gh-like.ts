/**
 * Random VRPTWs in the manner of Gehring and Homberger (1999)'s extension of Solomon's
 * generator, to compare searches on binding windows above 200 customers without touching the
 * shared GH sets: n customers (400, 600, 800 or 1,000) on a square of side n / 2 with the depot
 * in its centre; classes C (clusters of about ten customers), R (uniform) and RC (half of each);
 * type 1 (short horizon, capacity 200: short routes) and type 2 (long horizon, capacity 700 for C
 * and 1,000 for R/RC: long routes); demands 10-40 in tens (C) or 1-50 (R/RC), service 90 (C) or
 * 10 minutes; a share of 25, 50, 75 or 100% of the customers get a window, whose centre is drawn
 * where a vehicle leaving the depot at 0 can serve it and get back before the horizon, half-width
 * 5 to side/10 minutes (type 1) or side/4 to side (type 2); the others are open all day. Horizons
 * and capacities follow the published instances (e.g. R1 600: side 300, horizon 1,206; C2 400:
 * side 200, horizon 3,693); unlike Solomon's C classes, clustered windows are not built around a
 * known routing. Distances and travel minutes are Euclidean truncated to one decimal (the GH
 * convention, speed 1), K = n / 4 vehicles. There is no best known: the table gives each
 * strategy's cost, to compare runs of the same seed.
 *
 * `node --import tsx bench/gh-like.ts [--time S] [--seed N] [--count K] [--strategy NAME] [--instance-seed N]`
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { benchSettings } from "./settings-env.js";

const SIZES = [400, 600, 800, 1000];
const CLASSES = ["C", "R", "RC"] as const;

/**
 * `sizes`: the customer counts to draw from (the large-VRPTW bench, tw-large.ts, passes one of
 * 1,500-2,500); `sideOf`: the square's side for a count (Solomon's 100-customer instances keep
 * the 100 x 100 square of the 200-customer ones, mt-like.ts).
 */
export function ghLike(
  index: number,
  seedBase: number,
  sizes: readonly number[] = SIZES,
  sideOf: (customers: number) => number = (customers) => customers / 2,
): { name: string; request: SolveRequestInput } {
  let s = (seedBase * 7919 + index * 104_729) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const customers = sizes[int(0, sizes.length - 1)]!;
  // Every class and type in turn, so that a handful of instances covers them all.
  const kind = CLASSES[index % 3]!;
  const type = 1 + (Math.floor(index / 3) % 2);
  const side = sideOf(customers);
  const positions: [number, number][] = [[side / 2, side / 2]];
  const clustered = kind === "C" ? customers : kind === "RC" ? Math.floor(customers / 2) : 0;
  const centres = Array.from({ length: Math.max(1, Math.round(clustered / 10)) }, (): [number, number] => [int(0, side), int(0, side)]);
  for (let c = 0; c < customers; c++) {
    if (c < clustered) {
      const [x, y] = centres[c % centres.length]!;
      const radius = (side / 40) * Math.sqrt(-2 * Math.log(1 - rand()));
      const angle = 2 * Math.PI * rand();
      positions.push([
        Math.min(side, Math.max(0, Math.round(x + radius * Math.cos(angle)))),
        Math.min(side, Math.max(0, Math.round(y + radius * Math.sin(angle)))),
      ]);
    } else positions.push([int(0, side), int(0, side)]);
  }
  const n = positions.length;
  const matrix = positions.map((a) => positions.map((b) => Math.floor(10 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 10));
  const horizon = Math.round(side * (type === 1 ? (kind === "C" ? 5 : 4) : kind === "C" ? 18 : 16));
  const service = kind === "C" ? 90 : 10;
  const capacity = type === 1 ? 200 : kind === "C" ? 700 : 1000;
  const density = [0.25, 0.5, 0.75, 1][int(0, 3)]!;
  const windows: [number, number][] = [[0, horizon]];
  for (let c = 1; c < n; c++) {
    const earliest = matrix[0]![c]!;
    const latest = horizon - matrix[c]![0]! - service;
    if (rand() >= density) {
      windows.push([0, Math.floor(latest)]);
      continue;
    }
    const centre = earliest + rand() * (latest - earliest);
    const half = type === 1 ? 5 + rand() * (side / 10 - 5) : side / 4 + rand() * ((3 * side) / 4);
    windows.push([
      Math.max(0, Math.floor(centre - half)),
      Math.max(Math.ceil(earliest), Math.min(Math.floor(latest), Math.ceil(centre + half))),
    ]);
  }
  const vehicles = Math.ceil(customers / 4);
  return {
    name: `gl${index}-${kind}${type}-n${customers}-d${Math.round(density * 100)}`,
    request: {
      objective: "min_total_distance",
      node_num: n,
      vehicle_num: vehicles,
      distance_matrix: matrix,
      start_nodes: Array(vehicles).fill(0),
      end_nodes: Array(vehicles).fill(0),
      node_demands: positions.map((_, i) => (i === 0 ? 0 : kind === "C" ? 10 * int(1, 4) : int(1, 50))),
      vehicles_capacity: Array(vehicles).fill(capacity),
      node_time_windows: windows,
      node_service_time: positions.map((_, i) => (i === 0 ? 0 : service)),
      vehicle_speeds: Array(vehicles).fill(1),
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Parsed only when run, so that other benches (pc-like.ts) can import the generator.
  const { values } = parseArgs({
    options: {
      time: { type: "string", default: "30" },
      seed: { type: "string", default: "1" },
      count: { type: "string", default: "6" },
      strategy: { type: "string" },
      "instance-seed": { type: "string", default: "2026" },
    },
  });
  const count = Number(values.count);
  console.log(
    `gh-like: ${count} instances (instance seed ${values["instance-seed"]}), ` +
      `strategy ${values.strategy ?? "auto"}, seed ${values.seed}, ${values.time} s`,
  );
  console.log("| instance | cost | routes | strategy | iter/s |");
  console.log("|---|---:|---:|---|---:|");
  for (let i = 0; i < count; i++) {
    const { name, request } = ghLike(i, Number(values["instance-seed"]));
    const stats = { iterations: 0 };
    const started = performance.now();
    const outcome = solveRequest(request, {
      settings: benchSettings,
      requestId: name,
      timeLimitSeconds: Number(values.time),
      seed: Number(values.seed),
      stats,
      ...(values.strategy ? { strategy: values.strategy } : {}),
    });
    const took = (performance.now() - started) / 1000;
    const cost = outcome.status === "solved" ? outcome.result.total_cost.toFixed(1) : "infeasible";
    const routes = outcome.status === "solved" ? Object.keys(outcome.result.routes).length : "-";
    const strategy = outcome.status === "solved" ? outcome.result.strategy : (outcome.strategy ?? "-");
    console.log(`| ${name} | ${cost} | ${routes} | ${strategy} | ${Math.round(stats.iterations / took)} |`);
  }
}
