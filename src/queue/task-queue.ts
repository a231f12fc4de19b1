import type { Plan } from "../config/plans.js";
import type { Nats } from "./connection.js";
import { NAMES } from "./names.js";
import { ensureFlow, flowKey, flowSubject, LEGACY_FLOW } from "./flows.js";
import { FlowSnapshot, type AdmissionRoom } from "./flow-snapshot.js";
import type { TaskRecord } from "./task-store.js";
import { TaskStore } from "./task-store.js";
import { profileStage } from "../infra/stage-profile.js";
import { TaskEvents } from "./task-events.js";
import { BODY_IN_MESSAGE_LIMIT, encodeCommitted, encodeRecordFirst, type PreparedMessage } from "./task-message.js";

/** How long an API instance trusts that an account's consumer exists (well below its inactivity threshold). */
const FLOW_KNOWN_MS = 10 * 60_000;
/** Bodies up to this size go to a KV bucket (one write); larger ones to the chunked object store. */
const INLINE_BODY_LIMIT = 768 * 1024;
/** Attempts of the committing publish when it goes unanswered (each bounded by the request timeout). */
const COMMIT_PUBLISH_ATTEMPTS = 3;

/**
 * How long the committing publish waits for the history entry once everything else it follows is
 * stored. Both go out together and are answered together; an entry still unanswered after this
 * (its stream failing over) is not the submit's to wait for.
 */
const ENTRY_GRACE_MS = 20;

/** Whether `entry` resolves true within ENTRY_GRACE_MS. */
async function withinGrace(entry: Promise<boolean>): Promise<boolean> {
  // Usually answered already: no timer then (a race of settled promises takes the first listed).
  const already = await Promise.race([entry, Promise.resolve(null)]);
  if (already !== null) return already;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ENTRY_GRACE_MS)));
  const stored = await Promise.race([entry, late]);
  clearTimeout(timer);
  return stored;
}

function ignoreNotFound(err: unknown): void {
  if (!/not found/i.test(err instanceof Error ? err.message : String(err))) throw err;
}

/**
 * The task store as the API reads it: a task committed as its message alone (task-message.ts) is
 * found through its `queued` event until a worker writes its record.
 */
export function taskReader(nats: Pick<Nats, "js" | "jsm" | "tasks" | "resultTtlMs" | "eventsDirect">): TaskStore {
  const events = new TaskEvents(nats.js, nats.jsm, nats.eventsDirect);
  return new TaskStore(nats.tasks, nats.resultTtlMs, (id) => events.queuedRecord(id));
}

/**
 * Submit side of the pipeline: the request body goes to the object store, the state record to
 * the task bucket, and a small message to the work-queue stream with the task id as message id,
 * so a retried publish is recognised by JetStream as a duplicate rather than a second task.
 */
export class TaskQueue {
  readonly store: TaskStore;
  private readonly flows: FlowSnapshot;
  /** Accounts whose consumer this process made (by key): its configuration and when. */
  private readonly knownFlows = new Map<string, { config: string; at: number }>();

  constructor(
    private readonly nats: Nats,
    private readonly ackWaitMs = 30_000,
  ) {
    this.store = taskReader(nats);
    this.flows = new FlowSnapshot(nats.jsm);
  }

  /**
   * Admits a task. The request body, the task message (with the task id as message id,
   * so a retried publish is a duplicate, not a second task) and `alongside` (the `queued` event)
   * are written at once; only when all of them are stored is the task's record
   * created, and that `create` is the commit point: a worker runs only a task whose record exists
   * and drops a message whose record never appears (TaskStore.abandon). So a submit that fails at
   * any step leaves nothing that can run or be polled. Resolves with the record's revision.
   */
  async enqueue(
    task: TaskRecord,
    requestBody: Uint8Array,
    alongside: Promise<unknown> = Promise.resolve(),
    room?: AdmissionRoom,
  ): Promise<number> {
    await this.writeAdmission(task, requestBody, alongside, room);
    return this.commit(task);
  }

  /**
   * The first half of `enqueue`: the request body, the task message and `alongside`, all at once;
   * rejects with the first failure once all have settled. Nothing can run until `commit`.
   * With the account's `room` (roomFor), the message goes to the account's flow, whose consumer
   * is made if this process has not made it lately; without, to the legacy subject.
   */
  async writeAdmission(
    task: TaskRecord,
    requestBody: Uint8Array,
    alongside: Promise<unknown> = Promise.resolve(),
    room?: AdmissionRoom,
  ): Promise<void> {
    const storeBody =
      requestBody.length <= INLINE_BODY_LIMIT
        ? this.nats.requestBodies.put(task.id, requestBody)
        : this.nats.requests.putBlob({ name: task.id }, requestBody);
    if (room) task.flowMark = room.mark;
    const subject = room ? flowSubject(room.key) : NAMES.taskSubject;
    const publish = this.nats.js.publish(subject, encodeRecordFirst(task.id), { msgID: task.id });
    const flow = room ? this.ensureFlow(room) : Promise.resolve();
    void storeBody.then(
      () => profileStage(task.id, "api.body"),
      () => undefined,
    );
    void publish.then(
      () => {
        profileStage(task.id, "api.publish");
        // A stored message is queued (a worker drops it if its record never comes): counted into
        // the cached flows rather than asking the server again.
        if (room) this.flows.admitted(room.key, room.plan);
      },
      () => undefined,
    );
    void alongside.then(
      () => profileStage(task.id, "api.queuedEvent"),
      () => undefined,
    );
    const written = await Promise.allSettled([storeBody, publish, alongside, flow]);
    const failed = written.find((w) => w.status === "rejected");
    if (failed) throw failed.reason;
    profileStage(task.id, "api.written");
  }

  /**
   * Admits a task with its message as the commit point (task-message.ts): a large body is stored
   * first, the `queued` event (`queuedEvent`, which must carry the record: the poll's only view of
   * the task until a worker writes it) is logged, and then the one message with the record and a
   * small body is published, with the task id as message id (a retried publish is a duplicate).
   * Once that publish is acknowledged the task is accepted; nothing else is written for it here.
   * `historyEntry`: the task's history entry, written alongside the event (see prepareMessage).
   */
  async commitMessage(
    task: TaskRecord,
    requestBody: string,
    room: AdmissionRoom,
    queuedEvent: (record: TaskRecord) => Promise<number>,
    historyEntry?: (record: TaskRecord) => Promise<boolean>,
  ): Promise<void> {
    await this.publishCommitted(task, requestBody, room, this.prepareMessage(task, requestBody, room, queuedEvent, historyEntry));
  }

  /**
   * The first half of commitMessage: the large body stored, the `queued` event logged and the
   * account's consumer made, all at once; resolves with the event's stream sequence. Nothing can
   * run before publishCommitted, so a submit may start this before its last checks are answered
   * (and undo it with a tombstone, admit-task.ts undoWrites, when one refuses).
   * `historyEntry` writes the task's history entry alongside, resolving whether it stored it: the
   * message then tells the worker the entry exists. Neither its failure nor its delay holds the
   * submit up beyond ENTRY_GRACE_MS: the message then goes without that mark, and the worker
   * writes a missing entry when the task ends, as for a message of an older API instance.
   */
  prepareMessage(
    task: TaskRecord,
    requestBody: string,
    room: AdmissionRoom,
    queuedEvent: (record: TaskRecord) => Promise<number>,
    historyEntry?: (record: TaskRecord) => Promise<boolean>,
  ): Promise<PreparedMessage> {
    task.flowMark = room.mark;
    this.store.stampNew(task);
    const bytes = Buffer.byteLength(requestBody, "utf8");
    const storeBody =
      bytes <= BODY_IN_MESSAGE_LIMIT
        ? Promise.resolve()
        : bytes <= INLINE_BODY_LIMIT
          ? this.nats.requestBodies.put(task.id, Buffer.from(requestBody, "utf8")).then(() => undefined)
          : this.nats.requests.putBlob({ name: task.id }, Buffer.from(requestBody, "utf8")).then(() => undefined);
    const logged = queuedEvent(task);
    const entry = historyEntry ? historyEntry(task).catch(() => false) : Promise.resolve(false);
    const prepared = Promise.allSettled([storeBody, logged, this.ensureFlow(room)]).then(async (before) => {
      const failed = before.find((w) => w.status === "rejected");
      if (failed) throw failed.reason;
      return { queuedSeq: await logged, historyEntry: await withinGrace(entry) };
    });
    prepared.catch(() => undefined);
    return prepared;
  }

  /** The second half of commitMessage: once `prepared` is stored, the committing publish. */
  async publishCommitted(task: TaskRecord, requestBody: string, room: AdmissionRoom, prepared: Promise<PreparedMessage>): Promise<void> {
    // The worker that finishes the task logs its next events after this one (task-message.ts).
    const { queuedSeq, historyEntry } = await prepared;
    profileStage(task.id, "api.written");
    const inline = Buffer.byteLength(requestBody, "utf8") <= BODY_IN_MESSAGE_LIMIT;
    // An unanswered publish (a timeout) is sent again under the same message id before the submit
    // gives up: if the first was stored and only its acknowledgement lost, JetStream answers the
    // repeat as a duplicate, so the submit learns the truth instead of answering 503 for a task
    // that runs. The repeats stay far inside the stream's duplicate window.
    await this.nats.js.publish(`${flowSubject(room.key)}`, encodeCommitted(task, inline ? requestBody : null, queuedSeq, historyEntry), {
      msgID: task.id,
      retries: COMMIT_PUBLISH_ATTEMPTS,
    });
    profileStage(task.id, "api.publish");
    this.flows.admitted(room.key, room.plan);
  }

  /** Makes the account's consumer unless this process made it with this configuration lately. */
  private async ensureFlow(room: AdmissionRoom): Promise<void> {
    const config = `${room.plan.name}/${room.plan.weight}/${room.plan.maxSolving}`;
    const known = this.knownFlows.get(room.key);
    if (known && known.config === config && Date.now() - known.at < FLOW_KNOWN_MS) return;
    await ensureFlow(this.nats.jsm, room.key, room.plan, this.ackWaitMs);
    this.knownFlows.set(room.key, { config, at: Date.now() });
  }

  /** The second half of `enqueue`: the record's `create`, the commit point (TaskStore.admit). */
  commit(task: TaskRecord): Promise<number> {
    return this.store.admit(task);
  }

  /**
   * The whole service's depth as last read, if that read is fresh enough to be used without
   * asking the server (the same freshness `queueDepth` uses); null otherwise.
   */
  cachedDepth(): number | null {
    return this.flows.cachedServiceDepth();
  }

  /** The account's standing for a submit (busy checks, the new task's place), from the flows. */
  roomFor(owner: string, plan: Plan): Promise<AdmissionRoom> {
    return this.flows.room(owner, plan);
  }

  /** As roomFor, from the cached flows only; null when they are not fresh. */
  cachedRoomFor(owner: string, plan: Plan): AdmissionRoom | null {
    return this.flows.cachedRoom(owner, plan);
  }

  /** Tasks ahead of a queued task under the fair order (the poll's queue_depth). */
  tasksAhead(task: TaskRecord): Promise<number> {
    return this.flows.aheadOf(task.flowMark ? flowKey(task.owner) : LEGACY_FLOW, task.flowMark);
  }

  /** Removes a task's stored request body (data removal), wherever it was kept. */
  async removeRequest(taskId: string): Promise<void> {
    await Promise.all([this.nats.requestBodies.purge(taskId), this.nats.requests.delete(taskId).catch(ignoreNotFound)]);
  }

  async loadRequest(taskId: string): Promise<Uint8Array | null> {
    const inline = await this.nats.requestBodies.get(taskId);
    if (inline && inline.operation === "PUT" && inline.length > 0) return inline.value;
    return this.nats.requests.getBlob(taskId);
  }

  /** Tasks accepted and not yet picked up by a worker (running ones excluded), of every account, briefly cached. */
  queueDepth(): Promise<number> {
    return this.flows.serviceDepth();
  }

  /** Tasks handed to a worker and not yet acknowledged. */
  inProgress(): Promise<number> {
    return this.flows.inProgress();
  }
}
