import type { TaskRecord } from "./task-store.js";

/**
 * The two layouts of a work-queue message.
 *
 * - `record-first` (older): ids only. The submit writes the body and the `queued` event, then
 *   creates the task's record, which is the commit point; the worker waits for that record.
 * - `committed`: the message itself is the commit point. It carries the task's first record and,
 *   when small, the request body, so the worker starts solving from the message alone; the record
 *   is first written by the worker (or by a cancel) with a KV `create`, and a tombstone under the
 *   task's key (TaskStore.abandon) still stops a message whose submit was given up.
 */
export interface RecordFirstMessage {
  taskId: string;
}

export interface CommittedMessage {
  /** Named apart from `taskId` so that no reader of the older layout mistakes it for one. */
  committed: TaskRecord;
  /** The request body as received, when small enough to ride along. */
  body?: string;
  /**
   * The stream sequence of the task's `queued` event, stored before this message: a worker whose
   * first delivery finishes the task logs its next events only while the log still ends there,
   * without reading the log first.
   */
  queuedSeq?: number;
  /**
   * Set when the submit stored the task's planning-history entry before this message: the worker
   * then keeps the download without reading or repairing the entry (HistoryStore.finish).
   */
  historyEntry?: true;
}

export type DecodedTaskMessage =
  | { layout: "record-first"; taskId: string }
  | { layout: "committed"; record: TaskRecord; body: string | null; queuedSeq: number | null; historyEntry: boolean };

/** What the submit stored ahead of the committing message: the `queued` event's sequence, and whether the history entry was stored. */
export interface PreparedMessage {
  queuedSeq: number;
  historyEntry: boolean;
}

/** Request bodies up to this size travel inside the message; larger ones are stored as before. */
export const BODY_IN_MESSAGE_LIMIT = 64 * 1024;

/** The header of the `queued` event that carries the task's first record (for polls before any worker wrote it). */
export const QUEUED_RECORD_HEADER = "Vrp-Task-Record";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeCommitted(
  record: TaskRecord,
  body: string | null,
  queuedSeq: number | null = null,
  historyEntry = false,
): Uint8Array {
  const message: CommittedMessage = {
    committed: record,
    ...(body !== null ? { body } : {}),
    ...(queuedSeq !== null ? { queuedSeq } : {}),
    ...(historyEntry ? { historyEntry: true as const } : {}),
  };
  return encoder.encode(JSON.stringify(message));
}

export function encodeRecordFirst(taskId: string): Uint8Array {
  const message: RecordFirstMessage = { taskId };
  return encoder.encode(JSON.stringify(message));
}

/** Either layout, or null for a message that is neither (malformed). */
export function decodeTaskMessage(data: Uint8Array): DecodedTaskMessage | null {
  let parsed: Partial<RecordFirstMessage & CommittedMessage>;
  try {
    parsed = JSON.parse(decoder.decode(data)) as Partial<RecordFirstMessage & CommittedMessage>;
  } catch {
    return null;
  }
  if (parsed.committed && typeof parsed.committed.id === "string") {
    const queuedSeq = typeof parsed.queuedSeq === "number" && parsed.queuedSeq > 0 ? parsed.queuedSeq : null;
    return {
      layout: "committed",
      record: parsed.committed,
      body: parsed.body ?? null,
      queuedSeq,
      historyEntry: parsed.historyEntry === true,
    };
  }
  if (typeof parsed.taskId === "string") return { layout: "record-first", taskId: parsed.taskId };
  return null;
}
