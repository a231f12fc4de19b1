import type { Nats } from "./connection.js";
import { NAMES } from "./names.js";
import type { TaskRecord } from "./task-store.js";
import { TaskStore } from "./task-store.js";
import { profileStage } from "../infra/stage-profile.js";

/** What travels in the work-queue message: ids only, never the (possibly 64 MiB) request body. */
export interface TaskMessage {
  taskId: string;
}

const DEPTH_CACHE_MS = 250;
/** Bodies up to this size go to a KV bucket (one write); larger ones to the chunked object store. */
const INLINE_BODY_LIMIT = 768 * 1024;
const encoder = new TextEncoder();

function ignoreNotFound(err: unknown): void {
  if (!/not found/i.test(err instanceof Error ? err.message : String(err))) throw err;
}

/**
 * Submit side of the pipeline: the request body goes to the object store, the state record to
 * the task bucket, and a small message to the work-queue stream with the task id as message id,
 * so a retried publish is recognised by JetStream as a duplicate rather than a second task.
 */
export class TaskQueue {
  readonly store: TaskStore;
  private depthCache: { value: number; at: number } | null = null;

  constructor(private readonly nats: Nats) {
    this.store = new TaskStore(nats.tasks, nats.resultTtlMs);
  }

  /**
   * Admits a task. The request body, the task message (with the task id as message id,
   * so a retried publish is a duplicate, not a second task) and `alongside` (the `queued` event)
   * are written at once; only when all of them are stored is the task's record
   * created, and that `create` is the commit point: a worker runs only a task whose record exists
   * and drops a message whose record never appears (TaskStore.abandon). So a submit that fails at
   * any step leaves nothing that can run or be polled. Resolves with the record's revision.
   */
  async enqueue(task: TaskRecord, requestBody: Uint8Array, alongside: Promise<unknown> = Promise.resolve()): Promise<number> {
    await this.writeAdmission(task, requestBody, alongside);
    return this.commit(task);
  }

  /**
   * The first half of `enqueue`: the request body, the task message and `alongside`, all at once;
   * rejects with the first failure once all have settled. Nothing can run until `commit`.
   */
  async writeAdmission(task: TaskRecord, requestBody: Uint8Array, alongside: Promise<unknown> = Promise.resolve()): Promise<void> {
    const storeBody =
      requestBody.length <= INLINE_BODY_LIMIT
        ? this.nats.requestBodies.put(task.id, requestBody)
        : this.nats.requests.putBlob({ name: task.id }, requestBody);
    const message: TaskMessage = { taskId: task.id };
    const publish = this.nats.js.publish(NAMES.taskSubject, encoder.encode(JSON.stringify(message)), { msgID: task.id });
    void storeBody.then(
      () => profileStage(task.id, "api.body"),
      () => undefined,
    );
    void publish.then(
      () => profileStage(task.id, "api.publish"),
      () => undefined,
    );
    void alongside.then(
      () => profileStage(task.id, "api.queuedEvent"),
      () => undefined,
    );
    const written = await Promise.allSettled([storeBody, publish, alongside]);
    const failed = written.find((w) => w.status === "rejected");
    if (failed) throw failed.reason;
    profileStage(task.id, "api.written");
  }

  /** The second half of `enqueue`: the record's `create`, the commit point (TaskStore.admit). */
  async commit(task: TaskRecord): Promise<number> {
    const revision = await this.store.admit(task);
    // Count our own submission into the cached depth rather than asking the server again.
    if (this.depthCache) this.depthCache.value++;
    return revision;
  }

  /**
   * The depth as last read, if that read is fresh enough to be used without asking the server
   * (the same freshness `queueDepth` uses); null otherwise.
   */
  cachedDepth(): number | null {
    return this.depthCache && Date.now() - this.depthCache.at < DEPTH_CACHE_MS ? this.depthCache.value : null;
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

  /** Tasks accepted and not yet picked up by a worker (running ones excluded), briefly cached. */
  async queueDepth(): Promise<number> {
    const now = Date.now();
    if (this.depthCache && now - this.depthCache.at < DEPTH_CACHE_MS) return this.depthCache.value;
    const info = await this.nats.jsm.consumers.info(NAMES.taskStream, NAMES.taskConsumer);
    this.depthCache = { value: info.num_pending, at: now };
    return info.num_pending;
  }

  /** Tasks handed to a worker and not yet acknowledged. */
  async inProgress(): Promise<number> {
    const info = await this.nats.jsm.consumers.info(NAMES.taskStream, NAMES.taskConsumer);
    return info.num_ack_pending;
  }
}
