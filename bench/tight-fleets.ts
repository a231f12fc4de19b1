/**
 * Feasibility on tight fleets and scale-free prices.
 *
 * `--mode tight` (default): the 20 generated tight limited fleets of tight-fleet-generator.ts
 * (50-300 customers, mixed types with limited counts, 80-95% of the fleet's capacity used, each
 * built around a planted feasible solution); reports solved/20 and the gap to the planted cost.
 *
 * `--mode strong`: the tight limited fleets of strong-tight-fleets.ts, each built around the routes
 * of a long hgs search (a strong known plan), read from bench/instances/strong-tight-fleets-SEED.json
 * (the ones missing are generated first, `--gen-time` seconds each; `--generate-only` stops there);
 * reports solved/N, each gap to the known plan, and the mean, max and count above 5%. `--busy`
 * runs a CPU spinner pinned (taskset) to the first core this process may use, for the whole run:
 * a busy process sharing the solve's core (use the wall clock, not SOLVER_CLOCK=cpu, for that).
 * `--spare 0.84` adds vehicles of each fleet's own types until demand is about 84% of the capacity:
 * the known plan still fits, and the search must choose its vehicles (strong-tight-fleets.ts).
 *
 * `--mode scaled`: 10 shared instances solved as they are, with every distance and cost x 0.001
 * and x 100,000 (time windows, service times and working hours scaled alike, so the problem is
 * the same in other units and its optimum scales exactly); reports each scale's gap to the best
 * known (times the scale), which should agree within noise.
 *
 * `node --import tsx bench/tight-fleets.ts [--mode tight|strong|scaled] [--time S] [--seed N] [--strategy NAME]
 * [--only NAME,...] [--count K] [--instance-seed N] [--scales 1,0.001,100000] [--busy] [--spare SHARE] [--gen-time S]
 * [--generate-only]`
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { tightFleetInstance } from "./tight-fleet-generator.js";
import { strongTightFamily, withSpareVehicles } from "./strong-tight-fleets.js";
import { scaledRequest } from "./scale-request.js";
import { benchSettings } from "./settings-env.js";

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "tight" },
    time: { type: "string" },
    seed: { type: "string", default: "1" },
    strategy: { type: "string" },
    only: { type: "string" },
    count: { type: "string", default: "20" },
    /** Another family of the same kind (the default 2026 is the one BENCHMARKS.md reports). */
    "instance-seed": { type: "string", default: "2026" },
    /** Scaled mode: the scales to run (default 1,0.001,100000). */
    scales: { type: "string", default: "1,0.001,100000" },
    /** Strong mode: a CPU spinner on this process's core while solving. */
    busy: { type: "boolean", default: false },
    /** Strong mode: seconds of the search that makes each missing instance's known plan. */
    "gen-time": { type: "string", default: "25" },
    "generate-only": { type: "boolean", default: false },
    /** Strong mode: spare vehicles of the plan's types until demand / capacity is about this share (e.g. 0.84). */
    spare: { type: "string" },
  },
});
const only = values.only ? new Set(values.only.split(",")) : null;
const seed = Number(values.seed);
const pad = (s: string | number, w: number) => String(s).padStart(w);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function solve(request: SolveRequestInput, name: string, seconds: number) {
  const started = performance.now();
  const outcome = solveRequest(request, {
    settings: benchSettings,
    requestId: name,
    timeLimitSeconds: seconds,
    seed,
    ...(values.strategy ? { strategy: values.strategy } : {}),
  });
  return { outcome, took: (performance.now() - started) / 1000 };
}

function tight(): void {
  const seconds = values.time ? Number(values.time) : 10;
  const count = Number(values.count);
  console.log(`tight limited fleets: ${count} instances, ${seconds} s, seed ${seed}, strategy ${values.strategy ?? "auto"}`);
  console.log("| instance | customers | vehicles (types) | used % | planted cost | ours | gap % | time s | strategy |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
  const gaps: number[] = [];
  let solved = 0;
  let run = 0;
  for (let i = 0; i < count; i++) {
    const instance = tightFleetInstance(i, Number(values["instance-seed"]));
    if (only && !only.has(instance.name)) continue;
    run++;
    const r = instance.request;
    const types = new Set(r.vehicles_capacity.map((c, v) => `${c}|${r.vehicle_fixed_costs![v]}`)).size;
    const { outcome, took } = solve(r, instance.name, seconds);
    const head =
      `| ${instance.name} | ${pad(r.node_num - 1, 3)} | ${pad(r.vehicle_num, 3)} ` +
      `(${types}) | ${(100 * instance.utilisation).toFixed(1)} | ` +
      `${instance.plantedCost.toFixed(2)} |`;
    if (outcome.status === "solved") {
      solved++;
      const gap = (100 * (outcome.result.total_cost - instance.plantedCost)) / instance.plantedCost;
      gaps.push(gap);
      console.log(
        `${head} ${outcome.result.total_cost.toFixed(2)} | ${gap.toFixed(2)} | ${took.toFixed(1)} | ${outcome.result.strategy} |`,
      );
    } else {
      console.log(`${head} failed | - | ${took.toFixed(1)} | ${outcome.strategy ?? "-"} |`);
      console.log(`  ${outcome.error}`);
    }
  }
  const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
  console.log(`\nsolved ${solved}/${run}; gap to the planted solution: mean ${mean.toFixed(2)}%, median ${median(gaps).toFixed(2)}%`);
}

/** Starts a spinner on the first core this process may run on (any core without taskset); returns its stop. */
function startBusy(): () => void {
  const affinity = spawnSync("taskset", ["-cp", String(process.pid)], { encoding: "utf8" });
  const core = affinity.status === 0 ? /:\s*(\d+)/.exec(affinity.stdout)?.[1] : undefined;
  const spin = [process.execPath, "-e", "for (;;) {}"];
  const child =
    core !== undefined ? spawn("taskset", ["-c", core, ...spin], { stdio: "ignore" }) : spawn(spin[0]!, spin.slice(1), { stdio: "ignore" });
  console.log(`busy: a spinner (pid ${child.pid}) ${core !== undefined ? `pinned to core ${core}` : "unpinned (no taskset)"}`);
  const stop = () => void child.kill("SIGKILL");
  process.on("exit", stop);
  return stop;
}

function strong(): void {
  const seconds = values.time ? Number(values.time) : 10;
  const count = Number(values.count);
  const instanceSeed = Number(values["instance-seed"]);
  const cache = resolve(fileURLToPath(new URL("./instances/", import.meta.url)), `strong-tight-fleets-${instanceSeed}.json`);
  let family = strongTightFamily(cache, count, instanceSeed, { seconds: Number(values["gen-time"]), settings: benchSettings }, (line) =>
    console.log(line),
  );
  if (values["generate-only"]) return;
  if (values.spare) family = family.map((instance) => withSpareVehicles(instance, Number(values.spare)));
  const stopBusy = values.busy ? startBusy() : () => {};
  console.log(
    `tight fleets around a strong plan: ${family.length} instances, ${seconds} s, seed ${seed}, strategy ${values.strategy ?? "auto"}` +
      `${values.busy ? ", busy core" : ""}${values.spare ? `, spare vehicles to ${values.spare} of capacity` : ""}`,
  );
  console.log("| instance | customers | vehicles (types) | used % | known plan | ours | gap % | time s | strategy |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
  const gaps: number[] = [];
  let run = 0;
  for (const instance of family) {
    if (only && !only.has(instance.name)) continue;
    run++;
    const r = instance.request;
    const { outcome, took } = solve(r, instance.name, seconds);
    const head =
      `| ${instance.name} | ${pad(instance.customers, 3)} | ${pad(r.vehicle_num, 3)} (${instance.types.length}) | ` +
      `${(100 * instance.utilisation).toFixed(1)} | ${instance.planCost.toFixed(2)} |`;
    if (outcome.status === "solved") {
      const gap = (100 * (outcome.result.total_cost - instance.planCost)) / instance.planCost;
      gaps.push(gap);
      console.log(
        `${head} ${outcome.result.total_cost.toFixed(2)} | ${gap.toFixed(2)} | ${took.toFixed(1)} | ${outcome.result.strategy} |`,
      );
    } else console.log(`${head} failed | - | ${took.toFixed(1)} | ${outcome.strategy ?? "-"} |`);
  }
  stopBusy();
  const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
  const max = gaps.length > 0 ? Math.max(...gaps) : NaN;
  console.log(
    `\nsolved ${gaps.length}/${run}; gap to the known plan: mean ${mean.toFixed(2)}%, max ${max.toFixed(2)}%, ` +
      `over 5%: ${gaps.filter((g) => g > 5).length}`,
  );
}

/** A mix of the shared sets: capacity only, route-length limits (as windows), limited mixed fleets. */
const SCALED_SET = ["A-n37-k6", "A-n53-k7", "A-n80-k10", "CMT6", "CMT7", "X-n101-k25", "X110-HD", "X139-HD", "X148-HVRP", "X157-HD"];

function scaled(): void {
  const SCALES = values.scales.split(",").map(Number);
  const benchDir = process.env.BENCH_DIR ?? resolve(fileURLToPath(new URL("../", import.meta.url)), "../shared/benchmarks");
  const manifest = JSON.parse(readFileSync(join(benchDir, "manifest.json"), "utf8")) as {
    name: string;
    bks: number;
    n_customers: number;
    request: string;
  }[];
  const seconds = values.time ? Number(values.time) : 10;
  console.log(
    `scaled instances: ${SCALED_SET.length}, ${seconds} s, seed ${seed}, strategy ` +
      `${values.strategy ?? "auto"}; gap % to the best known x scale`,
  );
  console.log(`| instance | customers | best known | ${SCALES.map((s) => `gap % x ${s}`).join(" | ")} |`);
  console.log(`|---|---:|---:|${SCALES.map(() => "---:|").join("")}`);
  const gaps = SCALES.map(() => [] as number[]);
  const solved = SCALES.map(() => 0);
  let run = 0;
  for (const name of SCALED_SET) {
    if (only && !only.has(name)) continue;
    run++;
    const entry = manifest.find((e) => e.name === name);
    if (!entry) throw new Error(`${name} is not in ${benchDir}/manifest.json`);
    const original = JSON.parse(readFileSync(join(benchDir, entry.request), "utf8")) as SolveRequestInput;
    const cells = SCALES.map((factor, k) => {
      const { outcome } = solve(scaledRequest(original, factor), name, seconds);
      if (outcome.status !== "solved") return "failed";
      solved[k]!++;
      const gap = (100 * (outcome.result.total_cost / factor - entry.bks)) / entry.bks;
      gaps[k]!.push(gap);
      return gap.toFixed(2);
    });
    console.log(`| ${name} | ${pad(entry.n_customers, 3)} | ${entry.bks} | ${cells.join(" | ")} |`);
  }
  console.log("");
  SCALES.forEach((factor, k) => {
    const mean = gaps[k]!.reduce((a, b) => a + b, 0) / Math.max(1, gaps[k]!.length);
    console.log(`x ${factor}: solved ${solved[k]}/${run}, mean gap ${mean.toFixed(2)}%, median ${median(gaps[k]!).toFixed(2)}%`);
  });
}

if (values.mode === "scaled") scaled();
else if (values.mode === "tight") tight();
else if (values.mode === "strong") strong();
else {
  process.stderr.write(
    "usage: bench/tight-fleets.ts [--mode tight|strong|scaled] [--time S] [--seed N] [--strategy NAME] [--only NAME,...]\n",
  );
  process.exit(2);
}
