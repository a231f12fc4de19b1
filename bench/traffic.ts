/**
 * Traffic by time of day: on the generated rush-hour problems of traffic-instance.ts,
 * the baseline is the plan found at the day's mean pace without the slots, then timed under the
 * slots by the shared evaluator; ours is the plan found with the slots. Per instance: each plan's
 * late minutes under traffic (hard windows: ours must have none), its distance, and ours against
 * the baseline's distance.
 *
 * With `--from-baseline` ours starts from the baseline's routes (`initial_routes`, repaired by the
 * search under the slots): a diagnosis of whether a plan as short as the baseline's exists under
 * traffic, not a fair comparison (ours then had the baseline's time too). The iterations column
 * gives each search's count in its time.
 *
 * `npm run -s bench -- traffic [--count K] [--first I] [--time S] [--seed N] [--instance-seed N] [--baseline mean|free]`
 * `[--from-baseline]` (default time: the protocol's, 10 s up to 200 customers)
 */
import { parseArgs } from "node:util";
import { compileRequest } from "../src/problem/compile-request.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { benchSettings } from "./settings-env.js";
import { trafficInstance } from "./traffic-instance.js";

const { values } = parseArgs({
  args: process.argv.slice(process.argv[2] === "traffic" ? 3 : 2),
  options: {
    count: { type: "string", default: "8" },
    first: { type: "string", default: "0" },
    time: { type: "string" },
    seed: { type: "string", default: "1" },
    "instance-seed": { type: "string", default: "2026" },
    // The baseline's pace: the day's mean (the issue's), or free flow (the pace outside the rush hours).
    baseline: { type: "string", default: "mean" },
    "from-baseline": { type: "boolean", default: false },
  },
});

/** The customers of each vehicle's route in an answer, depots left out. */
function customerRoutes(result: { routes: Record<string, number[]> }, vehicles: number, depots: Set<number>): number[][] {
  const routes: number[][] = Array.from({ length: vehicles }, () => []);
  for (const [label, nodes] of Object.entries(result.routes)) {
    const v = Number(/^Vehicle (\d+)$/.exec(label)![1]);
    routes[v] = nodes.filter((node) => !depots.has(node));
  }
  return routes;
}

const seed = Number(values.seed);
const first = Number(values.first);
const instanceSeed = Number(values["instance-seed"]);
if (values.baseline !== "mean" && values.baseline !== "free") throw new Error("--baseline must be mean or free");
console.log(
  `traffic (instance seed ${instanceSeed}, instances ${first}..${first + Number(values.count) - 1}), seed ${seed}, ` +
    `baseline at the ${values.baseline === "free" ? "free-flow" : "day's mean"} pace`,
);
console.log(
  "| instance | baseline late min | baseline late routes | ours late min | baseline distance | ours distance | ours vs baseline % | " +
    "iterations baseline / ours |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
let baselineLate = 0;
let oursLate = 0;
let infeasible = 0;
let baselineFailed = 0;
let baseTotal = 0;
let ourTotal = 0;
const ratios: number[] = [];
for (let i = first; i < first + Number(values.count); i++) {
  const instance = trafficInstance(i, instanceSeed);
  const customers = instance.request.node_num - 1;
  const seconds = values.time ? Number(values.time) : customers <= 200 ? 10 : 30;
  const p = compileRequest(instance.request).problem;
  const depots = new Set([0]);
  const timed = (routes: number[][]) => evaluateSolution(p, { routes });
  const plan = values.baseline === "free" ? instance.freeFlow : instance.meanSpeed;
  const baseStats = { iterations: 0 };
  const ourStats = { iterations: 0 };
  const base = solveRequest(plan, {
    settings: benchSettings,
    requestId: `${instance.name}-mean`,
    timeLimitSeconds: seconds,
    seed,
    stats: baseStats,
  });
  const start =
    values["from-baseline"] && base.status === "solved" ? { initial_routes: customerRoutes(base.result, p.vehicleCount, depots) } : {};
  const ours = solveRequest(
    { ...instance.request, ...start },
    { settings: benchSettings, requestId: instance.name, timeLimitSeconds: seconds, seed, stats: ourStats },
  );
  const ourScore = ours.status === "solved" ? timed(customerRoutes(ours.result, p.vehicleCount, depots)) : null;
  if (!ourScore?.feasible) infeasible++;
  if (base.status !== "solved" || ourScore === null) {
    // A planner on the wrong pace may find no plan at all (or ours none): nothing to compare.
    const mine = ourScore === null ? ours.status : `${ourScore.lateMinutes.toFixed(1)}`;
    console.log(`| ${instance.name} | ${base.status} | | ${mine} | | ${ourScore?.distance.toFixed(1) ?? ""} | |`);
    if (base.status !== "solved") baselineFailed++;
    continue;
  }
  const baseScore = timed(customerRoutes(base.result, p.vehicleCount, depots));
  baseTotal += baseScore.distance;
  ourTotal += ourScore.distance;
  const lateRoutes = baseScore.routes.reduce((sum, r) => sum + (r.lateMinutes > 0 ? 1 : 0), 0);
  baselineLate += baseScore.lateMinutes;
  oursLate += ourScore.lateMinutes;
  const ratio = (100 * (ourScore.distance - baseScore.distance)) / baseScore.distance;
  ratios.push(ratio);
  console.log(
    `| ${instance.name} | ${baseScore.lateMinutes.toFixed(1)} | ${lateRoutes} | ${ourScore.lateMinutes.toFixed(1)} | ` +
      `${baseScore.distance.toFixed(1)} | ${ourScore.distance.toFixed(1)} | ${ratio >= 0 ? "+" : ""}${ratio.toFixed(2)} | ` +
      `${baseStats.iterations} / ${ourStats.iterations} |`,
  );
}
const sorted = [...ratios].sort((a, b) => a - b);
const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : NaN;
const mean = ratios.length ? ratios.reduce((a, b) => a + b, 0) / ratios.length : NaN;
console.log(
  `\nlate minutes under traffic: baseline ${baselineLate.toFixed(1)}, ours ${oursLate.toFixed(1)} ` +
    `(${baselineLate > 0 ? (100 * (1 - oursLate / baselineLate)).toFixed(1) : "-"}% lower); ` +
    `ours infeasible under traffic on ${infeasible} of ${values.count}; ` +
    `distance ours vs baseline: median ${median.toFixed(2)}%, mean ${mean.toFixed(2)}%, ` +
    `total ${((100 * (ourTotal - baseTotal)) / baseTotal).toFixed(2)}%; the baseline found no plan on ${baselineFailed}`,
);
