import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { loadStrategyModules } from "../../strategies/registry.js";
import { solveRequest, type SolveOptions, type SolveOutcome } from "../problem/solve-request.js";
import type { SolveRequestInput } from "../problem/request-types.js";
import type { SelectionRule } from "../../strategies/select.js";
import { ThreadProgressReporter } from "./progress-reporter.js";
import { solveHelpItem, type HelpWork } from "./help-solve.js";
import { ThreadHelpers } from "./thread-helpers.js";

interface ThreadConfig {
  strategyModules: string[];
  strategySelection: SelectionRule[] | null;
}
const threadConfig = (workerData as { config?: ThreadConfig }).config ?? { strategyModules: [], strategySelection: null };
// Each thread has its own module registry, so it loads the strategy modules itself (the worker's
// main thread loaded them once at start, so a broken module stops the worker there, not here).
await loadStrategyModules(threadConfig.strategyModules);

/** A message from the worker's main thread: one task to solve. */
export interface SolveJob {
  requestJson: string;
  options: Omit<SolveOptions, "shouldAbort" | "observer">;
  /** Post progress reports (at most one per this many ms) while solving; absent: none. */
  progressIntervalMs?: number;
  /** Int32Array over this buffer; the main thread stores 1 to ask the solver to stop early. */
  abortFlag: SharedArrayBuffer;
  /** The worker's help channel (help-coordinator.ts), for a cooperative strategy; absent: no help. */
  helpPort?: MessagePort;
}

/** Another worker's item to search (help-loop.ts); answered with a HelpReply. */
export interface HelpJob {
  help: HelpWork;
  abortFlag: SharedArrayBuffer;
}

/** `outOfMemory`: the thread reached its heap limit (set by the runner, never by the thread). */
export type SolveReply = { ok: true; outcome: SolveOutcome; solveSeconds: number } | { ok: false; error: string; outOfMemory?: boolean };

/**
 * Runs inside a worker_threads thread, so a long CPU-bound solve never blocks the main thread's
 * NATS traffic and its `working()` heartbeats.
 */
parentPort?.on("message", (job: SolveJob | HelpJob) => {
  const started = performance.now();
  const abort = new Int32Array(job.abortFlag);
  if ("help" in job) {
    parentPort?.postMessage(solveHelpItem(job.help, () => Atomics.load(abort, 0) === 1));
    return;
  }
  let reply: SolveReply;
  try {
    const request = JSON.parse(job.requestJson) as SolveRequestInput;
    const reporter = job.progressIntervalMs
      ? new ThreadProgressReporter(started, (m) => parentPort?.postMessage(m), job.progressIntervalMs)
      : null;
    const outcome = solveRequest(request, {
      ...job.options,
      shouldAbort: () => {
        reporter?.tick();
        return Atomics.load(abort, 0) === 1;
      },
      ...(reporter ? { observer: reporter } : {}),
      ...(threadConfig.strategySelection ? { selection: threadConfig.strategySelection } : {}),
      ...(job.helpPort ? { helpers: new ThreadHelpers(job.helpPort) } : {}),
    });
    reply = { ok: true, outcome, solveSeconds: (performance.now() - started) / 1000 };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  job.helpPort?.close();
  parentPort?.postMessage(reply);
});
