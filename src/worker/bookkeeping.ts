import type { JsMsg } from "@nats-io/jetstream";
import { taskEnvelope } from "../api/task-view.js";
import { sendCallbackOnce } from "../callbacks/send-once.js";
import type { Config } from "../config/load.js";
import { profileStage } from "../infra/stage-profile.js";
import type { Logger } from "../log/logger.js";
import type { WorkerMetrics } from "../metrics/registry.js";
import type { StoredTaskEvent, TaskEvents } from "../queue/task-events.js";
import type { TaskQueue } from "../queue/task-queue.js";
import type { TaskRecord } from "../queue/task-store.js";
import type { AccountStore } from "../store/accounts.js";
import type { HistoryStore } from "../store/history.js";

export interface BookkeepingDeps {
  config: Readonly<Config>;
  queue: TaskQueue;
  accounts: AccountStore;
  history: HistoryStore;
  events: TaskEvents;
  metrics: WorkerMetrics;
}

/**
 * Everything after a task's stored result, each step idempotent so a redelivery can repeat it:
 * the history's download and entry (repaired if a failover lost it, unless the submit stored it
 * before committing the task: HistoryStore.finish), the final event (exactly one), the callback
 * (at most one, and only for a stored result), then the acknowledgement. `before`: the writes
 * (progress, `solving` event) the final event must follow; `finished.solving`: a quick task's
 * `solving` event, logged in one batch with the final event. A failing step hands the message back
 * for another try rather than leaving the history or the events short. Resolves true once
 * acknowledged, false when handed back.
 *
 * The final event is published after reading the log's last event (publishFinalOnce), except for
 * a quick task whose message carried its `queued` event's sequence (`queuedSeq`): its `solving`
 * event is then logged on the condition that the log still ends there, and the final event follows
 * it in the same write (TaskEvents.publishFinalAfterQueued).
 */
export async function bookkeeping(
  m: JsMsg,
  finished: {
    task: TaskRecord;
    requestInMessage: string | null;
    solving?: StoredTaskEvent | undefined;
    queuedSeq?: number | null;
    historyEntry?: boolean;
  },
  before: Promise<void>,
  deps: BookkeepingDeps,
  log: Logger,
): Promise<boolean> {
  const { queue, config, metrics } = deps;
  const { task } = finished;
  try {
    await before;
    profileStage(task.id, "w.tail.before");
    const body = taskEnvelope(task, null);
    const finalEvent = task.state === "solved" ? "solved" : "failed";
    const { solving, queuedSeq } = finished;
    const logged =
      solving && queuedSeq
        ? deps.events.publishFinalAfterQueued(task.id, finalEvent, body, solving, queuedSeq)
        : deps.events.publishFinalOnce(task.id, finalEvent, body, solving);
    await Promise.all([deps.history.finish(task, body, finished.requestInMessage, finished.historyEntry === true), logged]);
    profileStage(task.id, "w.tail.historyAndFinalEvent");
    const sent = await sendCallbackOnce(task, { store: queue.store, accounts: deps.accounts, config, log });
    if (sent) metrics.callbacks.inc({ outcome: sent.outcome });
    profileStage(task.id, "w.tail.callback");
    await m.ackAck().catch(() => m.ack());
    profileStage(task.id, "w.tail.acked");
    return true;
  } catch (err) {
    log.warn("bookkeeping after the result failed; handing the message back", { err });
    try {
      m.nak(1000);
    } catch {
      /* connection gone: ack_wait will redeliver it */
    }
    return false;
  }
}
