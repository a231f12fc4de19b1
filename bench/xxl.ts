/**
 * The XXL benchmark (Arnold, Gendreau and Sorensen 2019; 3,000 to 30,000 customers), protocol of
 * shared/benchmarks: 60 s up to 10,000 customers, 120 s above, one thread. Each instance runs in
 * its own process (bench/solve-one.ts), so its peak RSS is its own:
 * `npm run bench:xxl [-- --only NAME,... --time S --strategy NAME --no-heap-limit]`.
 * The process gets the V8 heap limit a worker's solver thread would get for the same request
 * (src/worker/solver-heap.ts, with SOLVER_MAX_HEAP_MB's default), so its peak RSS is the
 * service's; `--no-heap-limit` leaves Node's default.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { solverHeapLimitMb } from "../src/worker/solver-heap.js";
import { DEFAULT_SOLVER_MAX_HEAP_MB } from "../src/config/load.js";

const { values } = parseArgs({
  options: { only: { type: "string" }, time: { type: "string" }, strategy: { type: "string" }, "no-heap-limit": { type: "boolean" } },
});
const root = fileURLToPath(new URL("../", import.meta.url));
const benchDir = process.env.BENCH_DIR ?? resolve(root, "../shared/benchmarks");
const manifest = JSON.parse(readFileSync(join(benchDir, "manifest.json"), "utf8")) as {
  name: string;
  set: string;
  n_customers: number;
  bks: number;
  request: string;
}[];
const only = values.only ? new Set(values.only.split(",")) : null;
const entries = manifest.filter((e) => e.set === "XXL" && (!only || only.has(e.name)));

console.log(
  `| instance | customers | best known (real-valued) | ours | gap % | first feasible s | time s | peak RSS MB | heap limit MB | strategy |`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---|`);
const gaps: number[] = [];
for (const entry of entries) {
  const seconds = values.time ? Number(values.time) : entry.n_customers <= 10_000 ? 60 : 120;
  const request = join(benchDir, entry.request);
  const heapMb = solverHeapLimitMb({ nodes: entry.n_customers + 1, requestBytes: statSync(request).size }, DEFAULT_SOLVER_MAX_HEAP_MB);
  const heapArgs = values["no-heap-limit"] ? [] : [`--max-old-space-size=${heapMb}`];
  const args = [
    ...heapArgs,
    "--import",
    "tsx",
    "bench/solve-one.ts",
    request,
    String(seconds),
    ...(values.strategy ? [values.strategy] : []),
  ];
  const out = JSON.parse(
    execFileSync(process.execPath, args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 20 })
      .trim()
      .split("\n")
      .pop()!,
  ) as {
    strategy: string;
    feasible: boolean;
    cost: number;
    seconds: number;
    firstFeasibleSeconds: number | null;
    peakRssMb: number;
  };
  const gap = (100 * (out.cost - entry.bks)) / entry.bks;
  if (out.feasible) gaps.push(gap);
  console.log(
    `| ${entry.name} | ${entry.n_customers} | ${entry.bks} | ` +
      `${out.feasible ? out.cost.toFixed(1) : "infeasible"} | ` +
      `${out.feasible ? gap.toFixed(2) : "-"} | ` +
      `${out.firstFeasibleSeconds?.toFixed(1) ?? "-"} | ${out.seconds.toFixed(1)} | ` +
      `${out.peakRssMb} | ${heapArgs.length ? heapMb : "default"} | ${out.strategy} |`,
  );
}
const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
console.log(`\nXXL: feasible ${gaps.length}/${entries.length}, mean gap ${mean.toFixed(2)}%`);
