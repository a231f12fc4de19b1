/**
 * Re-planning: on shared instances of 200-1,000 customers, solve (`--first-time` s), change 5% of
 * the customers and lock the first third of every route (replan-change.ts), then solve the changed
 * problem twice: cold, from the locked stops only, for `--time` s, and warm, from the previous
 * answer, for a third of that. Reports both costs (warm at or below cold means the warm start
 * reached the cold cost in a third of the time) and the share of the unlocked stops that stay
 * whose vehicle the warm answer changed. `--reassignment-share S` prices a change of vehicle
 * (reassignment_cost) at S times the first answer's cost per customer, as a dispatcher who wants
 * a stop moved only when that saves a share of an average stop's cost; `default` (the default)
 * gives none, so the warm solve takes the service's default for a re-plan with locked stops
 * (src/problem/stability-price.ts), and 0 turns that off; a list (`0,default,0.08`) solves warm
 * once per price from the same first answer and cold solve. Costs are reported
 * without that price, so warm and cold compare on the same objective. Each solve's iterations go
 * to stderr, to tell a slow search from a converged one.
 *
 * `node --import tsx bench/replan.ts [--only NAME,...] [--time S] [--first-time S] [--seed N]
 * [--reassignment-share S[,S...]] [--bench-dir DIR] [--cache FILE] [--generated K]`
 *
 * `--generated K` re-plans K generated instances instead of the shared ones, none of them in
 * `../shared/`: X-like CVRPs of 301-1,000 customers (x-like-instance.ts) and Gehring-Homberger-like
 * VRPTWs of 400-1,000 (gh-like.ts), alternately, the same K for every seed.
 *
 * `--cache FILE` keeps each instance's first answer and cold cost there (by instance, seed and
 * times) and reuses them: two runs that differ only in the warm search then solve the same changed
 * problems against the same cold costs, a paired comparison instead of two clocked first answers.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { solveRequest, type SolvedResultObject } from "../src/problem/solve-request.js";
import { entryRequest, loadBenchmarks } from "./benchmark-folder.js";
import { replanChange, type ReplanChange } from "./replan-change.js";
import { ghLike } from "./gh-like.js";
import { benchSettings } from "./settings-env.js";
import { generateXLike } from "./x-like-instance.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";

const DEFAULT_INSTANCES = [
  "X-n204-k19",
  "X-n251-k28",
  "X-n298-k31",
  "C1_2_1",
  "R1_2_2",
  "RC1_2_1",
  "C2_4_1",
  "R1_6_2",
  "RC2_8_1",
  "C1_10_1",
];

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    time: { type: "string", default: "30" },
    "first-time": { type: "string", default: "10" },
    seed: { type: "string", default: "1" },
    "reassignment-share": { type: "string", default: "default" },
    "bench-dir": { type: "string" },
    cache: { type: "string" },
    generated: { type: "string" },
  },
});
/** The instance family of `--generated`: its own seed base, so that no instance repeats another bench's. */
const GENERATED_SEED_BASE = 37;
const seed = Number(values.seed);
const seconds = Number(values.time);
const generatedCount = values.generated === undefined ? 0 : Number(values.generated);
if (!Number.isInteger(generatedCount) || generatedCount < 0) throw new Error(`bench: --generated '${values.generated}' is not a count`);
const generated = Array.from({ length: generatedCount }, (_, i) =>
  i % 2 === 0 ? generateXLike(i, GENERATED_SEED_BASE) : ghLike(i, GENERATED_SEED_BASE),
);
const benchmarks = generatedCount > 0 ? null : loadBenchmarks(values["bench-dir"]);
const names = values.only ? values.only.split(",") : generatedCount > 0 ? generated.map((g) => g.name) : DEFAULT_INSTANCES;

/** The named instance's request: a generated one, or a shared one from the benchmark folder. */
function requestOf(name: string): SolveRequestInput {
  const made = generated.find((g) => g.name === name);
  if (made) return made.request;
  const entry = benchmarks?.entries.find((e) => e.name === name);
  if (!entry || !benchmarks) throw new Error(`bench: instance ${name} not found (${benchmarks?.lookedFor ?? "--generated"})`);
  return entryRequest(entry, benchmarks);
}

function solve(request: Parameters<typeof solveRequest>[0], name: string, limit: number): SolvedResultObject | string {
  const outcome = solveRequest(request, { settings: benchSettings, requestId: name, timeLimitSeconds: limit, seed });
  return outcome.status === "solved" ? outcome.result : outcome.error;
}

/** Customers per vehicle index from a result's routes ("Vehicle i" -> start, customers..., end). */
function customersOf(result: SolvedResultObject, vehicles: number): number[][] {
  const routes: number[][] = Array.from({ length: vehicles }, () => []);
  for (const [label, nodes] of Object.entries(result.routes)) routes[Number(label.replace("Vehicle ", ""))] = nodes.slice(1, -1);
  return routes;
}

/** What a run keeps of an instance's first answer and cold solve, for another run to reuse. */
interface CachedSolves {
  firstCost: number;
  firstRoutes: number[][];
  coldCost: number;
  coldIterations: number;
}
const cacheFile = values.cache;
const cache: Record<string, CachedSolves> = cacheFile && existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, "utf8")) : {};
const cacheKey = (name: string) => `${name}|seed ${seed}|first ${values["first-time"]}|cold ${seconds}`;

/**
 * An instance's first answer, its change and the cold solve of the change: from the cache when it
 * holds them (the change is rebuilt from the kept first routes), else solved and kept. A string
 * is the table row of a solve that failed.
 */
function firstAndCold(name: string, request: SolveRequestInput): { change: ReplanChange; solves: CachedSolves } | string {
  const cached = cache[cacheKey(name)];
  if (cached) return { change: replanChange(request, cached.firstRoutes, 0.05, seed), solves: cached };
  const first = solve(request, name, Number(values["first-time"]));
  if (typeof first === "string") return `| ${name} | first solve failed: ${first} |`;
  const firstRoutes = customersOf(first, request.vehicle_num);
  const change = replanChange(request, firstRoutes, 0.05, seed);
  const cold = solve(change.cold, `${name}-cold`, seconds);
  if (typeof cold === "string") return `| ${name} | ${change.removed} / ${change.added} | ${change.locked} | ${cold} |`;
  const solves = { firstCost: first.total_cost, firstRoutes, coldCost: cold.total_cost, coldIterations: cold.iterations ?? 0 };
  if (cacheFile) {
    cache[cacheKey(name)] = solves;
    writeFileSync(cacheFile, JSON.stringify(cache));
  }
  return { change, solves };
}

/**
 * Each warm solve's price: a share of the cost per customer, or "default": no reassignment_cost,
 * so the service's own applies (stability-price.ts).
 */
const shares = values["reassignment-share"].split(",").map((share) => (share === "default" ? share : Number(share)));
for (const share of shares)
  if (share !== "default" && (!Number.isFinite(share) || share < 0))
    throw new Error(`bench: --reassignment-share '${share}' is not a share`);

console.log(
  `re-planning: seed ${seed}, first solve ${values["first-time"]} s, cold ${seconds} s, warm ${seconds / 3} s, ` +
    `reassignment cost ${shares.join(" / ")} x cost per customer`,
);
const perShare = shares.map((share) => `warm cost, ${share} | warm - cold %, ${share} | moved %, ${share}`).join(" | ");
console.log(`| instance | removed / added | locked | cold cost | ${perShare} |`);
console.log(`|---|---:|---:|---:|${shares.map(() => "---:|---:|---:|").join("")}`);
const differences: number[][] = shares.map(() => []);
const movedShares: number[][] = shares.map(() => []);
for (const name of names) {
  const request = requestOf(name);
  const prepared = firstAndCold(name, request);
  if (typeof prepared === "string") {
    console.log(prepared);
    continue;
  }
  const { change, solves } = prepared;
  const { firstCost, coldCost, coldIterations } = solves;
  // One first answer and one cold solve for every price: the warm solves differ in the price alone.
  const cells = shares.map((share, k) => {
    const price = share === "default" ? null : (share * firstCost) / Math.max(1, request.node_num - 1);
    const warm = solve(price === null ? change.warm : { ...change.warm, reassignment_cost: price }, `${name}-warm`, seconds / 3);
    if (typeof warm === "string") return `${warm} | | `;
    const after = customersOf(warm, request.vehicle_num);
    let moved = 0;
    after.forEach((route, v) => route.forEach((c) => (change.unlockedVehicle.has(c) && change.unlockedVehicle.get(c) !== v ? moved++ : 0)));
    const warmCost = warm.total_cost - (warm.reassignment_cost_total ?? 0);
    const difference = (100 * (warmCost - coldCost)) / coldCost;
    const movedShare = (100 * moved) / Math.max(1, change.unlockedVehicle.size);
    console.error(`${name}: cold ${coldIterations} iterations, warm (${share}) ${warm.iterations}`);
    differences[k]!.push(difference);
    movedShares[k]!.push(movedShare);
    return `${warmCost.toFixed(1)} | ${difference.toFixed(2)} | ${movedShare.toFixed(1)}`;
  });
  console.log(`| ${name} | ${change.removed} / ${change.added} | ${change.locked} | ${coldCost.toFixed(1)} | ${cells.join(" | ")} |`);
}
/** The median (the mean of the two middle values of an even count). */
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
console.log("");
shares.forEach((share, k) =>
  console.log(
    `price ${share}: warm at or below cold on ${differences[k]!.filter((d) => d <= 1e-9).length} of ${differences[k]!.length}; ` +
      `median warm - cold ${median(differences[k]!).toFixed(2)}%; median moved ${median(movedShares[k]!).toFixed(1)}%`,
  ),
);
