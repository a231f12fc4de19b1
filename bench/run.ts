/**
 * Solver benchmark on public instances, run on the compiled build (dist/, as the workers run it;
 * `npm run bench` builds it first and runs on the project's Node):
 *   npm run bench -- --set NAME [--strategy NAME | --strategies A,B,...] [--time S] [--seed N]
 *     [--limit K] [--only NAME,...] [--iterations] [--cpu] [--late-penalty P] [--bench-dir DIR] [--core N]
 * With one strategy (or none: the automatic selection), per instance: best known, ours (re-scored
 * by the evaluator), gap, time, strategy and vehicles (bench/single.ts). With `--strategies`,
 * the strategies run side by side, paired and pinned to one core, into one table of gaps and
 * iterations with a mean row (bench/compare.ts). Strategies listed in STRATEGY_MODULES can be
 * named like the built-in ones.
 * The instances: the benchmark folder (`--bench-dir DIR`, else BENCH_DIR, else ../shared/benchmarks
 * beside the repository) and the local hold-out set `X-large` (bench/instances/, needs no folder).
 * Protocol default time: 10 s up to 200 customers, 30 s above; XXL 60 s up to 10,000 customers,
 * 120 s above. `SOLVER_CLOCK=cpu` counts each limit in this process's CPU seconds (the header
 * says so); the search-setting variables of bench/settings-env.ts apply to every solve.
 * `npm run bench -- pipeline`: the service pipeline's speed (bench/pipeline.ts); `pipeline-partner`
 * the same on the path partners take, `make run` with a real plan (bench/pipeline-partner.ts).
 * `npm run bench -- fairness`: fair shares between accounts on the service (bench/fairness.ts).
 * `npm run bench -- fewest-vehicles`: the objective min_vehicles on Solomon and GH200 (bench/fewest-vehicles.ts).
 * `npm run bench -- fewest-trace`: min_vehicles against min_total_distance, with a trace, by name (bench/fewest-trace.ts).
 * `npm run bench -- cooperative`: one large instance on 1 worker, then 2 (bench/cooperative.ts).
 * `npm run bench -- traffic`: generated rush-hour families against a plan made at mean pace (bench/traffic.ts).
 */
import { parseArgs } from "node:util";
import { BenchSetupError, loadBenchmarks, unknownSetMessage } from "./benchmark-folder.js";
import { runCompared } from "./compare.js";
import { compiledSolver } from "./compiled-solver.js";
import { pinToOneCore } from "./pin.js";
import { settingsFromEnv } from "./settings-env.js";
import { runSingle, type RunSettings } from "./single.js";

const USAGE =
  "usage: npm run bench -- --set NAME [--strategy NAME | --strategies A,B,...] [--time S] [--seed N] [--limit K] [--only NAME,...]" +
  " [--iterations] [--cpu] [--late-penalty P] [--bench-dir DIR] [--core N]";

if (process.argv[2] === "pipeline") {
  await import("./pipeline.js");
  process.exit(process.exitCode ?? 0);
}
if (process.argv[2] === "pipeline-partner") {
  await import("./pipeline-partner.js");
  process.exit(process.exitCode ?? 0);
}
if (process.argv[2] === "fewest-vehicles") {
  await import("./fewest-vehicles.js");
  process.exit(process.exitCode ?? 0);
}
if (process.argv[2] === "fewest-trace") {
  await import("./fewest-trace.js");
  process.exit(process.exitCode ?? 0);
}
if (process.argv[2] === "cooperative") {
  await import("./cooperative.js");
  process.exit(process.exitCode ?? 0);
}
if (process.argv[2] === "traffic") {
  await import("./traffic.js");
  process.exit(process.exitCode ?? 0);
}
if (process.argv[2] === "balance") {
  await import("./balance.js");
  process.exit(process.exitCode ?? 0);
}
if (process.argv[2] === "fairness") {
  await import("./fairness.js");
  process.exit(process.exitCode ?? 0);
}

/** A number option, or a setup error naming it. */
function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new BenchSetupError(`bench: --${name} must be a number, not '${value}'`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      set: { type: "string" },
      time: { type: "string" },
      strategy: { type: "string" },
      strategies: { type: "string" },
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
      "bench-dir": { type: "string" },
      // The core --strategies runs on (default: the machine's last one).
      core: { type: "string" },
    },
  });
  if (values.strategy !== undefined && values.strategies !== undefined) {
    throw new BenchSetupError("bench: give --strategy or --strategies, not both");
  }
  const benchmarks = loadBenchmarks(values["bench-dir"]);
  if (!benchmarks.entries.some((e) => e.set === values.set)) {
    // Without a folder the message alone, on one line: where the bench looked and how to name one.
    const message = unknownSetMessage(values.set, benchmarks);
    throw new BenchSetupError(benchmarks.folder === null ? message : `${message}\n${USAGE}`);
  }
  const only = values.only ? new Set(values.only.split(",")) : null;
  const entries = benchmarks.entries
    .filter((e) => e.set === values.set && (!only || only.has(e.name)))
    .slice(0, numberOption("limit", values.limit));
  const settings: RunSettings = {
    seconds: numberOption("time", values.time),
    seed: numberOption("seed", values.seed)!,
    latePenalty: numberOption("late-penalty", values["late-penalty"]),
    iterations: values.iterations,
    cpu: values.cpu,
    override: settingsFromEnv(process.env),
  };
  const strategies = values.strategies
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const solver = await compiledSolver();
  // Unknown names fail here, listing the known ones (STRATEGY_MODULES' included).
  for (const name of strategies ?? (values.strategy ? [values.strategy] : [])) {
    try {
      solver.findStrategy(name);
    } catch (e) {
      throw new BenchSetupError(`bench: ${(e as Error).message}`);
    }
  }
  const core = numberOption("core", values.core);
  const where = strategies ? `, ${pinToOneCore(core)}` : "";
  const time = values.time ? `${values.time} s` : "protocol (10 s <= 200 customers, 30 s above; XXL 60 s <= 10,000, 120 s above)";
  const clock = solver.cpuClock ? ", counted in CPU seconds (SOLVER_CLOCK=cpu)" : "";
  const who = strategies ? `strategies ${strategies.join(", ")}` : `strategy ${values.strategy ?? "auto"}`;
  const runtime = `Node ${process.version}, compiled build (dist/)${where}`;
  console.log(`set ${values.set}: ${entries.length} instances, ${who}, seed ${settings.seed}, time ${time}${clock}; ${runtime}`);
  const run = { entries, benchmarks, settings, solver };
  if (strategies) runCompared(strategies, run);
  else runSingle(values.strategy, run);
}

try {
  await main();
} catch (e) {
  if (e instanceof BenchSetupError) process.stderr.write(`${e.message}\n`);
  else if (e instanceof TypeError && String((e as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS")) {
    process.stderr.write(`bench: ${e.message}\n${USAGE}\n`);
  } else throw e;
  process.exit(2);
}
