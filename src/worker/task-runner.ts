import type { JsMsg } from "@nats-io/jetstream";
import { taskEnvelope } from "../api/task-view.js";
import { deliverCallback } from "../callbacks/deliver.js";
import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import type { WorkerMetrics } from "../metrics/registry.js";
import type { Nats } from "../queue/connection.js";
import { NAMES } from "../queue/names.js";
import type { TaskMessage, TaskQueue } from "../queue/task-queue.js";
import type { TaskRecord } from "../queue/task-store.js";
import type { AccountStore } from "../store/accounts.js";
import type { HistoryStore } from "../store/history.js";
import type { SolverThreadRunner } from "./solver-thread-runner.js";

export interface TaskRunnerDeps {
  config: Readonly<Config>;
  log: Logger;
  nats: Nats;
  queue: TaskQueue;
  accounts: AccountStore;
  history: HistoryStore;
  metrics: WorkerMetrics;
  solver: SolverThreadRunner;
}

/** Extra time past the task's own limit before a solve is considered hung and its thread killed. */
const HARD_LIMIT_GRACE_MS = 30_000;

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
      await this.sendCallbackOnce(finished, taskLog);
      await m.ackAck().catch(() => m.ack());
      return "acked";
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async solve(task: TaskRecord, delivery: number, log: Logger): Promise<TaskRecord | null> {
    const { queue, metrics, solver, history } = this.deps;
    const solving = await queue.store.update(task.id, (t) =>
      t.state === "queued" || t.state === "solving" ? { ...t, state: "solving", solveAttempts: t.solveAttempts + 1 } : null,
    );
    if (!solving) return null;
    if (solving.state !== "solving") return solving;
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
          },
          task.timeLimitSeconds * 1000 + HARD_LIMIT_GRACE_MS,
        );
        if (this.handBack) {
          // Handed back on purpose, not a crash: the attempt does not count towards dead-lettering.
          await queue.store.update(task.id, (t) => (t.state === "solving" ? { ...t, state: "queued", solveAttempts: Math.max(0, t.solveAttempts - 1) } : null));
          log.info("handed back on shutdown");
          return null;
        }
        if (!reply.ok) {
          next = { ...solving, state: "failed", code: "task_failed", error: `The solver failed: ${reply.error}`, diagnostics: [] };
        } else if (reply.outcome.status === "solved") {
          next = { ...solving, state: "solved", result: reply.outcome.result };
        } else {
          next = {
            ...solving,
            state: "failed",
            code: "no_feasible_solution",
            error: reply.outcome.error,
            diagnostics: reply.outcome.diagnostics,
            ...(reply.outcome.infeasibilities.length > 0 ? { infeasibilities: reply.outcome.infeasibilities } : {}),
          };
        }
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
    const stored = await this.deps.queue.store.update(next.id, (t) => (t.state === "solved" || t.state === "failed" ? null : { ...next, callback: t.callback }));
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

  /**
   * At most one callback per task: "sending" is recorded with compare-and-set before the POST,
   * so a redelivery after a crash sees it and does not send again.
   */
  private async sendCallbackOnce(task: TaskRecord, log: Logger): Promise<void> {
    if (!task.callbackUrl) return;
    const { queue, config, accounts, metrics } = this.deps;
    let claimedNow = false;
    await queue.store.update(task.id, (t) => {
      claimedNow = t.callback === undefined;
      return claimedNow ? { ...t, callback: { state: "sending", at: new Date().toISOString() } } : null;
    });
    if (!claimedNow) return;
    const account = task.channel === "direct" ? await accounts.getAccount(task.owner) : null;
    const body = JSON.stringify(taskEnvelope(task, null));
    const outcome = await deliverCallback(task.callbackUrl, body, {
      allowLoopback: config.callbacks.allowLoopback,
      secret: account?.webhookSecret ?? null,
      timeoutMs: config.callbacks.timeoutMs,
    });
    metrics.callbacks.inc({ outcome: outcome.outcome });
    log.info("callback sent", { outcome: outcome.outcome, status: "status" in outcome ? outcome.status : undefined });
    await queue.store.update(task.id, (t) => ({
      ...t,
      callback: {
        state: "done",
        outcome: outcome.outcome,
        ...("status" in outcome ? { httpStatus: outcome.status } : {}),
        ...("reason" in outcome ? { reason: outcome.reason } : {}),
        at: new Date().toISOString(),
      },
    }));
  }
}
