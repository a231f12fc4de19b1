/**
 * Iterations per CPU second, ours against PyVRP 0.14, on the same instances at the same time: for
 * each instance PyVRP (the peers' pyvrp-eval.py through bench/peers/pyvrp-cpu.py, its MaxRuntime
 * on the CPU clock, `Result.num_iterations`) on core 0 and ours (bench/solve-one.ts under
 * `SOLVER_CLOCK=cpu`, the budget's iteration count) on core 1 are started together, each given
 * `--time` CPU seconds (default 10), so a shared machine changes neither one's figure much. The
 * two cores of a virtual machine can run at different speeds for minutes, so `--swap` runs each
 * instance a second time with the cores exchanged and gives each side's mean rate.
 * Prints a row per instance (our strategy, both rates, PyVRP / ours) and the median ratio per family.
 * Default instances: X (shared and the hold-out .vrp of bench/instances), Solomon, GH, mixed fleets
 * (HFVRP: FSMFD, FSMD, HVRP, HD) and the windowed kinds beyond identical vehicles (SDVRPTW's skills,
 * 800-customer GH-large, PCVRPTW's optional customers); `--family NAME` keeps one family.
 * Ours chooses its method as in service, so on X up to 300 customers it counts the genetic search's
 * generations; `--iterated` runs the iterated search there too, whose iteration is PyVRP's kind.
 *
 * `node --import tsx bench/search-speed.ts [--only A,B] [--family F] [--time S] [--swap] [--iterated]
 *   [--pyvrp PYTHON] [--peers DIR] [--bench-dir DIR]`
 * PYTHON (or PYVRP_PYTHON) is the venv's python that `../shared/peers/build-pyvrp.sh` built.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { run } from "./side-by-side-run.js";
import { vrplibRequest } from "./vrplib.js";

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    family: { type: "string" },
    time: { type: "string", default: "10" },
    pyvrp: { type: "string" },
    peers: { type: "string" },
    "bench-dir": { type: "string" },
    swap: { type: "boolean", default: false },
    iterated: { type: "boolean", default: false },
  },
});
const python = values.pyvrp ?? process.env.PYVRP_PYTHON ?? "/work/pyvrp-build/pyvrp-venv/bin/python";
const peers = resolve(values.peers ?? join(REPO_ROOT, "..", "shared", "peers"));
const benchDir = resolve(values["bench-dir"] ?? join(REPO_ROOT, "..", "shared", "benchmarks"));
const seconds = Number(values.time);

interface Instance {
  family: string;
  name: string;
  request: () => SolveRequestInput;
}

const shared = (family: string, folder: string, name: string): Instance => ({
  family,
  name,
  request: () => JSON.parse(readFileSync(join(benchDir, "requests", folder, `${name}.json`), "utf8")) as SolveRequestInput,
});
/** A hold-out X instance (bench/instances): the manifest's vehicle count. */
const holdOut = (name: string): Instance => ({
  family: "X",
  name,
  request: () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "bench", "instances", "manifest.json"), "utf8")) as {
      name: string;
      vehicles: number;
    }[];
    const vehicles = manifest.find((e) => e.name === name)!.vehicles;
    return vrplibRequest(join(REPO_ROOT, "bench", "instances", `${name}.vrp`), name, vehicles);
  },
});

const INSTANCES: Instance[] = [
  shared("X", "X", "X-n101-k25"),
  shared("X", "X", "X-n256-k16"),
  holdOut("X-n367-k17"),
  holdOut("X-n502-k39"),
  holdOut("X-n819-k171"),
  shared("Solomon", "Solomon", "C101"),
  shared("Solomon", "Solomon", "R101"),
  shared("Solomon", "Solomon", "RC101"),
  shared("Solomon", "Solomon", "R112"),
  shared("GH", "GH200", "R1_2_1"),
  shared("GH", "GH200", "RC1_2_1"),
  shared("GH", "GH-large", "R2_8_4"),
  shared("GH", "GH-large", "RC2_6_1"),
  shared("HFVRP", "HFVRP", "X176-FSMFD"),
  shared("HFVRP", "HFVRP", "X242-FSMFD"),
  shared("HFVRP", "HFVRP", "X298-FSMD"),
  shared("HFVRP", "HFVRP", "X289-HVRP"),
  shared("HFVRP", "HFVRP", "X261-HD"),
  shared("SDVRPTW", "SDVRPTW", "PR06"),
  shared("SDVRPTW", "SDVRPTW", "PR11A"),
  shared("SDVRPTW", "SDVRPTW", "PR17B"),
  shared("GH-large", "GH-large", "R1_8_2"),
  shared("GH-large", "GH-large", "RC2_8_1"),
  shared("PCVRPTW", "PCVRPTW", "R1_10_1"),
];

const only = values.only ? new Set(values.only.split(",")) : null;
const chosen = INSTANCES.filter((i) => (only === null || only.has(i.name)) && (values.family === undefined || i.family === values.family));
if (chosen.length === 0) throw new Error(`no instance among ${INSTANCES.map((i) => i.name).join(", ")}`);

const lastJson = (out: string): Record<string, unknown> | null => {
  const last = out.trim().split("\n").at(-1) ?? "";
  return last.startsWith("{") ? (JSON.parse(last) as Record<string, unknown>) : null;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const methodEnv = values.iterated ? ["HGS_CAPACITY_METHOD=iterated"] : [];
const dir = mkdtempSync(join(tmpdir(), "search-speed-"));
const ratios = new Map<string, number[]>();
const placement = values.swap ? "each on both cores in turn" : "PyVRP on core 0 and ours on core 1";
console.log(`${seconds} CPU s each, seed 1, ${placement}, started together, ${new Date().toISOString()}`);
console.log("| family | instance | our strategy | ours it/CPU s | PyVRP it/CPU s | PyVRP / ours |");
console.log("|---|---|---|---:|---:|---:|");
try {
  for (const instance of chosen) {
    const file = join(dir, `${instance.name}.json`);
    writeFileSync(file, JSON.stringify(instance.request()));
    const solveOne = join(REPO_ROOT, "bench", "solve-one.ts");
    const cpuWrapper = join(REPO_ROOT, "bench", "peers", "pyvrp-cpu.py");
    const limit = String(seconds);
    const pass = async (ourCore: string, theirCore: string) => {
      const [ours, theirs] = await Promise.all([
        run("env", [
          "SOLVER_CLOCK=cpu",
          ...methodEnv,
          "taskset",
          "-c",
          ourCore,
          process.execPath,
          "--import",
          "tsx",
          solveOne,
          file,
          limit,
        ]),
        run("taskset", ["-c", theirCore, python, cpuWrapper, join(peers, "pyvrp-eval.py"), file, "-l", limit]),
      ]);
      const o = lastJson(ours.out);
      const p = lastJson(theirs.out);
      return {
        method: o ? `${String(o.strategy)}${values.iterated ? ", iterated" : ""}` : "failed",
        ourRate: o ? Number(o.iterations) / Number(o.searchCpuSeconds) : Number.NaN,
        theirRate: p ? Number(p.iterations) / Number(p.cpu_s) : Number.NaN,
      };
    };
    const passes = values.swap ? [await pass("1", "0"), await pass("0", "1")] : [await pass("1", "0")];
    const ourRate = mean(passes.map((q) => q.ourRate));
    const theirRate = mean(passes.map((q) => q.theirRate));
    const method = passes[0]!.method;
    const ratio = theirRate / ourRate;
    if (Number.isFinite(ratio)) ratios.set(instance.family, [...(ratios.get(instance.family) ?? []), ratio]);
    const rates = `${ourRate.toFixed(0)} | ${theirRate.toFixed(0)} | ${ratio.toFixed(2)}`;
    console.log(`| ${instance.family} | ${instance.name} | ${method} | ${rates} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`median PyVRP / ours: ${[...ratios].map(([family, rs]) => `${family} ${median(rs).toFixed(2)} (${rs.length})`).join(", ")}`);
