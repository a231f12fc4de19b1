import type { JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { profileStage } from "../infra/stage-profile.js";
import type { Logger } from "../log/logger.js";
import { decodeTaskMessage } from "../queue/task-message.js";
import type { TaskQueue } from "../queue/task-queue.js";
import type { TaskRecord } from "../queue/task-store.js";
import { awaitAdmission, committedAdmission, dropMessage } from "./await-admission.js";

const encoder = new TextEncoder();

export interface DeliveryDeps {
  queue: TaskQueue;
  log: Logger;
  nc: NatsConnection;
  admissionDeadlineMs: number;
}

/** A delivery's task to run, or how the delivery already ended (dropped, or handed back for later). */
export type Delivery =
  | { kind: "ended"; end: "acked" | "handed-back" }
  | {
      kind: "live";
      found: { record: TaskRecord; revision: number };
      requestRead: Promise<Uint8Array | null>;
      /** The request as received when it came inside the message (no submit stored it: the history keeps it). */
      requestInMessage: string | null;
      /** The sequence of the task's `queued` event when the message carries it (task-message.ts). */
      queuedSeq: number | null;
      /** The submit stored the task's history entry before committing it (task-message.ts). */
      historyEntry: boolean;
      log: Logger;
    };

/**
 * Decodes a delivered message of either layout (task-message.ts) and finds its task: from the
 * message itself (committed layout) or once its record exists (record-first layout), with the
 * request body read alongside.
 */
export async function takeDelivery(m: JsMsg, deps: DeliveryDeps): Promise<Delivery> {
  const { queue, log } = deps;
  const message = decodeTaskMessage(m.data);
  if (!message) {
    log.error("malformed task message dropped", { seq: m.seq });
    await m.ackAck().catch(() => m.ack());
    return { kind: "ended", end: "acked" };
  }
  const taskId = message.layout === "committed" ? message.record.id : message.taskId;
  const taskLog = log.child({ task_id: taskId });
  profileStage(taskId, "w.delivered");
  // A committed message may carry the body. Otherwise the body is read alongside the record (one
  // round trip less before a quick task can start solving). The older layout's submit writes it
  // alongside the task message, so this early read can miss it; a miss is read again once the
  // record exists, which that submit creates only after the body.
  const requestInMessage = message.layout === "committed" ? message.body : null;
  const earlyRead = requestInMessage !== null ? Promise.resolve(encoder.encode(requestInMessage)) : queue.loadRequest(taskId);
  earlyRead.catch(() => undefined);
  const admission =
    message.layout === "committed"
      ? await committedAdmission(m, message.record, { queue, log: taskLog })
      : await awaitAdmission(m, message, { queue, log: taskLog, deadlineMs: deps.admissionDeadlineMs, nc: deps.nc });
  if (admission.kind !== "live") return { kind: "ended", end: admission.kind === "dropped" ? "acked" : "handed-back" };
  const found = admission.found;
  const requestRead = admission.body ? Promise.resolve(admission.body) : earlyRead.then((bytes) => bytes ?? queue.loadRequest(taskId));
  requestRead.catch(() => undefined);
  profileStage(taskId, "w.admitted");
  const queuedSeq = message.layout === "committed" ? message.queuedSeq : null;
  const historyEntry = message.layout === "committed" && message.historyEntry;
  return { kind: "live", found, requestRead, requestInMessage, queuedSeq, historyEntry, log: taskLog };
}

/**
 * Acknowledges the message of a task whose key holds a tombstone (a committed message whose submit
 * gave up: never to run) and answers true; false, leaving the message alone, for any other task.
 */
export async function dropIfGivenUp(m: JsMsg, id: string, deps: { queue: TaskQueue; log: Logger }): Promise<boolean> {
  if ((await deps.queue.store.read(id)).kind !== "abandoned") return false;
  await dropMessage(m, id, deps, "admission given up");
  return true;
}
