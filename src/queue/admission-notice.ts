import type { NatsConnection } from "@nats-io/transport-node";
import { NAMES } from "./names.js";
import type { StoredTask, TaskRecord } from "./task-store.js";

/**
 * The API's word that a task's admission has committed: its record and revision as created (and
 * a small request body), sent once (core NATS, not stored) to whichever worker already holds the
 * task's message. The submit publishes the message before it creates the record, so a worker
 * often gets the message first; it waits for this notice instead of reading the record again and
 * again. A lost notice only costs the wait: the worker reads the record then, as before.
 */
interface Notice {
  record: TaskRecord;
  revision: number;
  /** The request body, when small: the worker then need not read it back. */
  body?: string;
}

/** The record as announced, and the request body if the notice carried it. */
export type AnnouncedTask = Extract<StoredTask, { kind: "live" }> & { body?: Uint8Array };

/** Request bodies up to this size ride along in the notice. */
const NOTICE_BODY_LIMIT = 16 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function subject(taskId: string): string {
  return `${NAMES.admittedSubjectPrefix}.${taskId}`;
}

/**
 * Sends the notice of a committed admission (fire and forget: nobody may be listening). `body`,
 * the request body as stored, is sent along when small.
 */
export function announceAdmitted(nc: NatsConnection, record: TaskRecord, revision: number, body: string | null): void {
  const notice: Notice = { record, revision, ...(body !== null && body.length <= NOTICE_BODY_LIMIT ? { body } : {}) };
  nc.publish(subject(record.id), encoder.encode(JSON.stringify(notice)));
}

/**
 * Listens for the notice of `taskId` until `waitMs` have passed. `check` runs once the listener is
 * in place (a notice sent before that is not seen, so the caller reads the record there); what it
 * resolves with, if not null, ends the wait at once. Resolves with that, the announced record, or
 * null when neither came in time.
 */
export async function awaitAdmittedNotice<T>(
  nc: NatsConnection,
  taskId: string,
  waitMs: number,
  check: () => Promise<T | null>,
): Promise<T | AnnouncedTask | null> {
  let resolveNotice: (found: AnnouncedTask | null) => void = () => undefined;
  const notice = new Promise<AnnouncedTask | null>((resolve) => (resolveNotice = resolve));
  const subscription = nc.subscribe(subject(taskId), {
    max: 1,
    callback: (err, m) => {
      if (err) return resolveNotice(null);
      try {
        const parsed = JSON.parse(decoder.decode(m.data)) as Notice;
        const body = parsed.body === undefined ? {} : { body: encoder.encode(parsed.body) };
        resolveNotice({ kind: "live", record: parsed.record, revision: parsed.revision, ...body });
      } catch {
        resolveNotice(null);
      }
    },
  });
  const timer = setTimeout(() => resolveNotice(null), waitMs);
  try {
    const checked = await check();
    if (checked !== null) return checked;
    return await notice;
  } finally {
    clearTimeout(timer);
    subscription.unsubscribe();
  }
}
