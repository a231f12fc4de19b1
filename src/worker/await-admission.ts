import type { JsMsg } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { TaskQueue } from "../queue/task-queue.js";
import { NOT_STORED, type StoredTask, type TaskRecord } from "../queue/task-store.js";
import type { RecordFirstMessage } from "../queue/task-message.js";
import { awaitAdmittedNotice, type AnnouncedTask } from "../queue/admission-notice.js";
import type { NatsConnection } from "@nats-io/transport-node";

/** Until the deadline, a message without its record is handed back with this delay. */
const ADMISSION_RETRY_MS = 1_000;
/**
 * How long a worker that got the message before the record waits for the API's notice that the
 * admission committed (admission-notice.ts); the record's `create` is usually a round trip away.
 * Past this the admission is late or has failed: the message is handed back as before.
 */
const NOTICE_WAIT_MS = 1_000;

/** `body`: the request body, when the API's notice carried it. */
export type Admission =
  { kind: "live"; found: Extract<StoredTask, { kind: "live" }>; body?: Uint8Array } | { kind: "dropped" } | { kind: "later" };

/**
 * The task's record once its admission has completed. A missing record is never taken as "done":
 * on a first delivery the worker waits for the API's notice that the admission committed (or
 * NOTICE_WAIT_MS), the message is handed back with a delay while the admission may still complete,
 * and only after `deadlineMs` (WORKER_ADMISSION_DEADLINE_MS, 30 s: the submit publishes the message
 * before it creates the record, and an API instance bounds each NATS request by
 * NATS_REQUEST_TIMEOUT_MS, so an admission unfinished after this long has failed or its API
 * instance died) is the admission given up (a tombstone, written with
 * `create` so it cannot overtake a late admission) and the message dropped.
 */
export async function awaitAdmission(
  m: JsMsg,
  message: RecordFirstMessage,
  deps: { queue: TaskQueue; log: Logger; deadlineMs: number; nc: NatsConnection },
): Promise<Admission> {
  const { queue, log } = deps;
  const settled = (found: StoredTask) => (found.kind === "missing" ? null : found);
  // Read once; if the record is not there yet, wait for the API's notice rather than read again
  // and again (reading once more with the listener in place, for a notice sent before it was).
  // Only on the first delivery: a message handed back for want of its record is not waited for
  // again, so an admission that died cannot hold a worker for long.
  const read = async () => settled(await queue.store.read(message.taskId));
  let found: StoredTask | AnnouncedTask | null = await read();
  if (found === null && m.info.deliveryCount === 1) {
    found = await awaitAdmittedNotice(deps.nc, message.taskId, NOTICE_WAIT_MS, read);
    // No notice: it may have been lost (it is not stored), so the record is read once more.
    found ??= await read();
  }
  if (found?.kind === "live") {
    const { body, ...live } = found as AnnouncedTask;
    return { kind: "live", found: live, ...(body ? { body } : {}) };
  }
  if (found?.kind === "abandoned") return drop(m, message, deps, "admission given up");
  const ageMs = Date.now() - m.time.getTime();
  if (ageMs < deps.deadlineMs) {
    m.nak(ADMISSION_RETRY_MS);
    return { kind: "later" };
  }
  if (await queue.store.abandon(message.taskId)) {
    log.warn("admission never completed; message dropped", { age_ms: ageMs });
    return drop(m, message, deps, "admission never completed");
  }
  // The tombstone lost: the entry is there, so a "missing" read is a stale one, not a verdict.
  const taken = await queue.store.readTaken(message.taskId);
  if (taken.kind === "live") return { kind: "live", found: taken };
  return drop(m, message, deps, "admission given up");
}

/**
 * The task of a committed message (task-message.ts): on its first delivery the message's own
 * record, not yet stored (NOT_STORED: the worker's first write is a `create`, which a tombstone
 * wins over); on a later one the stored record if a previous delivery or a cancel wrote one, a
 * tombstone's drop, or the message's record again.
 */
export async function committedAdmission(m: JsMsg, record: TaskRecord, deps: { queue: TaskQueue; log: Logger }): Promise<Admission> {
  if (m.info.deliveryCount === 1) return { kind: "live", found: { kind: "live", record, revision: NOT_STORED } };
  const found = await deps.queue.store.read(record.id);
  if (found.kind === "live") return { kind: "live", found };
  if (found.kind === "abandoned") return drop(m, { taskId: record.id }, deps, "admission given up");
  return { kind: "live", found: { kind: "live", record, revision: NOT_STORED } };
}

/** Acknowledges the message of a task that is not to run (its admission given up, or the task removed). */
export function dropMessage(m: JsMsg, taskId: string, deps: { queue: TaskQueue; log: Logger }, reason: string): Promise<Admission> {
  return drop(m, { taskId }, deps, reason);
}

async function drop(m: JsMsg, message: RecordFirstMessage, deps: { queue: TaskQueue; log: Logger }, reason: string): Promise<Admission> {
  deps.log.info("task message dropped", { reason });
  // The request body the failed submit stored before its record: best effort, it expires anyway.
  await deps.queue.removeRequest(message.taskId).catch(() => undefined);
  // Acknowledged, not `term`ed, and with the server's confirmation: in the fault suite a term sent
  // around a leader change left the message in the work queue, unacknowledged and never redelivered.
  // An ack that fails is retried by the redelivery after ack_wait.
  await m.ackAck().catch(() => m.ack());
  return { kind: "dropped" };
}
