import type { JsMsg } from "@nats-io/jetstream";
import { taskEnvelope } from "../api/task-view.js";
import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import type { WorkerMetrics } from "../metrics/registry.js";
import type { Nats } from "../queue/connection.js";
import { NAMES } from "../queue/names.js";
import type { ProgressStore } from "../queue/progress-store.js";
import type { StoredTaskEvent, TaskEvents } from "../queue/task-events.js";
import type { TaskQueue } from "../queue/task-queue.js";
import type { TaskRecord } from "../queue/task-store.js";
import { dropIfGivenUp, takeDelivery } from "./take-delivery.js";
import { bookkeeping } from "./bookkeeping.js";
import type { AccountStore } from "../store/accounts.js";
import type { HistoryStore } from "../store/history.js";
import type { SolverThreadRunner } from "./solver-thread-runner.js";
import type { InlineSolver } from "./inline-solve.js";
import { finalRecord } from "./final-record.js";
import { TaskProgress } from "./task-progress.js";
import { profileStage } from "../infra/stage-profile.js";
import type { HelpCoordinator } from "./help-coordinator.js";

export interface TaskRunnerDeps {
  config: Readonly<Config>;
  log: Logger;
  nats: Nats;
  queue: TaskQueue;
  accounts: AccountStore;
  history: HistoryStore;
  metrics: WorkerMetrics;
  solver: SolverThreadRunner;
  /** Solves tiny problems on this thread instead of the solver thread's. */
  inline: InlineSolver;
  events: TaskEvents;
  progress: ProgressStore;
  /** Other workers' help for a cooperative strategy on a large task (help-coordinator.ts). */
  help?: HelpCoordinator;
}

/** Extra time past the task's own limit before a solve is considered hung and its thread killed. */
const HARD_LIMIT_GRACE_MS = 30_000;

/**
 * A first delivery's solve that ends within this is stored without a separate move to solving, so
 * a longer one logs its `solving` event this long after it started.
 */
export const QUICK_SOLVE_MS = 100;

/** At most one progress report a second. */
const PROGRESS_INTERVAL_MS = 1000;

export type TaskEnd = "acked" | "handed-back";

/**
 * One delivery's outcome. `tail`, when present, is the bookkeeping after the result was stored
 * (history, final event, callback, acknowledgement): it runs while the worker already solves the
 * next task, and hands the message back itself if it fails (resolving false; true once acknowledged).
 */
export interface TaskOutcome {
  end: TaskEnd;
  tail?: Promise<boolean>;
}

/** The task's record is gone or its admission was given up: the result was not stored. */
class TaskGone extends Error {
  constructor(id: string) {
    super(`task ${id}: its record is gone; the result was not stored`);
  }
}

/** A record as stored, with its revision (the next compare-and-set starts from it). */
type Stored = { record: TaskRecord; revision: number };

/**
 * A task's result, stored, and the writes (progress, events) that must precede its final event;
 * `solving`: the `solving` event of a quick task, logged together with its final event.
 */
interface Finished {
  stored: Stored;
  before: Promise<void>;
  solving?: StoredTaskEvent;
}

/**
 * Processes one delivery of one task: from queued to solved or failed, with the result stored
 * before anything is announced (final event, callback) and before the message is acknowledged,
 * so a crash at any point leads to a redelivery that either solves again or finds the stored
 * result and only finishes the bookkeeping, each step of which is idempotent.
 */
export class TaskRunner {
  private handBack = false;

  constructor(private readonly deps: TaskRunnerDeps) {}

  /** Called on shutdown when the grace period ran out: give the task back instead of finishing it. */
  handBackCurrent(): void {
    this.handBack = true;
    this.deps.solver.requestAbort();
  }

  async process(m: JsMsg): Promise<TaskOutcome> {
    const { log, queue, metrics, config } = this.deps;
    const taken = await takeDelivery(m, { queue, log, nc: this.deps.nats.nc, admissionDeadlineMs: config.worker.admissionDeadlineMs });
    if (taken.kind === "ended") return { end: taken.end };
    const { found, requestRead, requestInMessage, queuedSeq, historyEntry, log: taskLog } = taken;
    const task = found.record;
    const delivery = m.info.deliveryCount;
    if (delivery > 1) metrics.redeliveries.inc();

    const heartbeat = setInterval(() => m.working(), Math.max(500, Math.floor(config.worker.ackWaitMs / 3)));
    try {
      let finished: Finished | null =
        task.state === "solved" || task.state === "failed" ? { stored: found, before: Promise.resolve() } : null;
      if (!finished && task.solveAttempts >= config.worker.maxDeliveries) {
        finished = { stored: await this.deadLetter(found, taskLog), before: Promise.resolve() };
      }
      if (!finished) {
        finished = await this.solve(found, delivery, taskLog, requestRead);
        if (finished === null) {
          clearInterval(heartbeat);
          if (await dropIfGivenUp(m, task.id, { queue, log: taskLog })) return { end: "acked" };
          m.nak();
          return { end: "handed-back" };
        }
      }
      const ended = { task: finished.stored.record, requestInMessage, solving: finished.solving, queuedSeq, historyEntry };
      const tail = bookkeeping(m, ended, finished.before, this.deps, taskLog).finally(() => clearInterval(heartbeat));
      return { end: "acked", tail };
    } catch (err) {
      clearInterval(heartbeat);
      if (err instanceof TaskGone && (await dropIfGivenUp(m, task.id, { queue, log: taskLog }))) return { end: "acked" };
      throw err;
    }
  }

  private async solve(found: Stored, delivery: number, log: Logger, requestRead: Promise<Uint8Array | null>): Promise<Finished | null> {
    const task = found.record;
    const progress = new TaskProgress(task, this.deps.progress, this.deps.events, log, delivery === 1);
    // Subscribed before the task moves to solving: a cancel recorded before that move is read from
    // the record below, and one recorded after it finds this subscription in place.
    const cancel = new AbortController();
    const cancelSubscription = this.deps.nats.nc.subscribe(`${NAMES.cancelSubjectPrefix}.${task.id}`, { callback: () => cancel.abort() });
    try {
      return await this.solveWith(found, delivery, log, progress, cancel, requestRead);
    } finally {
      cancelSubscription.unsubscribe();
    }
  }

  private async solveWith(
    found: Stored,
    delivery: number,
    log: Logger,
    progress: TaskProgress,
    cancel: AbortController,
    requestRead: Promise<Uint8Array | null>,
  ): Promise<Finished | null> {
    const { queue, metrics, solver } = this.deps;
    const task = found.record;
    this.before = Promise.resolve();
    // A task's first delivery starts solving at once and is moved to
    // solving only if it is still running after QUICK_SOLVE_MS; a quick one is stored as solved
    // straight from `queued`, one compare-and-set instead of two. The attempt is counted (for the
    // poison-task rule) in that same write, so only a crash within the first QUICK_SOLVE_MS of a
    // first delivery goes uncounted, and every redelivery takes the counted path.
    const quick = delivery === 1 && task.state === "queued" && task.solveAttempts === 0 && !task.cancelRequested;
    let moved: Stored | null = null;
    if (!quick) {
      const early = await this.moveToSolving(found, log, progress, cancel);
      if (!early || "finished" in early) return early ? early.finished : null;
      moved = early.moved;
    }
    // On its first solve, not its first delivery: a message handed back by a worker that took it
    // ahead (ConsumeLoop.prefetch) or before its record existed comes again as a later delivery.
    if (task.solveAttempts === 0) metrics.queuedDuration.observe((Date.now() - Date.parse(task.submittedAt)) / 1000);
    log.info("solving", { delivery, time_limit_seconds: task.timeLimitSeconds });

    const requestBytes = await requestRead;
    profileStage(task.id, "w.bodyRead");
    metrics.inProgress.inc();
    const started = performance.now();
    const attempt: TaskRecord = moved?.record ?? { ...task, state: "solving", solveAttempts: task.solveAttempts + 1 };
    let next: TaskRecord;
    try {
      if (!requestBytes) {
        next = {
          ...attempt,
          state: "failed",
          code: "task_failed",
          error: "The task's request body is no longer available",
          diagnostics: [],
        };
      } else {
        const job = {
          requestJson: Buffer.from(requestBytes).toString("utf8"),
          options: {
            requestId: task.id,
            timeLimitSeconds: task.timeLimitSeconds,
            ...(task.strategy ? { strategy: task.strategy } : {}),
            ...(task.seed !== undefined ? { seed: task.seed } : {}),
          },
          progressIntervalMs: PROGRESS_INTERVAL_MS,
        };
        // A tiny problem the exhaustive search takes is solved right here (inline-solve.ts).
        const inline = this.deps.inline.tryRun(job, cancel.signal);
        const help = inline ? undefined : this.deps.help?.open(task.nodeNum);
        const running = inline
          ? Promise.resolve(inline)
          : solver.run(
              help ? { ...job, helpPort: help.port } : job,
              task.timeLimitSeconds * 1000 + HARD_LIMIT_GRACE_MS,
              { onProgress: (report) => progress.report(report), stop: cancel.signal },
              { nodes: task.nodeNum, requestBytes: requestBytes.byteLength },
            );
        running.finally(() => help?.close()).catch(() => undefined);
        if (!moved) {
          let timer: NodeJS.Timeout | undefined;
          const done = await Promise.race([
            running.then(() => true),
            new Promise<boolean>((r) => (timer = setTimeout(() => r(false), QUICK_SOLVE_MS))),
          ]);
          clearTimeout(timer);
          if (!done) {
            const late = await this.moveToSolving(found, log, progress, cancel);
            if (!late || "finished" in late) {
              // Gone, or finished by another delivery meanwhile: this solve is not needed.
              cancel.abort();
              await running;
              return late ? late.finished : null;
            }
            moved = late.moved;
          }
        }
        const reply = await running;
        if (this.handBack) {
          // Handed back on purpose, not a crash: the attempt does not count towards dead-lettering.
          await this.before;
          await progress.finish();
          const queued = await queue.store.update(task.id, (t) =>
            t.state === "solving" ? { ...t, state: "queued", solveAttempts: Math.max(0, t.solveAttempts - 1) } : null,
          );
          if (queued?.state === "queued")
            await this.deps.events.publish(task.id, "queued", taskEnvelope(queued, null)).catch(() => undefined);
          log.info("handed back on shutdown");
          return null;
        }
        next = finalRecord(moved?.record ?? attempt, reply, cancel.signal.aborted);
      }
    } finally {
      metrics.inProgress.dec();
    }
    const strategy = next.result?.strategy ?? "none";
    metrics.solveDuration.observe({ strategy, outcome: next.state }, (performance.now() - started) / 1000);
    metrics.completed.inc({ outcome: next.state });
    profileStage(task.id, "w.solved");
    const wrote = { ours: false };
    const stored = await this.storeFinal(next, moved ?? found, wrote);
    profileStage(task.id, "w.stored");
    // A quick task's log still reads queued, solving, solved: its `solving` event goes out with
    // the final event, in one batch (not if a cancel ended it meanwhile).
    const solving = !moved && wrote.ours ? progress.solvingEvent(attempt) : undefined;
    log.info("task finished", { state: stored.record.state, total_cost: stored.record.result?.total_cost, error: stored.record.error });
    return { stored, before: this.before.then(() => progress.finish()), solving };
  }

  /** Writes of the current solving attempt (progress entry, `solving` event, history state) that must precede its final event. */
  private before: Promise<void> = Promise.resolve();

  /**
   * Moves the task to solving and counts the attempt; then, while the solver runs, resets a
   * crashed attempt's progress entry and logs the `solving` event and the history's state (the
   * final event waits for them, so the log keeps its order; none decides anything). Resolves with
   * the moved record, with the stored record when another delivery finished the task, or null
   * when there is no record.
   */
  private async moveToSolving(
    found: Stored,
    log: Logger,
    progress: TaskProgress,
    cancel: AbortController,
  ): Promise<{ moved: Stored } | { finished: Finished } | null> {
    const task = found.record;
    const moved = await this.deps.queue.store.updateKnown(task.id, found, (t) =>
      t.state === "queued" || t.state === "solving" ? { ...t, state: "solving", solveAttempts: t.solveAttempts + 1 } : null,
    );
    if (!moved) return null;
    profileStage(task.id, "w.movedToSolving");
    const solving = moved.record;
    if (solving.state !== "solving") return { finished: { stored: moved, before: Promise.resolve() } };
    if (solving.cancelRequested) cancel.abort();
    this.before = (async () => {
      // A redelivered task may have a progress entry from the crashed attempt.
      if (task.solveAttempts > 0) await progress.reset().catch((err: unknown) => log.warn("progress entry not reset", { err }));
      await progress.solvingStarted(solving).catch((err: unknown) => log.warn("solving event not logged", { err }));
      await this.deps.history.setState(solving).catch(() => undefined);
    })();
    return { moved };
  }

  /**
   * Writes the final state unless another delivery got there first; resolves with what is stored.
   * A record that is gone is an error (the message is handed back), never "someone finished it".
   */
  private async storeFinal(next: TaskRecord, known: Stored, wrote: { ours: boolean } = { ours: false }): Promise<Stored> {
    const stored = await this.deps.queue.store.updateKnown(next.id, known, (t) => {
      wrote.ours = !(t.state === "solved" || t.state === "failed");
      return wrote.ours ? { ...next, callback: t.callback, cancelRequested: t.cancelRequested } : null;
    });
    if (!stored) throw new TaskGone(next.id);
    return stored;
  }

  /** A task that crashed or hung every worker that took it: failed on purpose, copied aside. */
  private async deadLetter(found: Stored, log: Logger): Promise<Stored> {
    const { nats, metrics } = this.deps;
    const task = found.record;
    const attempts = task.solveAttempts;
    const failed: TaskRecord = {
      ...task,
      state: "failed",
      code: "task_failed",
      error: `The task was abandoned after ${attempts} attempts: each worker that took it crashed or stopped responding`,
      diagnostics: [],
    };
    await nats.js.publish(NAMES.deadLetterSubject, JSON.stringify({ taskId: task.id, deliveries: attempts, at: new Date().toISOString() }));
    metrics.deadLettered.inc();
    metrics.completed.inc({ outcome: "failed" });
    log.warn("task dead-lettered", { attempts });
    return this.storeFinal(failed, found);
  }
}
