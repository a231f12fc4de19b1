/**
 * Does every kind of request solve within the heap limit a worker's solver thread gives it
 * (src/worker/solver-heap.ts), and what RSS does it reach there? The largest request of every
 * shared set, plus generated ones the sets do not cover (a rich 5,000-customer problem and a
 * 3,000-node distance matrix), each in its own process (bench/solve-one.ts) under
 * `--max-old-space-size` = the scaled limit; a request that runs out of memory shows as such
 * (the service would then solve it again under SOLVER_MAX_HEAP_MB, costing time):
 * `node --import tsx bench/heap-limits.ts [--time S] [--only SET,...]`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { solverHeapLimitMb } from "../src/worker/solver-heap.js";
import { DEFAULT_SOLVER_MAX_HEAP_MB } from "../src/config/load.js";
import { generateRichXxl } from "./rich-xxl-instance.js";
import { generateXLike } from "./x-like-instance.js";

const { values } = parseArgs({ options: { time: { type: "string", default: "10" }, only: { type: "string" } } });
const root = fileURLToPath(new URL("../", import.meta.url));
const benchDir = process.env.BENCH_DIR ?? resolve(root, "../shared/benchmarks");
const manifest = JSON.parse(readFileSync(join(benchDir, "manifest.json"), "utf8")) as {
  name: string;
  set: string;
  n_customers: number;
  request: string;
}[];

const cases: { set: string; name: string; file: string; nodes: number }[] = [];
const largest = new Map<string, (typeof manifest)[number]>();
for (const e of manifest) if ((largest.get(e.set)?.n_customers ?? -1) < e.n_customers) largest.set(e.set, e);
for (const e of largest.values()) cases.push({ set: e.set, name: e.name, file: join(benchDir, e.request), nodes: e.n_customers + 1 });

const scratch = mkdtempSync(join(tmpdir(), "heap-limits-"));
const rich = generateRichXxl(join(benchDir, "requests/XXL/Antwerp1.json"), 5000, 4, 1).request;
writeFileSync(join(scratch, "rich-5000.json"), JSON.stringify(rich));
cases.push({ set: "rich (generated)", name: "rich-Antwerp1-n5000-d4", file: join(scratch, "rich-5000.json"), nodes: rich.node_num });
const matrix = generateXLike(0, 2026, 2999).request;
writeFileSync(join(scratch, "x-like-3000.json"), JSON.stringify(matrix));
cases.push({ set: "x-like (generated)", name: "x-like-n3000-matrix", file: join(scratch, "x-like-3000.json"), nodes: matrix.node_num });

const only = values.only ? new Set(values.only.split(",")) : null;
console.log(`| set | instance | nodes | request MB | heap limit MB | outcome | peak RSS MB | strategy |`);
console.log(`|---|---|---:|---:|---:|---|---:|---|`);
for (const c of cases.filter((c) => !only || only.has(c.set))) {
  const bytes = statSync(c.file).size;
  const limit = solverHeapLimitMb({ nodes: c.nodes, requestBytes: bytes }, DEFAULT_SOLVER_MAX_HEAP_MB);
  const run = spawnSync(
    process.execPath,
    [`--max-old-space-size=${limit}`, "--import", "tsx", "bench/solve-one.ts", c.file, values.time!],
    { cwd: root, encoding: "utf8", maxBuffer: 1 << 20 },
  );
  const line = run.stdout.trim().split("\n").pop() ?? "";
  let outcome = "crashed";
  let rss = "-";
  let strategy = "-";
  if (run.status === 0 && line.startsWith("{")) {
    const out = JSON.parse(line) as { feasible: boolean; peakRssMb: number; strategy: string };
    outcome = out.feasible ? "feasible" : "infeasible";
    rss = String(out.peakRssMb);
    strategy = out.strategy;
  } else if (/heap out of memory|Reached heap limit/.test(run.stderr)) {
    outcome = "out of memory";
  }
  console.log(`| ${c.set} | ${c.name} | ${c.nodes} | ${(bytes / 2 ** 20).toFixed(1)} | ${limit} | ${outcome} | ${rss} | ${strategy} |`);
}
