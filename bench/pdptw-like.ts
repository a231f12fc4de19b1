/**
 * Pickup-and-delivery instances with time windows not in ../shared, to check PDPTW results on
 * problems nobody tuned for, built the way Li and Lim (2001) built theirs from Solomon's: a
 * known feasible routing first, then customers of the same route paired up (the earlier one the
 * pickup). Here the routing is drawn, not solved: n customers (200 or 400) on a square of side
 * n / 2, depot in the centre, classes C (clusters of about ten), R (uniform) and RC (half each);
 * each route leaves the depot at 0 and goes to one of the 4 nearest unvisited customers at random
 * until the horizon (3 x side, 12 x side for C) would be passed. 75% of the customers get a window around the
 * route's arrival time there (half-widths 5 to side / 10 minutes on each side), the others are
 * open until they can still be served; service 10 minutes (90 for C). Pair amounts 10-40; the
 * capacity is 200 or the drawn routing's peak load if larger, so that routing is feasible.
 * A customer left over on a route with an odd count is a plain visit (no load). Euclidean
 * distances from node_positions (the Li and Lim convention), vehicles = drawn routes + 10.
 * No best known: the table gives the drawn routing's cost (an upper bound), the solve's cost and
 * vehicles, its iterations per CPU second and when (CPU s) it found its last new best, to compare
 * versions on the same seed.
 *
 * `--type 2` draws Li and Lim's type 2 instead (long horizon, 30-60 customers a route, wide
 * windows, capacity 700-1000; names pt0...), from other seeds: type 1's instances stay the same.
 *
 * `--sizes 200,400,1000` draws other sizes (instance i has sizes[floor(i / 3) % count] customers;
 * the default 200,400 keeps the instances compared before).
 *
 * `node --import tsx bench/pdptw-like.ts [--time S] [--seed N] [--count K] [--instance-seed N] [--strategy
 * NAME] [--type 1|2] [--only I,J] [--sizes A,B]`
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { solverClockIsCpu } from "../strategies/core/clock.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { Budget } from "../strategies/core/budget.js";
import { benchSettings } from "./settings-env.js";

const SIZES = [200, 400];
const CLASSES = ["C", "R", "RC"] as const;
const NEAREST = 4;
const WINDOW_SHARE = 0.75;
/**
 * Type 1 (Li and Lim's lc1/lr1/lrc1): about ten customers a route (long service under C), windows
 * of half-width 5 to side / 10, capacity 200. Type 2 (lc2/lr2/lrc2): a long horizon, so routes of
 * about 30-60 customers and few vehicles, windows up to half the side wide on each side (200
 * customers), capacity 700 (C) or 1000 (R, RC) as in Li and Lim's type 2 files. Horizons are
 * multiples of the side; with `sizeFree` the horizon and the widest window shrink as 200 / n, so
 * that routes keep about the same number of customers at 400 (drawn routings: 40-50 on average).
 */
const SHAPES = {
  1: { horizonC: 12, horizonR: 3, sizeFree: false, halfWidthDivisor: 10, capacityC: 200, capacityR: 200 },
  2: { horizonC: 48, horizonR: 12, sizeFree: true, halfWidthDivisor: 2, capacityC: 700, capacityR: 1000 },
} as const;
const TYPE2_SEED_OFFSET = 15_485_863;

/** The instance, and the drawn routing it was built around (feasible by construction: a check). */
export function pdptwLike(
  index: number,
  seedBase: number,
  type: 1 | 2 = 1,
  sizes: readonly number[] = SIZES,
): { name: string; request: SolveRequestInput; drawn: number[][] } {
  const shape = SHAPES[type];
  // Type 2 draws from its own seeds (type 1's instances stay the ones compared before).
  let s = (seedBase * 7919 + index * 104_729 + (type === 2 ? TYPE2_SEED_OFFSET : 0)) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const customers = sizes[Math.floor(index / 3) % sizes.length]!;
  const kind = CLASSES[index % 3]!;
  const side = customers / 2;
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
  const dist = (a: number, b: number) => Math.hypot(positions[a]![0] - positions[b]![0], positions[a]![1] - positions[b]![1]);
  const scale = shape.sizeFree ? 200 / customers : 1;
  const horizon = Math.round((kind === "C" ? shape.horizonC : shape.horizonR) * side * scale);
  const service = kind === "C" ? 90 : 10;
  // The drawn routing: arrival times at each customer, routes in visiting order.
  const arrival = new Float64Array(n);
  const routes: number[][] = [];
  const unvisited = new Set(Array.from({ length: customers }, (_, k) => k + 1));
  while (unvisited.size > 0) {
    const route: number[] = [];
    let at = 0;
    let t = 0;
    for (;;) {
      const near = [...unvisited].sort((a, b) => dist(at, a) - dist(at, b) || a - b).slice(0, NEAREST);
      const fits = near.filter((c) => t + dist(at, c) + service + dist(c, 0) <= horizon);
      if (fits.length === 0) break;
      const c = fits[int(0, fits.length - 1)]!;
      arrival[c] = t + dist(at, c);
      t = arrival[c]! + service;
      at = c;
      route.push(c);
      unvisited.delete(c);
    }
    // A customer no route can reach in time (never with this horizon): served alone.
    if (route.length === 0) {
      const c = unvisited.values().next().value!;
      arrival[c] = dist(0, c);
      route.push(c);
      unvisited.delete(c);
    }
    routes.push(route);
  }
  const windows: [number, number][] = [[0, horizon]];
  for (let c = 1; c < n; c++) {
    const latest = Math.max(arrival[c]!, horizon - dist(c, 0) - service);
    if (rand() >= WINDOW_SHARE) windows.push([0, Math.max(Math.ceil(arrival[c]!), Math.floor(latest))]);
    else {
      // side / 10 for type 1 exactly as before (0.1 x side may differ in the last bit).
      const widest = (side * scale) / shape.halfWidthDivisor;
      windows.push([
        Math.max(0, Math.floor(arrival[c]! - (5 + rand() * (widest - 5)))),
        Math.ceil(arrival[c]! + 5 + rand() * (widest - 5)),
      ]);
    }
  }
  // Pairs within each drawn route, the earlier stop the pickup; the capacity covers their peak.
  const shipments: { pickup: number; delivery: number; amount: number }[] = [];
  let peak = 0;
  for (const route of routes) {
    const order = route
      .map((c, k) => [rand(), k] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, k]) => k);
    const change = new Float64Array(route.length);
    for (let k = 0; k + 1 < order.length; k += 2) {
      const [i, j] = [Math.min(order[k]!, order[k + 1]!), Math.max(order[k]!, order[k + 1]!)];
      const amount = int(10, 40);
      shipments.push({ pickup: route[i]!, delivery: route[j]!, amount });
      change[i] = amount;
      change[j] = -amount;
    }
    let onBoard = 0;
    for (const q of change) peak = Math.max(peak, (onBoard += q));
  }
  const vehicles = routes.length + 10;
  const capacity = Math.max(kind === "C" ? shape.capacityC : shape.capacityR, peak);
  return {
    name: `${type === 2 ? "pt" : "pl"}${index}-${kind}-n${customers}`,
    drawn: routes,
    request: {
      objective: "min_total_distance",
      node_num: n,
      vehicle_num: vehicles,
      node_positions: positions,
      distance_matrix: [],
      start_nodes: Array(vehicles).fill(0),
      end_nodes: Array(vehicles).fill(0),
      node_demands: Array(n).fill(0),
      vehicles_capacity: Array(vehicles).fill(capacity),
      node_time_windows: windows,
      node_service_time: positions.map((_, i) => (i === 0 ? 0 : service)),
      vehicle_speeds: Array(vehicles).fill(1),
      shipments,
    } as SolveRequestInput,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      time: { type: "string" },
      seed: { type: "string", default: "1" },
      count: { type: "string", default: "6" },
      strategy: { type: "string" },
      "instance-seed": { type: "string", default: "2027" },
      type: { type: "string", default: "1" },
      only: { type: "string" },
      sizes: { type: "string" },
    },
  });
  const count = Number(values.count);
  console.log(
    `pdptw-like: ${count} instances (instance seed ${values["instance-seed"]}), ` +
      `strategy ${values.strategy ?? "auto"}, seed ${values.seed}, ` +
      `${values.time ?? "protocol (10 s up to 200 customers, 30 s above)"} s` +
      `${solverClockIsCpu() ? " (CPU seconds)" : ""}`,
  );
  console.log("| instance | customers | drawn routing (vehicles) | cost | vehicles | feasible | iter / CPU s | last new best (CPU s) |");
  console.log("|---|---:|---:|---:|---:|---|---:|---:|");
  const type = values.type === "2" ? 2 : 1;
  const only = values.only ? new Set(values.only.split(",").map(Number)) : null;
  for (let i = 0; i < count; i++) {
    if (only && !only.has(i)) continue;
    const { name, request, drawn } = pdptwLike(
      i,
      Number(values["instance-seed"]),
      type,
      values.sizes ? values.sizes.split(",").map(Number) : SIZES,
    );
    const { problem } = compileRequest(request);
    const drawnCost = evaluateSolution(problem, { routes: Array.from({ length: problem.vehicleCount }, (_, v) => drawn[v] ?? []) }).cost;
    const tasks = request.node_num - 1;
    const seconds = values.time ? Number(values.time) : tasks <= 200 ? 10 : 30;
    const stats = { iterations: 0 };
    const cpuBefore = process.cpuUsage();
    const cpuSince = () => {
      const u = process.cpuUsage(cpuBefore);
      return (u.user + u.system) / 1e6;
    };
    // When the search last found a new best: late improvements mean the budget is short.
    let lastBest = 0;
    const observer = { searchStarted: (budget: Budget) => budget.onImprovement(() => (lastBest = cpuSince())) };
    const outcome = solveRequest(request, {
      settings: benchSettings,
      requestId: name,
      timeLimitSeconds: seconds,
      seed: Number(values.seed),
      stats,
      observer,
      ...(values.strategy ? { strategy: values.strategy } : {}),
    });
    const used = process.cpuUsage(cpuBefore);
    const cpu = (used.user + used.system) / 1e6;
    const solved = outcome.status === "solved";
    const cost = solved ? outcome.result.total_cost.toFixed(2) : "-";
    const vehicles = solved ? Object.keys(outcome.result.routes).length : "-";
    console.log(
      `| ${name} | ${tasks} | ${drawnCost.toFixed(2)} (${drawn.length}) | ${cost} | ` +
        `${vehicles} | ${solved ? "yes" : "no"} | ${Math.round(stats.iterations / cpu)} ` +
        `| ${lastBest.toFixed(1)} |`,
    );
  }
}
