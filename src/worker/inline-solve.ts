import { solverNow } from "../../strategies/core/clock.js";
import { selectStrategy, type SelectionRule } from "../../strategies/select.js";
import { compileRequest } from "../problem/compile-request.js";
import type { SolveRequestInput } from "../problem/request-types.js";
import { solveRequest } from "../problem/solve-request.js";
import type { SolveJob, SolveReply } from "./solve-thread.js";

/** Requests above this many nodes are not even parsed for the inline path (a cheap first cut). */
const INLINE_MAX_NODES = 12;
/**
 * The inline solve's own time limit: the exhaustive search ends in well under a millisecond on a
 * 3-customer request and in ~10 ms at its cap, so a deadline this short never cuts it; it only
 * bounds the phases that run after an enumeration that found nothing feasible.
 */
const INLINE_TIME_LIMIT_SECONDS = 0.25;
/**
 * Past this the inline solve is abandoned (the search is asked to stop) and its outcome thrown
 * away: the job then runs on the solver thread, as every other one does. Keeps the worker's main
 * thread (NATS traffic, heartbeats) from ever being blocked for longer than this.
 */
const INLINE_TRIPWIRE_MS = 40;

/**
 * A tiny problem that the exhaustive search (`exact`) takes is solved
 * right here on the worker's main thread. Handing it to the solver thread and back cost more than
 * the solve (two structured clones and a thread wake-up take milliseconds, the search a hundredth
 * of one), for the same result: the enumeration is complete, so the answer is the
 * proven optimum the thread would have found too.
 *
 * Only a complete enumeration's "solved" outcome is kept. Anything else (a pinned or selected
 * strategy other than `exact`, a plugin in the selection table, a cancel already asked for, an
 * enumeration that found no feasible solution, a solve that ran past INLINE_TRIPWIRE_MS, an
 * exception) answers null, and the caller runs the job on the solver thread as before, so
 * failures, progress reports, cancels and the hard time limit keep their thread semantics. A
 * crash of the whole process mid-solve is what a crashed worker always was: the message is
 * redelivered and the attempt counted (TaskRunner).
 */
export class InlineSolver {
  /** `tripwireMs`: INLINE_TRIPWIRE_MS in service; a test of the results alone lifts it, so that a cold start under load cannot trip it. */
  constructor(
    private readonly selection: readonly SelectionRule[] | null,
    private readonly tripwireMs = INLINE_TRIPWIRE_MS,
  ) {}

  /** The reply for `job`, solved on this thread, or null when it must go to the solver thread. */
  tryRun(job: Omit<SolveJob, "abortFlag">, stop?: AbortSignal): SolveReply | null {
    if (stop?.aborted) return null;
    try {
      const request = JSON.parse(job.requestJson) as SolveRequestInput;
      if (!this.takes(request, job.options.strategy)) return null;
      const started = performance.now();
      const tripAt = solverNow() + this.tripwireMs;
      let tripped = false;
      const outcome = solveRequest(request, {
        ...job.options,
        timeLimitSeconds: Math.min(job.options.timeLimitSeconds, INLINE_TIME_LIMIT_SECONDS),
        shouldAbort: () => (tripped ||= solverNow() >= tripAt),
        ...(this.selection ? { selection: this.selection } : {}),
      });
      const elapsedMs = performance.now() - started;
      if (tripped || elapsedMs >= this.tripwireMs || outcome.status !== "solved") return null;
      return { ok: true, outcome, solveSeconds: elapsedMs / 1000 };
    } catch {
      // Whatever went wrong, the thread path reports it as it always has.
      return null;
    }
  }

  /** Whether the exhaustive search is the strategy this request gets (pinned or selected). */
  private takes(request: SolveRequestInput, pinned: string | undefined): boolean {
    if (typeof request.node_num !== "number" || request.node_num > INLINE_MAX_NODES) return false;
    const strategy = pinned ?? request.strategy;
    if (strategy !== undefined && strategy !== null) return strategy === "exact";
    const { problem } = compileRequest(request);
    return selectStrategy(problem, this.selection ?? undefined).name === "exact";
  }
}
