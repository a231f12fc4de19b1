import type { JetStreamManager, MsgRequest } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import { NAMES } from "../queue/names.js";
import { decodeTaskMessage } from "../queue/task-message.js";
import type { TaskStore } from "../queue/task-store.js";

/** At most this many messages looked at per sweep, so one sweep stays short. */
const MAX_LOOKED_AT = 1000;

/** One consumer of the task stream as the sweep needs it. */
interface ConsumerView {
  name: string;
  subject: string;
  /** Every message of its subject at or below this sequence is acknowledged, as the consumer knows. */
  ackFloor: number;
  /** Messages of its subject the consumer still holds: not yet delivered, or delivered and not acknowledged. */
  held: number;
}

async function consumerViews(jsm: JetStreamManager): Promise<ConsumerView[]> {
  const views: ConsumerView[] = [];
  for await (const c of jsm.consumers.list(NAMES.taskStream)) {
    const subject = c.config.filter_subject;
    if (!subject) continue;
    views.push({ name: c.name, subject, ackFloor: c.ack_floor.stream_seq, held: c.num_pending + c.num_ack_pending });
  }
  return views;
}

/** Whether the message's task needs it no more: finished, given up, or not a task message at all. */
async function taskDone(data: Uint8Array, store: TaskStore): Promise<{ done: boolean; id: string | null }> {
  const message = decodeTaskMessage(data);
  if (!message) return { done: true, id: null };
  const id = message.layout === "committed" ? message.record.id : message.taskId;
  const found = await store.read(id);
  if (found.kind === "abandoned") return { done: true, id };
  return { done: found.kind === "live" && (found.record.state === "solved" || found.record.state === "failed"), id };
}

/**
 * Removes work messages the stream kept although their consumer acknowledged them. A work-queue
 * stream deletes a message on each replica as that replica applies the consumer's acknowledgement;
 * a node killed and restarted can catch its consumer up from a snapshot (the acknowledgements
 * are not applied one by one) or store a message after its acknowledgement was applied, and then
 * keeps messages below the consumer's ack floor that no consumer will deliver again, for as long
 * as it leads the stream. Such a message is deleted through the stream's leader (so from every
 * replica) only when its task is finished too: an ack floor read from a consumer leader that has
 * just lost its place could be ahead of what the group committed, and an unfinished task's
 * message must stay for the redelivery. Returns the number deleted.
 */
export async function sweepKeptMessages(jsm: JetStreamManager, store: TaskStore, log: Logger): Promise<number> {
  const consumers = await consumerViews(jsm);
  const info = await jsm.streams.info(NAMES.taskStream, { subjects_filter: ">" });
  const counts = info.state.subjects ?? {};
  let lookedAt = 0;
  let deleted = 0;
  for (const consumer of consumers) {
    // Kept messages are those in the stream that the consumer neither holds nor will deliver.
    if ((counts[consumer.subject] ?? 0) <= consumer.held) continue;
    let seq = info.state.first_seq;
    while (seq <= consumer.ackFloor && lookedAt < MAX_LOOKED_AT) {
      const query = { seq, next_by_subj: consumer.subject } as unknown as MsgRequest;
      const m = await jsm.streams.getMessage(NAMES.taskStream, query).catch(() => null);
      if (!m || m.seq > consumer.ackFloor) break;
      lookedAt++;
      seq = m.seq + 1;
      if (m.subject !== consumer.subject) continue;
      const { done, id } = await taskDone(m.data, store);
      if (done) {
        if (await jsm.streams.deleteMessage(NAMES.taskStream, m.seq, false).catch(() => false)) deleted++;
      } else {
        log.warn("acknowledged work message of an unfinished task left in the stream", {
          seq: m.seq,
          task_id: id,
          consumer: consumer.name,
        });
      }
    }
  }
  if (deleted > 0) log.warn("acknowledged work messages the stream had kept deleted", { deleted });
  return deleted;
}
