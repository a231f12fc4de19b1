import { Worker } from "node:worker_threads";
import type { SolveJob, SolveReply } from "./solve-thread.js";

const BOOT_URL = new URL("./thread-boot.mjs", import.meta.url);
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
      this.thread = new Worker(BOOT_URL, { workerData: { entry: THREAD_ENTRY, config: this.threadConfig }, ...(resourceLimits ? { resourceLimits } : {}) });
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

  async run(job: Omit<SolveJob, "abortFlag">, hardLimitMs: number): Promise<SolveReply> {
    const thread = this.ensureThread();
    const buffer = new SharedArrayBuffer(4);
    this.abortFlag = new Int32Array(buffer);
    try {
      return await new Promise<SolveReply>((resolve) => {
        const timer = setTimeout(() => {
          cleanup();
          void this.kill();
          resolve({ ok: false, error: `the solver did not stop within ${Math.round(hardLimitMs / 1000)} s and was terminated` });
        }, hardLimitMs);
        const onMessage = (reply: SolveReply) => {
          cleanup();
          resolve(reply);
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
      this.abortFlag = null;
    }
  }

  async kill(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.terminate();
  }
}
