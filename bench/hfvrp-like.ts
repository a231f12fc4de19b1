/**
 * Random heterogeneous-fleet instances in the manner of Pessoa et al. (2018)'s HFVRP set built on X:
 * positions and demands of an X-like instance (bench/x-like-instance.ts, 150-400 customers), and
 * 2 to 5 vehicle types whose capacities spread around the X-like capacity (x 0.4 to x 3), fixed
 * costs growing slightly faster than capacity and, depending on the kind, unit distance costs
 * growing more slowly: FSMF (fixed costs, unit cost 1), FSMD (no fixed cost, unit costs),
 * FSMFD (both). The fleet is unlimited in effect: each type has ceil(total demand / capacity) + 2
 * vehicles, so each alone could carry everything. Cost objective, rounded Euclidean distances.
 * There is no best known: compare runs of the same seed (e.g. with and without
 * SOLVER_GENERAL_FOCUS=0).
 *
 * `node --import tsx bench/hfvrp-like.ts [--time S] [--seed N] [--count K] [--instance-seed N]`
 */
import { parseArgs } from "node:util";
import { solveRequest } from "../src/problem/solve-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { generateXLike } from "./x-like-instance.js";
import { benchSettings } from "./settings-env.js";

const KINDS = ["FSMF", "FSMD", "FSMFD"] as const;

/** The X-like instance `index` with a mixed fleet drawn from the same seed. */
export function generateHfvrpLike(index: number, seedBase: number): { name: string; request: SolveRequestInput } {
  let s = (seedBase * 104_723 + index * 7_919 + 17) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const customers = int(150, 400);
  // Route sizes of 4-20 customers at the base capacity: the types then span short and long routes.
  const base = generateXLike(index, seedBase, customers, [4, 20]);
  const demands = base.request.node_demands!;
  const baseCapacity = base.request.vehicles_capacity![0]!;
  const total = demands.reduce((a, b) => a + b, 0);
  const maxDemand = Math.max(...demands);
  const kind = KINDS[int(0, KINDS.length - 1)]!;
  const types = int(2, 5);
  const capacity: number[] = [];
  const fixed: number[] = [];
  const unit: number[] = [];
  for (let t = 0; t < types; t++) {
    // Log-spaced from x 0.4 to x 3 of the base capacity, jittered, never below the largest demand.
    const share = t / (types - 1);
    const cap = Math.max(maxDemand, Math.round(baseCapacity * 0.4 * Math.pow(7.5, share) * (0.9 + 0.2 * rand())));
    const count = Math.ceil(total / cap) + 2;
    const fixedCost = kind === "FSMD" ? 0 : Math.round(8 * Math.pow(cap, 1.05));
    const unitCost = kind === "FSMF" ? 1 : Math.round(100 * Math.pow(cap / baseCapacity, 0.6)) / 100;
    for (let k = 0; k < count; k++) {
      capacity.push(cap);
      fixed.push(fixedCost);
      unit.push(unitCost);
    }
  }
  const vehicles = capacity.length;
  return {
    name: `hf${index}-n${customers}-${kind}-t${types}`,
    request: {
      ...base.request,
      objective: "min_total_cost",
      vehicle_num: vehicles,
      start_nodes: Array(vehicles).fill(0),
      end_nodes: Array(vehicles).fill(0),
      vehicles_capacity: capacity,
      vehicle_fixed_costs: fixed,
      vehicle_unit_distance_costs: unit,
    },
  };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const { values } = parseArgs({
    options: {
      time: { type: "string", default: "30" },
      seed: { type: "string", default: "1" },
      count: { type: "string", default: "6" },
      "instance-seed": { type: "string", default: "2026" },
    },
  });
  const count = Number(values.count);
  console.log(`hfvrp-like: ${count} instances (instance seed ${values["instance-seed"]}), seed ${values.seed}, ${values.time} s`);
  console.log("| instance | cost | vehicles | iter/s |");
  console.log("|---|---:|---:|---:|");
  for (let i = 0; i < count; i++) {
    const { name, request } = generateHfvrpLike(i, Number(values["instance-seed"]));
    const stats = { iterations: 0 };
    const started = process.cpuUsage();
    const outcome = solveRequest(request, {
      settings: benchSettings,
      requestId: name,
      timeLimitSeconds: Number(values.time),
      seed: Number(values.seed),
      stats,
    });
    const used = process.cpuUsage(started);
    const cpu = (used.user + used.system) / 1e6;
    const cost = outcome.status === "solved" ? outcome.result.total_cost.toFixed(0) : "infeasible";
    const routes = outcome.status === "solved" ? Object.keys(outcome.result.routes).length : 0;
    console.log(`| ${name} | ${cost} | ${routes} | ${Math.round(stats.iterations / cpu)} |`);
  }
}
