/**
 * Random CVRPs in the manner of Uchoa et al. (2017)'s X generator, to compare searches on sizes
 * above the shared X set without touching the hold-out instances (bench/instances/): a 1000 x
 * 1000 grid, depot central, eccentric or random, customers random, clustered or half of each,
 * demands unitary, small, large or many-small-few-large, capacity from a mean route size of 3 to
 * 25 customers, k = ceil(total demand / capacity) + 3 vehicles, rounded Euclidean distances.
 * There is no best known: the table gives each strategy's cost, to compare runs of the same seed.
 *
 * `node --import tsx bench/x-like.ts [--time S] [--seed N] [--count K] [--strategy NAME] [--instance-seed N] [--customers N]`
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";

const { values } = parseArgs({
  options: {
    time: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
    count: { type: "string", default: "6" },
    strategy: { type: "string" },
    "instance-seed": { type: "string", default: "2026" },
    /** A fixed number of customers for every instance (default: each drawn from 301-1,000). */
    customers: { type: "string" },
  },
});

function generate(index: number, seedBase: number): { name: string; request: SolveRequestInput } {
  let s = (seedBase * 7919 + index * 104_729) >>> 0 || 1;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const drawn = int(301, 1000);
  const customers = values.customers ? Number(values.customers) : drawn;
  const depotKind = ["C", "E", "R"][int(0, 2)]!;
  const placement = ["R", "C", "RC"][int(0, 2)]!;
  const demandKind = ["U", "S", "L", "M"][int(0, 3)]!;
  const routeSize = int(3, 25);
  const depot: [number, number] = depotKind === "C" ? [500, 500] : depotKind === "E" ? [0, 0] : [int(0, 1000), int(0, 1000)];
  const positions: [number, number][] = [depot];
  const seeds: [number, number][] = Array.from({ length: int(3, 8) }, () => [int(0, 1000), int(0, 1000)]);
  const clustered = placement === "C" ? customers : placement === "RC" ? Math.floor(customers / 2) : 0;
  for (let c = 0; c < customers; c++) {
    if (c < clustered) {
      // Around a random seed, at an exponentially distributed distance (Uchoa's attraction decay).
      const [x, y] = seeds[int(0, seeds.length - 1)]!;
      const radius = -40 * Math.log(1 - rand());
      const angle = 2 * Math.PI * rand();
      positions.push([Math.min(1000, Math.max(0, Math.round(x + radius * Math.cos(angle)))), Math.min(1000, Math.max(0, Math.round(y + radius * Math.sin(angle))))]);
    } else positions.push([int(0, 1000), int(0, 1000)]);
  }
  const demands = positions.map((_, i) => {
    if (i === 0) return 0;
    if (demandKind === "U") return 1;
    if (demandKind === "S") return int(1, 10);
    if (demandKind === "L") return int(5, 100);
    return rand() < 0.8 ? int(1, 10) : int(50, 100);
  });
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity = Math.max(Math.max(...demands), Math.ceil((routeSize * total) / customers));
  const vehicles = Math.ceil(total / capacity) + 3;
  const n = positions.length;
  const name = `xl${index}-n${n}-${depotKind}${placement}${demandKind}-r${routeSize}`;
  return {
    name,
    request: {
      objective: "min_total_distance",
      node_num: n,
      vehicle_num: vehicles,
      distance_matrix: positions.map((a) => positions.map((b) => Math.round(Math.hypot(a[0] - b[0], a[1] - b[1])))),
      start_nodes: Array(vehicles).fill(0),
      end_nodes: Array(vehicles).fill(0),
      node_demands: demands,
      vehicles_capacity: Array(vehicles).fill(capacity),
    },
  };
}

const count = Number(values.count);
console.log(`x-like: ${count} instances (instance seed ${values["instance-seed"]}), strategy ${values.strategy ?? "auto"}, seed ${values.seed}, ${values.time} s`);
console.log("| instance | cost | iter/s |");
console.log("|---|---:|---:|");
for (let i = 0; i < count; i++) {
  const { name, request } = generate(i, Number(values["instance-seed"]));
  const stats = { iterations: 0 };
  const started = performance.now();
  const outcome = solveRequest(request, { requestId: name, timeLimitSeconds: Number(values.time), seed: Number(values.seed), stats, ...(values.strategy ? { strategy: values.strategy } : {}) });
  const took = (performance.now() - started) / 1000;
  const cost = outcome.status === "solved" ? outcome.result.total_cost.toFixed(0) : "infeasible";
  console.log(`| ${name} | ${cost} | ${Math.round(stats.iterations / took)} |`);
}
