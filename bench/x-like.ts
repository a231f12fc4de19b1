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
import { solveRequest } from "../src/problem/solve-request.js";
import { generateXLike } from "./x-like-instance.js";
import { benchSettings } from "./settings-env.js";

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

const count = Number(values.count);
console.log(
  `x-like: ${count} instances (instance seed ${values["instance-seed"]}), strategy ` +
    `${values.strategy ?? "auto"}, seed ${values.seed}, ${values.time} s`,
);
console.log("| instance | cost | iter/s |");
console.log("|---|---:|---:|");
for (let i = 0; i < count; i++) {
  const { name, request } = generateXLike(i, Number(values["instance-seed"]), values.customers ? Number(values.customers) : undefined);
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
  const cost = outcome.status === "solved" ? outcome.result.total_cost.toFixed(0) : "infeasible";
  console.log(`| ${name} | ${cost} | ${Math.round(stats.iterations / took)} |`);
}
