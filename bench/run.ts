/**
 * Solver benchmark on public instances: `npm run bench -- --set NAME [--time S] [--strategy NAME]
 * [--seed N] [--limit K] [--only NAME,...] [--iterations] [--cpu]`. Per instance: best known, ours
 * (re-scored by the evaluator), gap, time, and with --iterations the strategy's iterations per
 * second; per set: feasible count, mean and max gap. Protocol default: 10 s up to 200 customers,
 * 30 s above; XXL 60 s up to 10,000 customers, 120 s above. `--set X-large`: the hold-out X
 * instances of bench/instances/ (a check only). `npm run bench -- pipeline`: see bench/pipeline.ts.
 * On a busy machine, `SOLVER_CLOCK=cpu npm run bench -- ...` counts each time limit in this
 * process's CPU seconds instead of wall seconds (strategies/core/clock.ts); the header says so.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { solveRequest } from "../src/problem/solve-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { vrplibRequest } from "./vrplib.js";
import { solverClockIsCpu } from "../strategies/core/clock.js";
import { benchSettings } from "./settings-env.js";

interface ManifestEntry {
  name: string;
  set: string;
  n_customers: number;
  bks: number;
  request?: string;
  /** The raw instance file; local hold-out instances (bench/instances/, no `request`) are converted from it when run. */
  raw?: string;
  vehicles?: number;
  /** Routes of the best known solution, when the manifest records them. */
  bks_routes?: number;
  /**
   * What `bks` measures: `distance` (also the default), `hierarchical`, `cost`, or
   * `distance_plus_penalties` (PCVRPTW: distance plus the skip penalties of unserved clients,
   * which the result's `total_cost` includes, constraints.md).
   */
  bks_objective?: string;
}

// `npm run bench -- pipeline`: the service pipeline's speed for tiny tasks (bench/pipeline.ts).
if (process.argv[2] === "pipeline") {
  await import("./pipeline.js");
  process.exit(process.exitCode ?? 0);
}

const { values } = parseArgs({
  options: {
    set: { type: "string" },
    time: { type: "string" },
    strategy: { type: "string" },
    seed: { type: "string", default: "1" },
    limit: { type: "string" },
    only: { type: "string" },
    iterations: { type: "boolean", default: false },
    // Adds the CPU seconds this process spent on each instance: on a shared machine the wall-clock
    // protocol gives a solve only part of a core, and this says how much.
    cpu: { type: "boolean", default: false },
    // Turns the set's hard windows into soft ones at this price per late minute (the best known
    // is then the hard-window one, an upper bound on the soft optimum): compares strategies.
    "late-penalty": { type: "string" },
  },
});
const benchDir = process.env.BENCH_DIR ?? resolve(fileURLToPath(new URL("../", import.meta.url)), "../shared/benchmarks");
const localDir = fileURLToPath(new URL("./instances/", import.meta.url));
const manifest = [
  ...(JSON.parse(readFileSync(join(benchDir, "manifest.json"), "utf8")) as ManifestEntry[]),
  ...(JSON.parse(readFileSync(join(localDir, "manifest.json"), "utf8")) as ManifestEntry[]),
];
const sets = [...new Set(manifest.map((e) => e.set))];
if (!values.set || !sets.includes(values.set)) {
  process.stderr.write(`usage: npm run bench -- --set NAME [--time S] [--strategy NAME] [--seed N] [--limit K] [--only NAME,...] [--iterations] [--cpu] [--late-penalty P]\nsets: ${sets.join(", ")}\n`);
  process.exit(2);
}
const only = values.only ? new Set(values.only.split(",")) : null;
const entries = manifest
  .filter((e) => e.set === values.set && (!only || only.has(e.name)))
  .slice(0, values.limit ? Number(values.limit) : undefined);

/** Default time per instance: issue 3's protocol, and XXL's (60 s up to 10,000 customers, 120 s above). */
function protocolSeconds(entry: ManifestEntry): number {
  if (entry.set === "XXL") return entry.n_customers <= 10_000 ? 60 : 120;
  return entry.n_customers <= 200 ? 10 : 30;
}

const pad = (s: string | number, w: number) => String(s).padStart(w);
console.log(`set ${values.set}: ${entries.length} instances, strategy ${values.strategy ?? "auto"}, seed ${values.seed}, time ${values.time ?? "protocol (10 s <= 200 customers, 30 s above; XXL 60 s <= 10,000, 120 s above)"}${solverClockIsCpu() ? ", counted in CPU seconds (SOLVER_CLOCK=cpu)" : ""}`);
// --iterations adds the strategy's iterations per second (search speed, for profiling).
const iterHead = (values.iterations ? " iter/s |" : "") + (values.cpu ? " cpu s |" : "");
// Vehicles used by our solution (the best known solution's in brackets): PDPTW's best known
// solutions minimise vehicles first, the requests distance only, so the two go together.
// Prize-collecting sets: the gap is on total_cost, skip penalties of unserved clients included;
// the served count is shown beside it.
const prizes = entries.some((e) => e.bks_objective === "distance_plus_penalties");
if (prizes) console.log("objective distance_plus_penalties: total_cost = distance + skip_penalty_total; served = clients on a route");
console.log(`| instance | customers | best known | ours | gap % | time s | strategy |${iterHead}${prizes ? " served |" : ""} vehicles (bks) |`);
console.log(`|---|---:|---:|---:|---:|---:|---|${values.iterations ? "---:|" : ""}${values.cpu ? "---:|" : ""}${prizes ? "---:|" : ""}---:|`);
const gaps: number[] = [];
let feasible = 0;
for (const entry of entries) {
  // Shared entries carry a ready request (and also name their raw file); local hold-out ones only the raw file.
  const request = entry.request
    ? (JSON.parse(readFileSync(join(benchDir, entry.request), "utf8")) as SolveRequestInput)
    : vrplibRequest(join(localDir, entry.raw!), entry.name, entry.vehicles!);
  if (values["late-penalty"]) request.late_penalty_per_min = Number(values["late-penalty"]);
  const seconds = values.time ? Number(values.time) : protocolSeconds(entry);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const stats = { iterations: 0 };
  const outcome = solveRequest(request, { settings: benchSettings, requestId: entry.name, timeLimitSeconds: seconds, seed: Number(values.seed), stats, ...(values.strategy ? { strategy: values.strategy } : {}) });
  const took = (performance.now() - started) / 1000;
  const cpuUsed = process.cpuUsage(cpuBefore);
  const iterCell = (values.iterations ? ` ${pad(Math.round(stats.iterations / took), 6)} |` : "") + (values.cpu ? ` ${pad(((cpuUsed.user + cpuUsed.system) / 1e6).toFixed(1), 5)} |` : "");
  if (outcome.status === "solved") {
    feasible++;
    const gap = (100 * (outcome.result.total_cost - entry.bks)) / entry.bks;
    gaps.push(gap);
    const used = Object.keys(outcome.result.routes).length;
    // Each used route lists its start node, its customers and its end node.
    const served = Object.values(outcome.result.routes).reduce((sum, nodes) => sum + Math.max(0, nodes.length - 2), 0);
    const servedCell = prizes ? ` ${pad(served, 5)} |` : "";
    console.log(`| ${entry.name} | ${pad(entry.n_customers, 4)} | ${pad(entry.bks, 9)} | ${pad(outcome.result.total_cost.toFixed(2), 10)} | ${pad(gap.toFixed(2), 6)} | ${pad(took.toFixed(1), 5)} | ${outcome.result.strategy} |${iterCell}${servedCell} ${used} (${entry.bks_routes ?? "-"}) |`);
  } else {
    console.log(`| ${entry.name} | ${pad(entry.n_customers, 4)} | ${pad(entry.bks, 9)} | infeasible | - | ${pad(took.toFixed(1), 5)} | ${outcome.strategy ?? "-"} |${iterCell}${prizes ? " - |" : ""} - (${entry.bks_routes ?? "-"}) |`);
  }
}
const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
const sorted = [...gaps].sort((a, b) => a - b);
const median = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
console.log(`\nset ${values.set}: feasible ${feasible}/${entries.length}, mean gap ${mean.toFixed(2)}%, median gap ${median.toFixed(2)}%, max gap ${(sorted[sorted.length - 1] ?? 0).toFixed(2)}%`);
