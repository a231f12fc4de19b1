import { Worker } from "node:worker_threads";
import type { SolveJob, SolveReply } from "./solve-thread.js";
import { isProgressMessage, type ProgressReport } from "./progress-reporter.js";

/** Optional companions of one job: progress reports, and a signal that stops the search early. */
export interface RunHooks {
  onProgress?: (report: ProgressReport) => void;
  /** Aborting it asks the solver to stop and return its best solution so far (a cancel). */
  stop?: AbortSignal;
}

/**
 * Compiled (dist/, production) the thread runs solve-thread.js as it is. From source (tsx: tests,
 * benchmarks) it starts through thread-boot.mjs, which registers tsx in the thread first.
 */
const FROM_SOURCE = import.meta.url.endsWith(".ts");
const THREAD_SCRIPT = FROM_SOURCE ? new URL("./thread-boot.mjs", import.meta.url) : new URL("./solve-thread.js", import.meta.url);
const THREAD_ENTRY = new URL("./solve-thread.ts", import.meta.url).href;

function outOfMemoryMessage(maxHeapMb: number | null): string {
  const limit = maxHeapMb ? ` of ${maxHeapMb} MB (SOLVER_MAX_HEAP_MB)` : "";
  return `the request needed more memory than the solver's limit${limit} and was stopped; send node_positions instead of a distance_matrix for large problems, or fewer nodes`;
}

/**
 * Owns one solver thread and runs one job at a time on it. A job that overruns its hard limit
 * gets the thread terminated (a strategy stuck in a loop cannot be interrupted any other way)
 * and a fresh thread is started for the next job.
 */
export class SolverThreadRunner {
  private thread: Worker | null = null;
  private abortFlag: Int32Array | null = null;

  constructor(
    private readonly threadConfig: { extraStrategyModules: string[]; strategySelection: unknown[] | null },
    /** The solver thread's V8 heap limit (worker_threads resourceLimits); null: Node's default. */
    private readonly maxHeapMb: number | null = null,
  ) {}

  private ensureThread(): Worker {
    if (!this.thread) {
      const resourceLimits = this.maxHeapMb ? { maxOldGenerationSizeMb: this.maxHeapMb } : undefined;
      this.thread = new Worker(THREAD_SCRIPT, { workerData: { entry: THREAD_ENTRY, config: this.threadConfig }, ...(resourceLimits ? { resourceLimits } : {}) });
      this.thread.unref();
    }
    return this.thread;
  }

  /**
   * Starts the thread ahead of the first job: the first task is not slowed by the thread's boot
   * (its own V8 instance and module loading, some 50-60 MB of RSS), and memory measured after
   * start-up already includes it rather than counting it as growth later.
   */
  warmUp(): void {
    this.ensureThread();
  }

  /** Asks the running solve to stop and return its best solution so far. */
  requestAbort(): void {
    if (this.abortFlag) Atomics.store(this.abortFlag, 0, 1);
  }

  async run(job: Omit<SolveJob, "abortFlag">, hardLimitMs: number, hooks: RunHooks = {}): Promise<SolveReply> {
    const thread = this.ensureThread();
    const buffer = new SharedArrayBuffer(4);
    const abortFlag = new Int32Array(buffer);
    this.abortFlag = abortFlag;
    const stopNow = () => Atomics.store(abortFlag, 0, 1);
    if (hooks.stop?.aborted) stopNow();
    hooks.stop?.addEventListener("abort", stopNow);
    try {
      return await new Promise<SolveReply>((resolve) => {
        const timer = setTimeout(() => {
          cleanup();
          void this.kill();
          resolve({ ok: false, error: `the solver did not stop within ${Math.round(hardLimitMs / 1000)} s and was terminated` });
        }, hardLimitMs);
        const onMessage = (reply: SolveReply | unknown) => {
          if (isProgressMessage(reply)) {
            hooks.onProgress?.(reply.report);
            return;
          }
          cleanup();
          resolve(reply as SolveReply);
        };
        const onError = (err: Error) => {
          cleanup();
          this.thread = null;
          // V8 stops a thread that reaches its heap limit; the process and the next task are unaffected.
          const outOfMemory = (err as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
          resolve({ ok: false, error: outOfMemory ? outOfMemoryMessage(this.maxHeapMb) : `the solver thread crashed: ${err.message}` });
        };
        const onExit = (code: number) => {
          cleanup();
          this.thread = null;
          resolve({ ok: false, error: `the solver thread exited unexpectedly (code ${code})` });
        };
        const cleanup = () => {
          clearTimeout(timer);
          thread.off("message", onMessage);
          thread.off("error", onError);
          thread.off("exit", onExit);
        };
        thread.on("message", onMessage);
        thread.on("error", onError);
        thread.on("exit", onExit);
        thread.postMessage({ ...job, abortFlag: buffer } satisfies SolveJob);
      });
    } finally {
      hooks.stop?.removeEventListener("abort", stopNow);
      this.abortFlag = null;
    }
  }

  async kill(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.terminate();
  }
}
