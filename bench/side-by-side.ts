/**
 * Ours and PyVRP 0.14 side by side, as the quality bar asks: for every instance and seed both
 * solve the same request at the same time, PyVRP pinned to core 0 (`taskset -c 0`, the peers'
 * pyvrp-eval.py, which rescores its routes with our rules) and ours to core 1 (`bin/vrp-solve.mjs`,
 * the compiled service solver), one instance at a time, at the protocol's limits (10 s up to 200
 * customers, 30 s above) unless `--time` says otherwise; under `SOLVER_CLOCK=cpu` both count their
 * own CPU seconds (bench/side-by-side-run.ts). Our answers are also checked by the
 * peers' independent checker. Instances: a shared set (`--set`, gaps to its best known), a
 * generated family (`--family gh|gh-small|pc|pc-long|sd|hfvrp|x|mt`, `--count` of them, gaps to the better of the two
 * on each run, since there is no best known; `--customers N` draws pc-long at N customers instead of 1,000,
 * for shorter runs), or the cached tight fleets around a strong known
 * plan (`--family tight`, or `tight-spare` with spare vehicles to 84% of the capacity; gaps to the plan).
 *
 * `node --import tsx bench/side-by-side.ts (--set NAME | --family F [--count K] [--instance-seed N] [--customers N])
 * [--only A,B] [--seeds 1,2,3] [--time S] [--pyvrp PYTHON] [--peers DIR] [--bench-dir DIR]`
 * PYTHON (or PYVRP_PYTHON) is the venv's python that `../shared/peers/build-pyvrp.sh` built.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { BenchSetupError, entryRequest, loadBenchmarks } from "./benchmark-folder.js";
import { mean, protocolSeconds, run, runOursPinned, runPyvrpPinned, show } from "./side-by-side-run.js";
import { ghLike } from "./gh-like.js";
import { generateHfvrpLike } from "./hfvrp-like.js";
import { mtLike } from "./mt-like.js";
import { pcLike, pcLongLike } from "./pc-like.js";
import { sdLike } from "./sd-like.js";
import { strongTightFamily, withSpareVehicles } from "./strong-tight-fleets.js";
import { generateXLike } from "./x-like-instance.js";

interface Instance {
  name: string;
  request: SolveRequestInput;
  /** The best known cost (shared sets, a known plan), or null (generated families). */
  best: number | null;
}

/** The cached tight fleets around a strong known plan (bench/instances/), which is their reference. */
function tightFleet(index: number, spare: boolean): Instance {
  const cache = join(REPO_ROOT, "bench", "instances", "strong-tight-fleets-2026.json");
  const instance = strongTightFamily(cache, index + 1, 2026, { seconds: 25 }, () => {})[index]!;
  const used = spare ? withSpareVehicles(instance, 0.84) : instance;
  return { name: used.name, request: used.request, best: used.planCost };
}

/** `customers`: the size pc-long draws (the others keep their own sizes). */
const FAMILIES: Record<string, (index: number, seed: number, customers?: number) => Instance> = {
  gh: (i, s) => ({ ...ghLike(i, s), best: null }),
  // Solomon-sized: 100 or 200 customers on Solomon's 100 x 100 square.
  "gh-small": (i, s) => ({ ...ghLike(i, s, [100, 200], () => 100), best: null }),
  pc: (i, s) => ({ ...pcLike(i, s), best: null }),
  // PCVRPTW's long-route kind: R2 and RC2, 1,000 customers, the files' fleet.
  "pc-long": (i, s, customers) => ({ ...pcLongLike(i, s, customers), best: null }),
  mt: (i, s) => ({ ...mtLike(i, s), best: null }),
  sd: (i, s) => ({ ...sdLike(i, s), best: null }),
  hfvrp: (i, s) => ({ ...generateHfvrpLike(i, s), best: null }),
  x: (i, s) => ({ ...generateXLike(i, s), best: null }),
  tight: (i) => tightFleet(i, false),
  "tight-spare": (i) => tightFleet(i, true),
};

const { values } = parseArgs({
  options: {
    set: { type: "string" },
    family: { type: "string" },
    count: { type: "string", default: "6" },
    "instance-seed": { type: "string", default: "2027" },
    customers: { type: "string" },
    only: { type: "string" },
    seeds: { type: "string", default: "1,2,3" },
    time: { type: "string" },
    pyvrp: { type: "string" },
    peers: { type: "string", default: resolve(REPO_ROOT, "..", "shared", "peers") },
    "bench-dir": { type: "string" },
  },
});

function instances(): Instance[] {
  const only = values.only ? new Set(values.only.split(",")) : null;
  let list: Instance[];
  if (values.family) {
    const make = FAMILIES[values.family];
    if (!make) throw new BenchSetupError(`bench: unknown family '${values.family}' (${Object.keys(FAMILIES).join(", ")})`);
    const customers = values.customers === undefined ? undefined : Number(values.customers);
    list = Array.from({ length: Number(values.count) }, (_, i) => make(i, Number(values["instance-seed"]), customers));
  } else if (values.set) {
    const benchmarks = loadBenchmarks(values["bench-dir"]);
    list = benchmarks.entries
      .filter((e) => e.set === values.set)
      .map((e) => ({ name: e.name, request: entryRequest(e, benchmarks), best: e.bks }));
    if (list.length === 0) throw new BenchSetupError(`bench: no instances of set '${values.set}' (${benchmarks.lookedFor})`);
  } else throw new BenchSetupError("bench: name a shared set (--set) or a generated family (--family)");
  return only ? list.filter((i) => only.has(i.name)) : list;
}

interface Outcome {
  cost: number | null;
  note: string;
}

async function ours(file: string, resultFile: string, seconds: number, seed: number): Promise<Outcome> {
  const { out, code } = await runOursPinned(file, seconds, seed);
  if (code !== 0) return { cost: null, note: `ours failed: ${out.slice(0, 120)}` };
  writeFileSync(resultFile, out);
  const check = await run(process.execPath, [join(values.peers, "check-result.mjs"), file, resultFile]);
  const result = JSON.parse(out) as { total_cost: number; unassigned?: unknown[] };
  return { cost: result.total_cost, note: check.code === 0 ? "" : `checker: ${check.out.trim().slice(0, 120)}` };
}

async function pyvrp(python: string, file: string, seconds: number, seed: number): Promise<Outcome> {
  const answer = await runPyvrpPinned(python, join(values.peers, "pyvrp-eval.py"), file, seconds, seed);
  if ("error" in answer) return { cost: null, note: answer.error };
  if (answer.code !== 0) return { cost: null, note: `PyVRP: ${JSON.stringify(answer.line).slice(0, 120)}` };
  return answer.line.feasible ? { cost: answer.line.total_cost ?? null, note: "" } : { cost: null, note: "PyVRP infeasible" };
}

async function main(): Promise<void> {
  const python = values.pyvrp ?? process.env.PYVRP_PYTHON;
  if (!python) throw new BenchSetupError("bench: give PyVRP's python with --pyvrp or PYVRP_PYTHON (see ../shared/peers/README.md)");
  const seeds = values.seeds.split(",").map(Number);
  const dir = mkdtempSync(join(tmpdir(), "side-by-side-"));
  const gaps = { ours: new Map<number, number[]>(), pyvrp: new Map<number, number[]>() };
  let better = 0;
  let compared = 0;
  console.log(`side by side with PyVRP 0.14: ${values.set ?? `family ${values.family}`}, seeds ${seeds.join(", ")}`);
  console.log("| instance | seed | reference | ours | PyVRP | ours gap % | PyVRP gap % | note |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---|");
  try {
    for (const instance of instances()) {
      const file = join(dir, `${instance.name}.json`);
      writeFileSync(file, JSON.stringify(instance.request));
      const seconds = protocolSeconds(instance.request, values.time);
      for (const seed of seeds) {
        const [a, b] = await Promise.all([
          ours(file, join(dir, `${instance.name}-${seed}.result.json`), seconds, seed),
          pyvrp(python, file, seconds, seed),
        ]);
        const found = [a.cost, b.cost].filter((c): c is number => c !== null);
        const reference = instance.best ?? (found.length > 0 ? Math.min(...found) : null);
        const gap = (c: number | null) => (c === null || reference === null ? null : (100 * (c - reference)) / reference);
        const [ga, gb] = [gap(a.cost), gap(b.cost)];
        if (ga !== null && gb !== null) {
          gaps.ours.set(seed, [...(gaps.ours.get(seed) ?? []), ga]);
          gaps.pyvrp.set(seed, [...(gaps.pyvrp.get(seed) ?? []), gb]);
          compared++;
          if (ga < gb - 1e-9) better++;
        }
        console.log(
          `| ${instance.name} | ${seed} | ${show(reference, 1)} | ${show(a.cost, 1)} | ${show(b.cost, 1)} | ` +
            `${show(ga, 2)} | ${show(gb, 2)} | ${[a.note, b.note].filter(Boolean).join("; ")} |`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log("\n| seed | ours mean gap % | PyVRP mean gap % |\n|---:|---:|---:|");
  for (const seed of seeds)
    console.log(`| ${seed} | ${mean(gaps.ours.get(seed) ?? []).toFixed(2)} | ${mean(gaps.pyvrp.get(seed) ?? []).toFixed(2)} |`);
  const all = (m: Map<number, number[]>) => [...m.values()].flat();
  console.log(`| all | ${mean(all(gaps.ours)).toFixed(2)} | ${mean(all(gaps.pyvrp)).toFixed(2)} |`);
  console.log(`\nours strictly better on ${better} of ${compared} paired runs`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof BenchSetupError ? 2 : 1);
});
