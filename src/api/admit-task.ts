import { randomInt } from "node:crypto";
import type { Logger } from "../log/logger.js";
import type { TaskQueue } from "../queue/task-queue.js";
import { AdmissionAbandoned, type TaskRecord } from "../queue/task-store.js";
import type { Caller } from "./auth.js";
import { ApiError } from "../errors/api-error.js";
import { BROKER_RETRY_AFTER_SECONDS } from "./middleware/error-envelope.js";
import type { validateSolveRequest } from "./validation/validate-solve-request.js";
import type { TaskEvents } from "../queue/task-events.js";
import type { HistoryStore } from "../store/history.js";
import { taskEnvelope } from "./task-view.js";

export type ValidRequest = Extract<ReturnType<typeof validateSolveRequest>, { ok: true }>["request"];

function unavailable(): ApiError {
  return new ApiError("service_unavailable", "The task queue is temporarily unavailable. Please retry shortly", {
    retryAfterSeconds: BROKER_RETRY_AFTER_SECONDS,
  });
}

/** Seconds a busy client should wait: the backlog divided by recent throughput, within sane bounds. */
export function busyRetryAfter(depth: number, threshold: number): number {
  return Math.min(300, Math.max(5, Math.ceil((depth - threshold + 1) * 2)));
}

/** A new task's first record. The HTTP request's id becomes the task's id: one identifier in the body, header and logs. */
export function newTaskRecord(id: string, caller: Caller, request: ValidRequest): TaskRecord {
  const now = new Date().toISOString();
  return {
    id,
    owner: caller.owner,
    channel: caller.channel,
    state: "queued",
    submittedAt: now,
    updatedAt: now,
    name: request.name ?? null,
    nodeNum: request.node_num,
    vehicleNum: request.vehicle_num,
    objective: request.objective ?? "min_total_distance",
    // Omitted means the plan's maximum; above it is silently replaced by it (spec 2.1).
    timeLimitSeconds: Math.min(request.time_limit_seconds ?? caller.plan.maxSolveSeconds, caller.plan.maxSolveSeconds),
    strategy: request.strategy ?? null,
    callbackUrl: request.callback_url ?? null,
    solveAttempts: 0,
    // Fixed here, not in the worker, so that a redelivered task searches exactly as before.
    seed: request.seed ?? randomInt(0, 2 ** 31),
  };
}

/**
 * Completes an admission whose writes (body, message, `queued` event: TaskQueue.writeAdmission)
 * are under way: once they are stored, the record's `create` commits it. On any failure the
 * admission is made impossible to complete (a tombstone), and the error is thrown; when even that
 * cannot be settled (NATS unreachable) `uncertain` is set, as the record may exist. The record
 * found instead of a tombstone means our own create landed and only its answer was lost: the task
 * is accepted after all. `announce` tells the worker that may already hold the task's message
 * that the record exists (admission-notice.ts).
 */
export async function commitAdmission(
  queue: TaskQueue,
  task: TaskRecord,
  writes: Promise<void>,
  log: Logger,
  outcome: { uncertain: boolean },
  announce: (record: TaskRecord, revision: number) => void,
): Promise<void> {
  try {
    await writes;
    announce(task, await queue.commit(task));
  } catch (err) {
    await giveUp(queue, task, err, log, outcome, null);
  }
}

/**
 * How long a failed admission keeps trying to settle the task's fate (its tombstone written, or its
 * record found) while NATS does not answer. A publish stored just before a cluster went down runs
 * once the cluster is back; answering 503 before then would tell the partner "not accepted" about
 * a task that is solved and called back. A restart takes seconds, so the submit waits that long.
 */
const SETTLE_WAIT_MS = 20_000;
const SETTLE_PAUSE_MS = 250;

/** The tombstone's outcome (TaskStore.abandon), asked again while NATS fails to answer; null if it never did within SETTLE_WAIT_MS. */
async function settledAbandon(queue: TaskQueue, id: string): Promise<boolean | null> {
  const until = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    try {
      return await queue.store.abandon(id);
    } catch {
      if (Date.now() + SETTLE_PAUSE_MS >= until) return null;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE_MS));
    }
  }
}

/**
 * A failed admission's tombstone; throws the submit's error unless the task turns out admitted.
 * `forget` removes what was written ahead for the task once it certainly never runs.
 */
async function giveUp(
  queue: TaskQueue,
  task: TaskRecord,
  err: unknown,
  log: Logger,
  outcome: { uncertain: boolean },
  forget: (() => Promise<void>) | null,
): Promise<void> {
  const abandoned = await settledAbandon(queue, task.id);
  if (abandoned !== false) {
    if (abandoned === null) outcome.uncertain = true;
    else
      await forget?.().catch((forgetErr: unknown) =>
        log.warn("history entry of a task not admitted left", { task_id: task.id, err: forgetErr }),
      );
    log.warn("task not admitted", { task_id: task.id, err, certain: abandoned === true });
    throw err instanceof AdmissionAbandoned ? unavailable() : err;
  }
  log.warn("task admitted although its commit answered an error", { task_id: task.id, err });
}

/** The `queued` event of a task committed as its message, carrying its first record (TaskQueue.prepareMessage). */
export function queuedEventOf(events: TaskEvents, ahead: number): (record: TaskRecord) => Promise<number> {
  return (record) => events.publishQueued(record.id, taskEnvelope(record, ahead), record);
}

/**
 * The history entry of a task committed as its message, written alongside its `queued` event
 * (TaskQueue.prepareMessage): resolves true once an entry is stored (this one, or one already
 * there), false for a task the history does not list.
 */
export function historyEntryOf(history: HistoryStore): (record: TaskRecord) => Promise<boolean> {
  return (record) => (record.channel === "direct" ? history.record(record).then(() => true) : Promise.resolve(false));
}

/**
 * Admits a task whose message is the commit point (TaskQueue.commitMessage). On a failure the
 * admission is made impossible to complete, as in commitAdmission: a tombstone under the task's
 * key, which a worker that took a message stored after all finds when it writes the record (and
 * then drops the message). The record found instead means a worker already wrote it: accepted.
 * `forget` removes the history entry written ahead (historyEntryOf) of a task that never runs.
 */
export async function commitMessage(
  queue: TaskQueue,
  task: TaskRecord,
  commit: Promise<void>,
  log: Logger,
  outcome: { uncertain: boolean },
  forget: (() => Promise<void>) | null = null,
): Promise<void> {
  try {
    await commit;
  } catch (err) {
    await giveUp(queue, task, err, log, outcome, forget);
  }
}

/**
 * Undoes writes made ahead of a check that then refused the submit (the speculative path):
 * a tombstone, so the message is dropped by the worker that takes it and the task can
 * never be admitted, and the body removed. Best effort, and never throws: if NATS cannot be
 * reached, the worker's admission deadline (WORKER_ADMISSION_DEADLINE_MS) writes the tombstone
 * and drops the message. `forget` removes a history entry written ahead (historyEntryOf).
 */
export async function undoWrites(
  queue: TaskQueue,
  id: string,
  writes: Promise<unknown>,
  forget: (() => Promise<void>) | null = null,
): Promise<void> {
  await writes.catch(() => undefined);
  await Promise.all([queue.store.abandon(id).catch(() => undefined), forget?.().catch(() => undefined)]);
  void queue.removeRequest(id).catch(() => undefined);
}
