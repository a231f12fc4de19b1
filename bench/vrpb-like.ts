/**
 * Backhaul instances not in ../shared, to check VRPB results on problems nobody tuned for: X-like
 * CVRPs (x-like-instance.ts) in the manner of the VRPB X instances (Queiroga et al. 2020), where
 * a share of the customers (50, 66 or 80%, by index) stay linehauls and the others become
 * backhauls whose demand is picked up (node_pickups), with pickups_after_deliveries. The fleet is
 * enough for the larger of the two totals plus 3 vehicles. No best known: the table gives the
 * cost, to compare versions on the same seed.
 *
 * `node --import tsx bench/vrpb-like.ts [--time S] [--seed N] [--count K] [--indices I,J,...]
 * [--instance-seed N] [--customers N] [--route-size LO-HI] [--strategy NAME]`
 * `--route-size 8-16`: long routes (the X route-size class drawn from 8..16 instead of 3..25,
 * so about 10-30 customers a route once split into deliveries and pickups); without it the
 * instances are exactly the default ones. `--indices`: only these instance indices.
 */
import { parseArgs } from "node:util";
import { solveRequest } from "../src/problem/solve-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { generateXLike } from "./x-like-instance.js";
import { solverClockIsCpu } from "../strategies/core/clock.js";
import { benchSettings } from "./settings-env.js";

const { values } = parseArgs({
  options: {
    time: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
    count: { type: "string", default: "6" },
    strategy: { type: "string" },
    "instance-seed": { type: "string", default: "2027" },
    customers: { type: "string" },
    indices: { type: "string" },
    "route-size": { type: "string" },
  },
});

const LINEHAUL_SHARES = [0.5, 0.66, 0.8];

/** The X-like request with every customer past the linehaul share (a random draw per customer) turned into a backhaul. */
function backhaulRequest(
  index: number,
  seedBase: number,
  fixedCustomers?: number,
  routeSizes?: readonly [number, number],
): { name: string; request: SolveRequestInput } {
  const { name, request } = generateXLike(index, seedBase, fixedCustomers, routeSizes);
  const share = LINEHAUL_SHARES[index % LINEHAUL_SHARES.length]!;
  let s = seedBase * 7919 + index;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const demands = request.node_demands!.slice();
  const pickups = new Array<number>(demands.length).fill(0);
  for (let i = 1; i < demands.length; i++) {
    if (rand() < share) continue;
    pickups[i] = demands[i]!;
    demands[i] = 0;
  }
  const capacity = request.vehicles_capacity![0]!;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const vehicles = Math.ceil(Math.max(sum(demands), sum(pickups)) / capacity) + 3;
  const out = {
    ...request,
    vehicle_num: vehicles,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    vehicles_capacity: Array(vehicles).fill(capacity),
    node_demands: demands,
    node_pickups: pickups,
    pickups_after_deliveries: true,
  } as SolveRequestInput;
  return { name: `${name}-b${Math.round(share * 100)}`, request: out };
}

const count = Number(values.count);
const indices = values.indices ? values.indices.split(",").map(Number) : Array.from({ length: count }, (_, i) => i);
const routeSizes = values["route-size"] ? (values["route-size"].split("-").map(Number) as [number, number]) : undefined;
console.log(
  `vrpb-like: ${indices.length} instances (instance seed ${values["instance-seed"]}` +
    `${routeSizes ? `, route sizes ${routeSizes.join("-")}` : ""}), strategy ` +
    `${values.strategy ?? "auto"}, seed ${values.seed}, ${values.time} s` +
    `${solverClockIsCpu() ? " (CPU seconds)" : ""}`,
);
console.log("| instance | customers | customers a route | cost | feasible | iter/s |");
console.log("|---|---:|---:|---:|---|---:|");
for (const i of indices) {
  const { name, request } = backhaulRequest(
    i,
    Number(values["instance-seed"]),
    values.customers ? Number(values.customers) : undefined,
    routeSizes,
  );
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
  const solved = outcome.status === "solved";
  const cost = solved ? outcome.result.total_cost.toFixed(0) : "-";
  const used = solved ? Object.keys(outcome.result.routes).length : 0;
  const perRoute = used > 0 ? ((request.node_num - 1) / used).toFixed(1) : "-";
  console.log(
    `| ${name} | ${request.node_num - 1} | ${perRoute} | ${cost} | ${solved ? "yes" : "no"} | ${Math.round(stats.iterations / took)} |`,
  );
}
