import type { JetStreamClient, JetStreamManager, StoredMsg } from "@nats-io/jetstream";
import { headers } from "@nats-io/transport-node";
import { NAMES } from "./names.js";
import { QUEUED_RECORD_HEADER } from "./task-message.js";
import { isWrongLastSequence, type TaskRecord } from "./task-store.js";

export type TaskEventName = "queued" | "solving" | "progress" | "solved" | "failed";

/** One entry of a task's event log: the event's name and its data (the poll body at that moment). */
export interface StoredTaskEvent {
  event: TaskEventName;
  data: unknown;
}

export function isFinalEvent(event: TaskEventName): boolean {
  return event === "solved" || event === "failed";
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The per-task event log: a JetStream stream with one subject per task, so the stream
 * sequence is a resumable event id and any API instance can replay and follow any task's events
 * whichever process wrote them (submit, worker, cancel).
 */
export class TaskEvents {
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    /** The stream answers direct gets (Nats.eventsDirect): the last event is read that way. */
    private readonly direct = false,
  ) {}

  static subject(taskId: string): string {
    return `${NAMES.eventSubjectPrefix}.${taskId}`;
  }

  async publish(taskId: string, event: TaskEventName, data: unknown): Promise<number> {
    const body: StoredTaskEvent = { event, data };
    // The final event carries a message id, so a second writer (a redelivered task, a cancel racing
    // the worker) inside the duplicate window is dropped by JetStream rather than logged twice.
    const options = isFinalEvent(event) ? { msgID: `${taskId}.final` } : {};
    const ack = await this.js.publish(TaskEvents.subject(taskId), encoder.encode(JSON.stringify(body)), options);
    return ack.seq;
  }

  /**
   * The first event, written by the submit as part of the admission (it must not be
   * dropped). Its message id makes a repeated publish a duplicate rather than a second `queued`.
   */
  async publishQueued(taskId: string, data: unknown, record?: TaskRecord): Promise<number> {
    const body: StoredTaskEvent = { event: "queued", data };
    // A task committed as its message alone has no stored record until a worker takes it: its
    // first record rides in a header here, where a poll finds it (queuedRecord).
    const header = record ? headers() : undefined;
    if (header && record) header.set(QUEUED_RECORD_HEADER, JSON.stringify(record));
    // A repeat within the duplicate window is answered with the first one's sequence.
    const ack = await this.js.publish(TaskEvents.subject(taskId), encoder.encode(JSON.stringify(body)), {
      msgID: `${taskId}.queued`,
      ...(header ? { headers: header } : {}),
    });
    return ack.seq;
  }

  /**
   * The first record of a task that exists so far only as its committed message: the one its
   * `queued` event carries while that event is the task's last. Null once anything else was
   * logged (a worker or a cancel has written the record by then) or when there is no such event.
   */
  async queuedRecord(taskId: string): Promise<TaskRecord | null> {
    const m = await this.lastMessage(taskId);
    const carried = m?.header?.get(QUEUED_RECORD_HEADER);
    if (!m || !carried) return null;
    const record = JSON.parse(carried) as TaskRecord;
    return record.id === taskId ? record : null;
  }

  /**
   * Follows the task's log from the event after `afterSeq` (0: from the start) with an ordered
   * consumer. `stop` deletes that consumer on the server at once, so a client that leaves leaves
   * nothing behind (the server would otherwise keep it until its inactivity threshold).
   */
  async follow(
    taskId: string,
    afterSeq: number,
  ): Promise<{ events: AsyncIterable<{ seq: number; stored: StoredTaskEvent }>; stop(): Promise<void> }> {
    const consumer = await this.js.consumers.get(NAMES.eventStream, {
      filter_subjects: TaskEvents.subject(taskId),
      opt_start_seq: afterSeq + 1,
    });
    const messages = await consumer.consume({ max_messages: 64 });
    let stopped: Promise<void> | null = null;
    async function* events() {
      for await (const m of messages) yield { seq: m.seq, stored: JSON.parse(decoder.decode(m.data)) as StoredTaskEvent };
    }
    return {
      events: events(),
      stop: () => {
        stopped ??= (async () => {
          await messages.close().catch(() => undefined);
          await consumer.delete().catch(() => false);
        })();
        return stopped;
      },
    };
  }

  /** The task's latest event and its id, or null when it has none (yet, or any more). */
  async last(taskId: string): Promise<(StoredTaskEvent & { seq: number }) | null> {
    const m = await this.lastMessage(taskId);
    return m ? { ...(JSON.parse(decoder.decode(m.data)) as StoredTaskEvent), seq: m.seq } : null;
  }

  private async lastMessage(taskId: string): Promise<StoredMsg | null> {
    try {
      const query = { last_by_subj: TaskEvents.subject(taskId) };
      return this.direct
        ? await this.jsm.direct.getMessage(NAMES.eventStream, query)
        : await this.jsm.streams.getMessage(NAMES.eventStream, query);
    } catch (err) {
      if (err instanceof Error && /no message found|not found/i.test(err.message)) return null;
      throw err;
    }
  }

  /**
   * Logs the final event unless the log already ends with one: whoever sees a finished task
   * without its final event (a worker on redelivery, an API instance following the stream) can
   * call this, and the log still ends with exactly one final event. `leading`: an event this
   * writer has not logged yet that must come just before the final one (a quick task's `solving`).
   */
  async publishFinalOnce(taskId: string, event: "solved" | "failed", data: unknown, leading?: StoredTaskEvent): Promise<void> {
    const last = await this.last(taskId);
    if (last && isFinalEvent(last.event)) return;
    if (!leading || last?.event === leading.event) return void (await this.publish(taskId, event, data));
    // Both publishes leave in one write to the connection, in this order, so the stream stores the
    // leading event before the final one; one round trip instead of two for a task that never
    // reported progress.
    await Promise.all([this.publish(taskId, leading.event, leading.data), this.publish(taskId, event, data)]);
  }

  /**
   * As publishFinalOnce with a leading event, without reading the log first, for a writer that
   * knows the sequence of the log's `queued` event (`queuedSeq`) and has logged nothing since:
   * the leading event is stored only while the log still ends with that event, and the final
   * event's message id drops it as a duplicate when another writer logged one first. Another
   * writer logs after `queued` only once the record is final (a cancel, an API instance
   * completing the log) or in a later delivery's own `solving` event, so a refused leading event
   * leaves a log that still ends with one final event.
   */
  async publishFinalAfterQueued(
    taskId: string,
    event: "solved" | "failed",
    data: unknown,
    leading: StoredTaskEvent,
    queuedSeq: number,
  ): Promise<void> {
    // One write to the connection, in this order: the stream stores the leading event first.
    const [leadingWrite, finalWrite] = await Promise.allSettled([
      this.js.publish(TaskEvents.subject(taskId), encoder.encode(JSON.stringify(leading)), {
        expect: { lastSubjectSequence: queuedSeq },
      }),
      this.publish(taskId, event, data),
    ]);
    if (finalWrite.status === "rejected") throw finalWrite.reason;
    if (leadingWrite.status === "rejected" && !isWrongLastSequence(leadingWrite.reason)) throw leadingWrite.reason;
  }
}
