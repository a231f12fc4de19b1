import type { JsMsg } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { TaskMessage, TaskQueue } from "../queue/task-queue.js";
import type { StoredTask } from "../queue/task-store.js";

/** Until the deadline, a message without its record is handed back with this delay. */
const ADMISSION_RETRY_MS = 1_000;
/**
 * Re-reads right after the message arrives: the record's `create` is usually on its way (the API
 * sends it as soon as the publish is acknowledged, about when the worker receives the message).
 * The first re-reads go out back to back (each waits a round trip anyway), so a record that lands
 * a few milliseconds after the message is seen within one round trip rather than after a sleep
 * (the pipeline profile showed the sleeps adding 5-8 ms); then they back off.
 */
const QUICK_RETRIES_MS = [0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32];

export type Admission = { kind: "live"; found: Extract<StoredTask, { kind: "live" }> } | { kind: "dropped" } | { kind: "later" };

/**
 * The task's record once its admission has completed. A missing record is never taken as "done":
 * it is read again, the message handed back with a delay while the admission may still complete,
 * and only after `deadlineMs` (WORKER_ADMISSION_DEADLINE_MS, 30 s: the submit publishes the message
 * before it creates the record, and an API instance bounds each NATS request by
 * NATS_REQUEST_TIMEOUT_MS, so an admission unfinished after this long has failed or its API
 * instance died) is the admission given up (a tombstone, written with
 * `create` so it cannot overtake a late admission) and the message dropped.
 */
export async function awaitAdmission(
  m: JsMsg,
  message: TaskMessage,
  deps: { queue: TaskQueue; log: Logger; deadlineMs: number },
): Promise<Admission> {
  const { queue, log } = deps;
  for (const delay of QUICK_RETRIES_MS) {
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const found = await queue.store.read(message.taskId);
    if (found.kind === "live") return { kind: "live", found };
    if (found.kind === "abandoned") return drop(m, message, deps, "admission given up");
  }
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
  const found = await queue.store.readTaken(message.taskId);
  if (found.kind === "live") return { kind: "live", found };
  return drop(m, message, deps, "admission given up");
}

async function drop(m: JsMsg, message: TaskMessage, deps: { queue: TaskQueue; log: Logger }, reason: string): Promise<Admission> {
  deps.log.info("task message dropped", { reason });
  // The request body the failed submit stored before its record: best effort, it expires anyway.
  await deps.queue.removeRequest(message.taskId).catch(() => undefined);
  // Acknowledged, not `term`ed, and with the server's confirmation: in the fault suite a term sent
  // around a leader change left the message in the work queue, unacknowledged and never redelivered.
  // An ack that fails is retried by the redelivery after ack_wait.
  await m.ackAck().catch(() => m.ack());
  return { kind: "dropped" };
}
