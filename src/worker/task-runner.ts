import type { JsMsg } from "@nats-io/jetstream";
import { taskEnvelope } from "../api/task-view.js";
import { sendCallbackOnce } from "../callbacks/send-once.js";
import { MESSAGES } from "../errors/codes.js";
import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import type { WorkerMetrics } from "../metrics/registry.js";
import type { Nats } from "../queue/connection.js";
import { NAMES } from "../queue/names.js";
import type { ProgressStore } from "../queue/progress-store.js";
import type { TaskEvents } from "../queue/task-events.js";
import type { TaskMessage, TaskQueue } from "../queue/task-queue.js";
import type { TaskRecord } from "../queue/task-store.js";
import { awaitAdmission } from "./await-admission.js";
import type { AccountStore } from "../store/accounts.js";
import type { HistoryStore } from "../store/history.js";
import type { SolveReply } from "./solve-thread.js";
import type { SolverThreadRunner } from "./solver-thread-runner.js";
import { TaskProgress } from "./task-progress.js";

export interface TaskRunnerDeps {
  config: Readonly<Config>;
  log: Logger;
  nats: Nats;
  queue: TaskQueue;
  accounts: AccountStore;
  history: HistoryStore;
  metrics: WorkerMetrics;
  solver: SolverThreadRunner;
  events: TaskEvents;
  progress: ProgressStore;
}

/** Extra time past the task's own limit before a solve is considered hung and its thread killed. */
const HARD_LIMIT_GRACE_MS = 30_000;

/** At most one progress report a second (issue 13). */
const PROGRESS_INTERVAL_MS = 1000;

export type TaskEnd = "acked" | "handed-back";

/**
 * One delivery's outcome. `tail`, when present, is the bookkeeping after the result was stored
 * (history, final event, callback, acknowledgement): it runs while the worker already solves the
 * next task, and hands the message back itself if it fails.
 */
export interface TaskOutcome {
  end: TaskEnd;
  tail?: Promise<void>;
}

/** A record as stored, with its revision (the next compare-and-set starts from it). */
type Stored = { record: TaskRecord; revision: number };

/** A task's result, stored, and the writes (progress, events) that must precede its final event. */
interface Finished {
  stored: Stored;
  before: Promise<void>;
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
    let message: TaskMessage;
    try {
      message = JSON.parse(m.string()) as TaskMessage;
    } catch {
      log.error("malformed task message dropped", { seq: m.seq });
      await m.ackAck().catch(() => m.ack());
      return { end: "acked" };
    }
    const taskLog = log.child({ task_id: message.taskId });
    const admission = await awaitAdmission(m, message, { queue, log: taskLog, deadlineMs: config.worker.admissionDeadlineMs });
    if (admission.kind !== "live") return { end: admission.kind === "dropped" ? "acked" : "handed-back" };
    const found = admission.found;
    const task = found.record;
    const delivery = m.info.deliveryCount;
    if (delivery > 1) metrics.redeliveries.inc();

    const heartbeat = setInterval(() => m.working(), Math.max(500, Math.floor(config.worker.ackWaitMs / 3)));
    try {
      let finished: Finished | null = task.state === "solved" || task.state === "failed" ? { stored: found, before: Promise.resolve() } : null;
      if (!finished && task.solveAttempts >= config.worker.maxDeliveries) {
        finished = { stored: await this.deadLetter(found, taskLog), before: Promise.resolve() };
      }
      if (!finished) {
        finished = await this.solve(found, delivery, taskLog);
        if (finished === null) {
          clearInterval(heartbeat);
          m.nak();
          return { end: "handed-back" };
        }
      }
      const tail = this.bookkeeping(m, finished, taskLog).finally(() => clearInterval(heartbeat));
      return { end: "acked", tail };
    } catch (err) {
      clearInterval(heartbeat);
      throw err;
    }
  }

  /**
   * Everything after the stored result, each step idempotent so a redelivery can repeat it: the
   * history entry (repaired if a failover lost it), the final event (exactly one), the callback
   * (at most one, and only for a stored result), then the acknowledgement. A failing step hands
   * the message back for another try rather than leaving the history or the events short.
   */
  private async bookkeeping(m: JsMsg, finished: Finished, log: Logger): Promise<void> {
    const { queue, config, metrics } = this.deps;
    const task = finished.stored.record;
    try {
      await finished.before;
      const body = taskEnvelope(task, null);
      await Promise.all([this.deps.history.finish(task, body), this.deps.events.publishFinalOnce(task.id, task.state === "solved" ? "solved" : "failed", body)]);
      const sent = await sendCallbackOnce(task, { store: queue.store, accounts: this.deps.accounts, config, log });
      if (sent) metrics.callbacks.inc({ outcome: sent.outcome });
      await m.ackAck().catch(() => m.ack());
    } catch (err) {
      log.warn("bookkeeping after the result failed; handing the message back", { err });
      try {
        m.nak(1000);
      } catch {
        /* connection gone: ack_wait will redeliver it */
      }
    }
  }

  private async solve(found: Stored, delivery: number, log: Logger): Promise<Finished | null> {
    const task = found.record;
    const progress = new TaskProgress(task, this.deps.progress, this.deps.events, log);
    // Subscribed before the task moves to solving: a cancel recorded before that move is read from
    // the record below, and one recorded after it finds this subscription in place.
    const cancel = new AbortController();
    const cancelSubscription = this.deps.nats.nc.subscribe(`${NAMES.cancelSubjectPrefix}.${task.id}`, { callback: () => cancel.abort() });
    try {
      return await this.solveWith(found, delivery, log, progress, cancel);
    } finally {
      cancelSubscription.unsubscribe();
    }
  }

  private async solveWith(found: Stored, delivery: number, log: Logger, progress: TaskProgress, cancel: AbortController): Promise<Finished | null> {
    const { queue, metrics, solver, history } = this.deps;
    const task = found.record;
    // The request body is read alongside the move to solving: one round trip, not two.
    const requestRead = queue.loadRequest(task.id);
    requestRead.catch(() => undefined);
    const moved = await queue.store.updateKnown(task.id, found, (t) =>
      t.state === "queued" || t.state === "solving" ? { ...t, state: "solving", solveAttempts: t.solveAttempts + 1 } : null,
    );
    if (!moved) return null;
    const solving = moved.record;
    if (solving.state !== "solving") return { stored: moved, before: Promise.resolve() };
    if (solving.cancelRequested) cancel.abort();
    // The progress entry, the `solving` event and the history's state are written while the solver
    // runs (the final event waits for them, so the log keeps its order); none decides anything.
    let before: Promise<void> = (async () => {
      // A redelivered task may have a progress entry from the crashed attempt.
      if (task.solveAttempts > 0) await progress.reset().catch((err: unknown) => log.warn("progress entry not reset", { err }));
      await progress.solvingStarted(solving).catch((err: unknown) => log.warn("solving event not logged", { err }));
      await history.setState(solving).catch(() => undefined);
    })();
    if (delivery === 1) metrics.queuedDuration.observe((Date.now() - Date.parse(task.submittedAt)) / 1000);
    log.info("solving", { delivery, time_limit_seconds: task.timeLimitSeconds });

    const requestBytes = await requestRead;
    metrics.inProgress.inc();
    const started = performance.now();
    let next: TaskRecord;
    try {
      if (!requestBytes) {
        next = { ...solving, state: "failed", code: "task_failed", error: "The task's request body is no longer available", diagnostics: [] };
      } else {
        const reply = await solver.run(
          {
            requestJson: Buffer.from(requestBytes).toString("utf8"),
            options: {
              requestId: task.id,
              timeLimitSeconds: task.timeLimitSeconds,
              ...(task.strategy ? { strategy: task.strategy } : {}),
              ...(task.seed !== undefined ? { seed: task.seed } : {}),
            },
            progressIntervalMs: PROGRESS_INTERVAL_MS,
          },
          task.timeLimitSeconds * 1000 + HARD_LIMIT_GRACE_MS,
          { onProgress: (report) => progress.report(report), stop: cancel.signal },
        );
        if (this.handBack) {
          // Handed back on purpose, not a crash: the attempt does not count towards dead-lettering.
          await before;
          await progress.finish();
          const queued = await queue.store.update(task.id, (t) => (t.state === "solving" ? { ...t, state: "queued", solveAttempts: Math.max(0, t.solveAttempts - 1) } : null));
          if (queued?.state === "queued") await this.deps.events.publish(task.id, "queued", taskEnvelope(queued, null)).catch(() => undefined);
          log.info("handed back on shutdown");
          return null;
        }
        next = finalRecord(solving, reply, cancel.signal.aborted);
      }
    } finally {
      metrics.inProgress.dec();
    }
    const strategy = next.result?.strategy ?? "none";
    metrics.solveDuration.observe({ strategy, outcome: next.state }, (performance.now() - started) / 1000);
    metrics.completed.inc({ outcome: next.state });
    const stored = await this.storeFinal(next, moved);
    before = before.then(() => progress.finish());
    log.info("task finished", { state: stored.record.state, total_cost: stored.record.result?.total_cost, error: stored.record.error });
    return { stored, before };
  }

  /**
   * Writes the final state unless another delivery got there first; resolves with what is stored.
   * A record that is gone is an error (the message is handed back), never "someone finished it".
   */
  private async storeFinal(next: TaskRecord, known: Stored): Promise<Stored> {
    const stored = await this.deps.queue.store.updateKnown(next.id, known, (t) =>
      t.state === "solved" || t.state === "failed" ? null : { ...next, callback: t.callback, cancelRequested: t.cancelRequested },
    );
    if (!stored) throw new Error(`task ${next.id}: its record is gone; the result was not stored`);
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

/**
 * The task's final record from the solver's reply. A cancelled solve keeps its best feasible
 * solution, marked as stopped by the caller, or fails with the cancel as its reason.
 */
function finalRecord(solving: TaskRecord, reply: SolveReply, cancelled: boolean): TaskRecord {
  if (reply.ok && reply.outcome.status === "solved") {
    return { ...solving, state: "solved", result: cancelled ? { ...reply.outcome.result, stopped: "cancelled" } : reply.outcome.result };
  }
  if (cancelled) {
    const diagnostics = reply.ok && reply.outcome.status === "failed" ? reply.outcome.diagnostics : [];
    return { ...solving, state: "failed", code: "cancelled", error: MESSAGES.cancelledByCaller, diagnostics };
  }
  if (!reply.ok) return { ...solving, state: "failed", code: "task_failed", error: `The solver failed: ${reply.error}`, diagnostics: [] };
  const failure = reply.outcome as Extract<typeof reply.outcome, { status: "failed" }>;
  return {
    ...solving,
    state: "failed",
    code: "no_feasible_solution",
    error: failure.error,
    diagnostics: failure.diagnostics,
    ...(failure.infeasibilities.length > 0 ? { infeasibilities: failure.infeasibilities } : {}),
  };
}
