/**
 * hgs's two methods for identical-vehicles problems with binding windows, at equal CPU time, on generated
 * Solomon-sized VRPTWs (bench/gh-like.ts on Solomon's 100 x 100 square, classes C, R and RC,
 * types 1 and 2 but C1, 25-100% of the customers windowed): for each instance and seed, `HGS_WINDOWS_METHOD`
 * A and B (default genetic and iterated) are started together, one on core 0 and one on core 1
 * (the cores swap every row), each through bench/solve-one.ts under `SOLVER_CLOCK=cpu`, so a shared
 * machine changes neither one's budget. Prints a row per run (costs, routes, iterations per CPU
 * second, B against A in %) and the mean difference, wins and losses, so that a method change is
 * judged on instances (an instance seed range) it was not chosen on, then on a folder of shared
 * requests (`--requests DIR`, e.g. ../shared/benchmarks/requests/Solomon, instead of generated ones):
 * `node --import tsx bench/windows-method.ts [--instance-seed N] [--count K] [--sizes 50,100] [--time S] [--seeds 1,2]
 * [--methods A,B] [--requests DIR]`
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { ghLike } from "./gh-like.js";
import { run } from "./side-by-side-run.js";

const { values } = parseArgs({
  options: {
    "instance-seed": { type: "string", default: "4100" },
    count: { type: "string", default: "12" },
    sizes: { type: "string", default: "50,75,100" },
    time: { type: "string", default: "10" },
    seeds: { type: "string", default: "1" },
    methods: { type: "string", default: "genetic,iterated" },
    requests: { type: "string" },
  },
});
/** Solomon's square, whatever the customer count (gh-like's own side is n / 2). */
const SIDE = 100;
const sizes = values.sizes.split(",").map(Number);
const seeds = values.seeds.split(",").map(Number);
const [methodA, methodB] = values.methods.split(",") as [string, string];
const instanceSeed = Number(values["instance-seed"]);

interface Outcome {
  cost: number;
  feasible: boolean;
  rate: number;
}

const solveOne = join(REPO_ROOT, "bench", "solve-one.ts");
async function solve(file: string, method: string, core: number, seed: number): Promise<Outcome | null> {
  const env = ["SOLVER_CLOCK=cpu", `HGS_WINDOWS_METHOD=${method}`];
  const solver = [process.execPath, "--import", "tsx", solveOne, file, values.time, "hgs", String(seed)];
  const { out } = await run("env", [...env, "taskset", "-c", String(core), ...solver]);
  const last = out.trim().split("\n").at(-1) ?? "";
  if (!last.startsWith("{")) return null;
  const o = JSON.parse(last) as { cost: number; feasible: boolean; iterations: number; searchCpuSeconds: number };
  return { cost: o.cost, feasible: o.feasible, rate: o.iterations / o.searchCpuSeconds };
}

/**
 * The instances: the folder's requests, or `count` generated ones (gh-like's C1 left out: on this
 * square its short day leaves 90-minute services unservable).
 */
function instances(): { name: string; request: SolveRequestInput }[] {
  if (values.requests) {
    const folder = values.requests;
    const files = readdirSync(folder)
      .filter((f) => f.endsWith(".json"))
      .sort();
    return files.map((f) => ({ name: f.slice(0, -5), request: JSON.parse(readFileSync(join(folder, f), "utf8")) as SolveRequestInput }));
  }
  const out: { name: string; request: SolveRequestInput }[] = [];
  for (let i = 0; out.length < Number(values.count); i++) if (i % 6 !== 0) out.push(ghLike(i, instanceSeed, sizes, () => SIDE));
  return out;
}

const dir = mkdtempSync(join(tmpdir(), "windows-method-"));
const diffs: number[] = [];
let row = 0;
const source = values.requests ?? `${values.count} instances (instance seed ${instanceSeed}, sizes ${values.sizes})`;
console.log(
  `windows-method: ${source}, ` +
    `seeds ${values.seeds}, ${values.time} CPU s each, ${methodA} against ${methodB}, ${new Date().toISOString()}`,
);
console.log(`| instance | seed | ${methodA} | ${methodB} | ${methodB} vs ${methodA} | it/CPU s ${methodA} / ${methodB} |`);
console.log("|---|---:|---:|---:|---:|---:|");
try {
  for (const { name, request } of instances()) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(request));
    for (const seed of seeds) {
      const swap = row++ % 2 === 1;
      const [a, b] = await Promise.all([solve(file, methodA, swap ? 1 : 0, seed), solve(file, methodB, swap ? 0 : 1, seed)]);
      const show = (o: Outcome | null) => (o === null ? "failed" : `${o.cost.toFixed(1)}${o.feasible ? "" : " (infeasible)"}`);
      let diff = "";
      if (a?.feasible && b?.feasible) {
        const d = (100 * (b.cost - a.cost)) / a.cost;
        diffs.push(d);
        diff = `${d >= 0 ? "+" : ""}${d.toFixed(2)}%`;
      }
      const rates = `${a ? a.rate.toFixed(0) : "-"} / ${b ? b.rate.toFixed(0) : "-"}`;
      console.log(`| ${name} | ${seed} | ${show(a)} | ${show(b)} | ${diff} | ${rates} |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const mean = diffs.reduce((s, d) => s + d, 0) / Math.max(1, diffs.length);
const better = diffs.filter((d) => d < -1e-6).length;
const worse = diffs.filter((d) => d > 1e-6).length;
console.log(
  `${methodB} against ${methodA}: mean ${mean >= 0 ? "+" : ""}${mean.toFixed(3)}% over ${diffs.length} paired runs, ` +
    `lower on ${better}, higher on ${worse}, level on ${diffs.length - better - worse}`,
);
