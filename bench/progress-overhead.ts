/**
 * `node --import tsx bench/progress-overhead.ts`: what progress reporting costs the
 * search. Iteration counts of two variants are too noisy on a shared machine to show a cost this
 * small, so the probe itself is timed: examples/city-200.json is solved for BENCH_SECONDS
 * (default 3) with the solver thread's progress probe (a clock read per iteration; once a second
 * a report, with the best solution evaluated and formatted when it changed), and the time spent
 * inside the probe is summed. ROUNDS (default 3) runs per strategy; medians.
 */
import { readFileSync } from "node:fs";
import { solveRequest } from "../src/problem/solve-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { ThreadProgressReporter } from "../src/worker/progress-reporter.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const request = JSON.parse(readFileSync(new URL("../examples/city-200.json", import.meta.url), "utf8")) as SolveRequestInput;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function run(strategy: string): { probeMs: number; calls: number; reports: number; iterations: number; totalMs: number } {
  const stats = { iterations: 0 };
  let reports = 0;
  let probeMs = 0;
  let calls = 0;
  const started = performance.now();
  const reporter = new ThreadProgressReporter(started, () => reports++, 1000);
  solveRequest(request, {
    requestId: "bench",
    timeLimitSeconds: SECONDS,
    strategy,
    stats,
    observer: reporter,
    shouldAbort: () => {
      const t = performance.now();
      reporter.tick();
      probeMs += performance.now() - t;
      calls++;
      return false;
    },
  });
  return { probeMs, calls, reports, iterations: stats.iterations, totalMs: performance.now() - started };
}

console.log(`examples/city-200.json, ${SECONDS} s per run, ${ROUNDS} runs per strategy (medians)`);
console.log("strategy  probe calls  reports  time in probe  share of solve time");
for (const strategy of ["alns", "hgs"]) {
  const runs = Array.from({ length: ROUNDS }, () => run(strategy));
  const probe = median(runs.map((r) => r.probeMs));
  const share = median(runs.map((r) => (r.probeMs / r.totalMs) * 100));
  console.log(
    `${strategy.padEnd(8)}  ${String(median(runs.map((r) => r.calls))).padStart(11)} ` +
      ` ${String(median(runs.map((r) => r.reports))).padStart(7)}  ` +
      `${probe.toFixed(2).padStart(10)} ms  ${share.toFixed(3).padStart(17)} %`,
  );
}
