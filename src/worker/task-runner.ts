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
 * Processes one delivery of one task: from queued to solved or failed, with the result stored
 * before the message is acknowledged, so a crash at any point leads to a redelivery that either
 * solves again or finds the stored result and only finishes the bookkeeping.
 */
export class TaskRunner {
  private handBack = false;

  constructor(private readonly deps: TaskRunnerDeps) {}

  /** Called on shutdown when the grace period ran out: give the task back instead of finishing it. */
  handBackCurrent(): void {
    this.handBack = true;
    this.deps.solver.requestAbort();
  }

  async process(m: JsMsg): Promise<TaskEnd> {
    const { log, queue, metrics, config } = this.deps;
    let message: TaskMessage;
    try {
      message = JSON.parse(m.string()) as TaskMessage;
    } catch {
      log.error("malformed task message dropped", { seq: m.seq });
      m.term("malformed task message");
      return "acked";
    }
    const taskLog = log.child({ task_id: message.taskId });
    const task = await queue.store.get(message.taskId);
    if (!task) {
      taskLog.warn("task record missing (expired?); message dropped");
      m.term("task record missing");
      return "acked";
    }
    const delivery = m.info.deliveryCount;
    if (delivery > 1) metrics.redeliveries.inc();

    const heartbeat = setInterval(() => m.working(), Math.max(500, Math.floor(config.worker.ackWaitMs / 3)));
    try {
      let finished: TaskRecord | null = task.state === "solved" || task.state === "failed" ? task : null;
      if (!finished && task.solveAttempts >= config.worker.maxDeliveries) {
        finished = await this.deadLetter(task, taskLog);
      }
      if (!finished) {
        const solved = await this.solve(task, delivery, taskLog);
        if (solved === null) {
          m.nak();
          return "handed-back";
        }
        finished = solved;
      }
      // The final event is logged by whoever first sees the task finished (usually right here).
      await this.deps.events
        .publishFinalOnce(finished.id, finished.state === "solved" ? "solved" : "failed", taskEnvelope(finished, null))
        .catch((err: unknown) => taskLog.warn("final event not logged", { err }));
      const sent = await sendCallbackOnce(finished, { store: queue.store, accounts: this.deps.accounts, config, log: taskLog });
      if (sent) metrics.callbacks.inc({ outcome: sent.outcome });
      await m.ackAck().catch(() => m.ack());
      return "acked";
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async solve(task: TaskRecord, delivery: number, log: Logger): Promise<TaskRecord | null> {
    const progress = new TaskProgress(task, this.deps.progress, this.deps.events, log);
    await progress.reset().catch((err: unknown) => log.warn("progress entry not reset", { err }));
    // Subscribed before the task moves to solving: a cancel recorded before that move is read from
    // the record below, and one recorded after it finds this subscription in place.
    const cancel = new AbortController();
    const cancelSubscription = this.deps.nats.nc.subscribe(`${NAMES.cancelSubjectPrefix}.${task.id}`, { callback: () => cancel.abort() });
    try {
      return await this.solveWith(task, delivery, log, progress, cancel);
    } finally {
      cancelSubscription.unsubscribe();
      await progress.finish();
    }
  }

  private async solveWith(task: TaskRecord, delivery: number, log: Logger, progress: TaskProgress, cancel: AbortController): Promise<TaskRecord | null> {
    const { queue, metrics, solver, history } = this.deps;
    const solving = await queue.store.update(task.id, (t) =>
      t.state === "queued" || t.state === "solving" ? { ...t, state: "solving", solveAttempts: t.solveAttempts + 1 } : null,
    );
    if (!solving) return null;
    if (solving.state !== "solving") return solving;
    if (solving.cancelRequested) cancel.abort();
    await progress.solvingStarted(solving).catch((err: unknown) => log.warn("solving event not logged", { err }));
    await history.setState(solving).catch(() => undefined);
    if (delivery === 1) metrics.queuedDuration.observe((Date.now() - Date.parse(task.submittedAt)) / 1000);
    log.info("solving", { delivery, time_limit_seconds: task.timeLimitSeconds });

    const requestBytes = await queue.loadRequest(task.id);
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
    const stored = await this.storeFinal(next);
    log.info("task finished", { state: stored.state, total_cost: stored.result?.total_cost, error: stored.error });
    return stored;
  }

  /** Writes the final state unless another delivery got there first; returns what is stored. */
  private async storeFinal(next: TaskRecord): Promise<TaskRecord> {
    const stored = await this.deps.queue.store.update(next.id, (t) => (t.state === "solved" || t.state === "failed" ? null : { ...next, callback: t.callback, cancelRequested: t.cancelRequested }));
    const final = stored ?? next;
    await this.deps.history.finish(final, taskEnvelope(final, null)).catch((err: unknown) => this.deps.log.error("history update failed", { task_id: next.id, err }));
    return final;
  }

  /** A task that crashed or hung every worker that took it: failed on purpose, copied aside. */
  private async deadLetter(task: TaskRecord, log: Logger): Promise<TaskRecord> {
    const { nats, metrics } = this.deps;
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
    return this.storeFinal(failed);
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
