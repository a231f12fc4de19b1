import { Worker } from "node:worker_threads";
import type { HelpJob, SolveJob, SolveReply } from "./solve-thread.js";
import type { HelpReply, HelpWork } from "./help-solve.js";
import { isProgressMessage, type ProgressReport } from "./progress-reporter.js";
import { solverHeapLimitMb, type JobSize } from "./solver-heap.js";

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

const OUT_OF_MEMORY = "ERR_WORKER_OUT_OF_MEMORY";

function outOfMemoryMessage(maxHeapMb: number | null): string {
  const limit = maxHeapMb ? ` of ${maxHeapMb} MB (SOLVER_MAX_HEAP_MB)` : "";
  return (
    `the request needed more memory than the solver's limit${limit} and was stopped; ` +
    `send node_positions instead of a distance_matrix for large problems, or fewer nodes`
  );
}

/**
 * Owns one solver thread and runs one job at a time on it. A job that overruns its hard limit
 * gets the thread terminated (a strategy stuck in a loop cannot be interrupted any other way)
 * and a fresh thread is started for the next job.
 *
 * The thread's heap limit follows the job's size (solver-heap.ts), so that V8 collects close to
 * the live data instead of letting a large solve's RSS grow to several times it. A thread is
 * replaced only when a job needs more than its limit, or less than half of it: jobs of similar
 * sizes share one thread and its compiled code.
 */
export class SolverThreadRunner {
  private thread: Worker | null = null;
  /** The running thread's heap limit in MB; null: Node's default. */
  private threadLimitMb: number | null = null;
  private abortFlag: Int32Array | null = null;

  constructor(
    private readonly threadConfig: { strategyModules: string[]; strategySelection: unknown[] | null },
    /** The solver thread's largest V8 heap limit (SOLVER_MAX_HEAP_MB); null: Node's default for every job. */
    private readonly maxHeapMb: number | null = null,
    /** A job's heap limit from its size, at most maxHeapMb (replaceable in tests). */
    private readonly scaledLimitMb: (size: JobSize, maxMb: number) => number = solverHeapLimitMb,
  ) {}

  /** The current thread's heap limit in MB (null: no thread, or Node's default). */
  get currentLimitMb(): number | null {
    return this.thread ? this.threadLimitMb : null;
  }

  /** The heap limit for a job of this size; without a size (or without SOLVER_MAX_HEAP_MB): the maximum. */
  limitFor(size?: JobSize): number | null {
    return this.maxHeapMb && size ? Math.min(this.maxHeapMb, this.scaledLimitMb(size, this.maxHeapMb)) : this.maxHeapMb;
  }

  private fits(limitMb: number | null): boolean {
    const current = this.threadLimitMb;
    if (current === null || limitMb === null) return current === limitMb;
    return limitMb <= current && current < 2 * limitMb;
  }

  private async ensureThread(limitMb: number | null): Promise<Worker> {
    if (this.thread && !this.fits(limitMb)) await this.kill();
    if (!this.thread) {
      const resourceLimits = limitMb ? { maxOldGenerationSizeMb: limitMb } : undefined;
      this.thread = new Worker(THREAD_SCRIPT, {
        workerData: { entry: THREAD_ENTRY, config: this.threadConfig },
        ...(resourceLimits ? { resourceLimits } : {}),
      });
      this.thread.unref();
      this.threadLimitMb = limitMb;
    }
    return this.thread;
  }

  /**
   * Starts the thread ahead of the first job: the first task is not slowed by the thread's boot
   * (its own V8 instance and module loading, some 50-60 MB of RSS), and memory measured after
   * start-up already includes it rather than counting it as growth later.
   */
  warmUp(): void {
    void this.ensureThread(this.limitFor({ nodes: 0, requestBytes: 0 }));
  }

  /** Asks the running solve to stop and return its best solution so far. */
  requestAbort(): void {
    if (this.abortFlag) Atomics.store(this.abortFlag, 0, 1);
  }

  /**
   * Solves one job on a thread whose heap limit suits `size`. Should the job still run out of
   * memory under a limit below SOLVER_MAX_HEAP_MB, it is solved again under that maximum: a
   * scaled limit may cost time, never a solution.
   */
  async run(job: Omit<SolveJob, "abortFlag">, hardLimitMs: number, hooks: RunHooks = {}, size?: JobSize): Promise<SolveReply> {
    const limitMb = this.limitFor(size);
    const reply = await this.runOnThread(job, hardLimitMs, hooks, limitMb);
    const retry =
      !reply.ok && reply.outOfMemory && limitMb !== null && this.maxHeapMb !== null && limitMb < this.maxHeapMb && !hooks.stop?.aborted;
    // The help channel went to the thread with the first attempt: the retry solves without help.
    const { helpPort: _sent, ...again } = job;
    return retry ? this.runOnThread(again, hardLimitMs, hooks, this.maxHeapMb) : reply;
  }

  /** Searches another worker's item on the thread as it is (no restart for its size: items are small). */
  async runHelp(help: HelpWork, hardLimitMs: number, stop?: AbortSignal): Promise<HelpReply> {
    const limitMb = this.thread ? this.threadLimitMb : this.limitFor();
    const reply = await this.runOnThread({ help }, hardLimitMs, stop ? { stop } : {}, limitMb);
    return reply as HelpReply;
  }

  private async runOnThread(
    job: Omit<SolveJob, "abortFlag">,
    hardLimitMs: number,
    hooks: RunHooks,
    limitMb: number | null,
  ): Promise<SolveReply>;
  private async runOnThread(
    job: Omit<HelpJob, "abortFlag">,
    hardLimitMs: number,
    hooks: RunHooks,
    limitMb: number | null,
  ): Promise<HelpReply | SolveReply>;
  private async runOnThread(
    job: Omit<SolveJob, "abortFlag"> | Omit<HelpJob, "abortFlag">,
    hardLimitMs: number,
    hooks: RunHooks,
    limitMb: number | null,
  ): Promise<SolveReply | HelpReply> {
    const thread = await this.ensureThread(limitMb);
    const buffer = new SharedArrayBuffer(4);
    const abortFlag = new Int32Array(buffer);
    this.abortFlag = abortFlag;
    const stopNow = () => Atomics.store(abortFlag, 0, 1);
    if (hooks.stop?.aborted) stopNow();
    hooks.stop?.addEventListener("abort", stopNow);
    try {
      return await new Promise<SolveReply | HelpReply>((resolve) => {
        const timer = setTimeout(() => {
          cleanup();
          void this.kill();
          resolve({ ok: false, error: `the solver did not stop within ${Math.round(hardLimitMs / 1000)} s and was terminated` });
        }, hardLimitMs);
        const onMessage = (reply: SolveReply | HelpReply | unknown) => {
          if (isProgressMessage(reply)) {
            hooks.onProgress?.(reply.report);
            return;
          }
          cleanup();
          resolve(reply as SolveReply | HelpReply);
        };
        const onError = (err: Error) => {
          cleanup();
          this.thread = null;
          // V8 stops a thread that reaches its heap limit; the process and the next task are unaffected.
          const outOfMemory = (err as NodeJS.ErrnoException).code === OUT_OF_MEMORY;
          resolve(
            outOfMemory
              ? { ok: false, error: outOfMemoryMessage(limitMb), outOfMemory }
              : { ok: false, error: `the solver thread crashed: ${err.message}` },
          );
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
        const port = "helpPort" in job ? job.helpPort : undefined;
        thread.postMessage({ ...job, abortFlag: buffer } satisfies SolveJob | HelpJob, port ? [port] : []);
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
