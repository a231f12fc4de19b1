/**
 * The gap against CPU time at short budgets, ours against PyVRP 0.14, both on the CPU clock: for
 * every instance and budget, ours (bench/short-budget-solve.ts under SOLVER_CLOCK=cpu, once per
 * variant) and PyVRP (the peers' pyvrp-eval.py through bench/peers/pyvrp-cpu.py) run as
 * separate processes, two at a time, one pinned to each core, each solve on its own CPU clock, so
 * the machine's load moves neither side's computing time much. A variant is a label and the
 * settings variables of bench/settings-env.ts it runs under (`--variants
 * "before:HGS_CAPACITY_METHOD=genetic,after:"`; default one variant, the automatic choice).
 * Instances: a shared set (`--set`, gaps to its best known) or generated X-like CVRPs
 * (`--family x`, `--customers LO-HI` drawn per instance, `--count`, `--instance-seed`; gaps to the
 * best any run found on the instance). Prints a row per instance and budget, then the mean gap per
 * budget and solver, overall and by size. `--family gh` gives Gehring-Homberger-like VRPTWs instead
 * (bench/gh-like.ts), `--customers` then listing their sizes (`200,400`).
 *
 * `node --import tsx bench/short-budgets.ts (--set NAME | --family x|gh [--customers 100-300|200,400] [--count K]
 * [--instance-seed N]) [--only A,B] [--budgets 0.25,0.5,1,2,3] [--seed N] [--variants ...] [--pyvrp PYTHON]`
 * Without `--pyvrp` (or PYVRP_PYTHON) only ours run.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { BenchSetupError, entryRequest, loadBenchmarks } from "./benchmark-folder.js";
import { mean, run, show } from "./side-by-side-run.js";
import { ghLike } from "./gh-like.js";
import { generateXLike } from "./x-like-instance.js";

const { values } = parseArgs({
  options: {
    set: { type: "string" },
    family: { type: "string" },
    customers: { type: "string", default: "100-300" },
    count: { type: "string", default: "12" },
    "instance-seed": { type: "string", default: "5100" },
    only: { type: "string" },
    budgets: { type: "string", default: "1,3" },
    seed: { type: "string", default: "1" },
    variants: { type: "string", default: "ours:" },
    pyvrp: { type: "string" },
    peers: { type: "string", default: resolve(REPO_ROOT, "..", "shared", "peers") },
    "bench-dir": { type: "string" },
  },
});

interface Instance {
  name: string;
  customers: number;
  request: SolveRequestInput;
  best: number | null;
}

/** A customer count in [lo, hi] for the `index`-th instance of `seed`, the same on every run. */
function drawnCustomers(index: number, seed: number, lo: number, hi: number): number {
  const mixed = Math.imul((seed * 31 + index) ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  return lo + (mixed % (hi - lo + 1));
}

function instances(): Instance[] {
  const only = values.only ? new Set(values.only.split(",")) : null;
  let list: Instance[];
  if (values.family === "x") {
    const [lo, hi] = values.customers.split("-").map(Number) as [number, number];
    const seed = Number(values["instance-seed"]);
    list = Array.from({ length: Number(values.count) }, (_, i) => {
      const { name, request } = generateXLike(i, seed, drawnCustomers(i, seed, lo, hi));
      return { name, customers: request.node_num - 1, request, best: null };
    });
  } else if (values.family === "gh") {
    // Gehring-Homberger-like VRPTWs of the sizes `--customers` lists (e.g. 200,400), every class and type in turn.
    const sizes = values.customers.split(",").map(Number);
    const seed = Number(values["instance-seed"]);
    list = Array.from({ length: Number(values.count) }, (_, i) => {
      const { name, request } = ghLike(i, seed, sizes);
      return { name, customers: request.node_num - 1, request, best: null };
    });
  } else if (values.set) {
    const benchmarks = loadBenchmarks(values["bench-dir"]);
    list = benchmarks.entries
      .filter((e) => e.set === values.set)
      .map((e) => {
        const request = entryRequest(e, benchmarks);
        return { name: e.name, customers: e.n_customers, request, best: e.bks };
      });
    if (list.length === 0) throw new BenchSetupError(`bench: no instances of set '${values.set}' (${benchmarks.lookedFor})`);
  } else throw new BenchSetupError("bench: name a shared set (--set) or a generated family (--family x|gh)");
  return only ? list.filter((i) => only.has(i.name)) : list;
}

/** `label:NAME=VALUE NAME=VALUE` pairs, comma-separated. */
function parseVariants(text: string): { label: string; env: string[] }[] {
  return text.split(",").map((part) => {
    const [label, assignments = ""] = part.split(":");
    return { label: label!.trim(), env: assignments.split(/\s+/).filter(Boolean) };
  });
}

interface Job {
  instance: Instance;
  budget: number;
  solver: string;
  command: (core: number) => [string, string[]];
}

interface Answer {
  cost: number | null;
  firstFeasible: number | null;
  iterations: number | null;
}

const lastJson = (out: string): Record<string, unknown> | null => {
  const last = out.trim().split("\n").at(-1) ?? "";
  return last.startsWith("{") ? (JSON.parse(last) as Record<string, unknown>) : null;
};

async function main(): Promise<void> {
  const python = values.pyvrp ?? process.env.PYVRP_PYTHON;
  const budgets = values.budgets.split(",").map(Number);
  const seed = values.seed;
  const variants = parseVariants(values.variants);
  const solvers = [...variants.map((v) => v.label), ...(python ? ["PyVRP"] : [])];
  const dir = mkdtempSync(join(tmpdir(), "short-budgets-"));
  const chosen = instances();
  const jobs: Job[] = [];
  for (const instance of chosen) {
    const file = join(dir, `${instance.name}.json`);
    writeFileSync(file, JSON.stringify(instance.request));
    for (const budget of budgets) {
      for (const variant of variants) {
        const solve = join(REPO_ROOT, "bench", "short-budget-solve.ts");
        const args = ["SOLVER_CLOCK=cpu", ...variant.env, process.execPath, "--import", "tsx", solve, file, String(budget), seed];
        jobs.push({ instance, budget, solver: variant.label, command: (core) => ["taskset", ["-c", String(core), "env", ...args]] });
      }
      if (python) {
        const wrapper = join(REPO_ROOT, "bench", "peers", "pyvrp-cpu.py");
        const args = [wrapper, join(values.peers, "pyvrp-eval.py"), file, "-l", String(budget), "--seed", seed];
        jobs.push({ instance, budget, solver: "PyVRP", command: (core) => ["taskset", ["-c", String(core), python, ...args]] });
      }
    }
  }
  const answers = new Map<Job, Answer>();
  const where = values.set
    ? `set ${values.set}`
    : `${values.family === "gh" ? "GH-like" : "X-like"}, ${values.customers} customers, instance seed ${values["instance-seed"]}`;
  console.log(`short budgets (CPU seconds), ${where}, seed ${seed}, started ${new Date().toISOString()}`);
  console.log(
    `| instance | customers | budget | reference | ${solvers.map((s) => `${s} gap % (first feasible s, iterations)`).join(" | ")} |`,
  );
  console.log(`|---|---:|---:|---:|${solvers.map(() => "---:").join("|")}|`);
  const gaps = new Map<string, { customers: number; gap: number }[]>();
  const printed = new Set<Instance>();
  let next = 0;
  const lane = async (core: number) => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const [command, args] = job.command(core);
      const { out } = await run(command, args);
      const line = lastJson(out);
      const cost = line && (line.feasible ?? true) !== false && typeof (line.cost ?? line.total_cost) === "number";
      answers.set(job, {
        cost: cost ? Number(line.cost ?? line.total_cost) : null,
        firstFeasible: typeof line?.firstFeasible === "number" ? line.firstFeasible : null,
        iterations: typeof line?.iterations === "number" ? line.iterations : null,
      });
      const mine = jobs.filter((j) => j.instance === job.instance);
      if (!printed.has(job.instance) && mine.every((j) => answers.has(j))) {
        printed.add(job.instance);
        printInstance(job.instance, mine, answers, budgets, gaps);
      }
    }
  };
  try {
    await Promise.all([lane(0), lane(1)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nMean gap % (instances every solver answered), finished ${new Date().toISOString()}`);
  const sizes: [string, (n: number) => boolean][] = [
    ["all", () => true],
    ["up to 100", (n) => n <= 100],
    ["101-150", (n) => n > 100 && n <= 150],
    ["151-200", (n) => n > 150 && n <= 200],
    ["201-300", (n) => n > 200 && n <= 300],
    ["above 300", (n) => n > 300],
  ];
  console.log(`| budget | customers | n | ${solvers.join(" | ")} |`);
  console.log(`|---:|---|---:|${solvers.map(() => "---:").join("|")}|`);
  for (const budget of budgets)
    for (const [label, fits] of sizes) {
      const per = solvers.map((s) => (gaps.get(`${s}@${budget}`) ?? []).filter((g) => fits(g.customers)).map((g) => g.gap));
      if (per[0]!.length === 0) continue;
      console.log(`| ${budget} | ${label} | ${per[0]!.length} | ${per.map((g) => mean(g).toFixed(2)).join(" | ")} |`);
    }
}

/** An instance's rows, once every solve of it has answered; its gaps go into `gaps` (solver@budget). */
function printInstance(
  instance: Instance,
  mine: Job[],
  answers: Map<Job, Answer>,
  budgets: number[],
  gaps: Map<string, { customers: number; gap: number }[]>,
): void {
  const known = mine.map((j) => answers.get(j)!.cost).filter((c): c is number => c !== null);
  const reference = instance.best ?? (known.length > 0 ? Math.min(...known) : null);
  for (const budget of budgets) {
    const row = mine.filter((j) => j.budget === budget);
    const complete = row.every((j) => answers.get(j)!.cost !== null);
    const cells = row.map((j) => {
      const a = answers.get(j)!;
      const gap = a.cost === null || reference === null ? null : (100 * (a.cost - reference)) / reference;
      if (gap !== null && complete) {
        const key = `${j.solver}@${budget}`;
        gaps.set(key, [...(gaps.get(key) ?? []), { customers: instance.customers, gap }]);
      }
      return `${show(gap, 2)} (${show(a.firstFeasible, 2)}, ${a.iterations ?? "-"})`;
    });
    console.log(`| ${instance.name} | ${instance.customers} | ${budget} | ${show(reference, 0)} | ${cells.join(" | ")} |`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof BenchSetupError ? 2 : 1);
});
