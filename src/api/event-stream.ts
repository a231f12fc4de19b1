import { PassThrough } from "node:stream";
import type { Logger } from "../log/logger.js";
import { isFinalEvent, type TaskEvents } from "../queue/task-events.js";
import { isFinished, type TaskStore } from "../queue/task-store.js";
import { taskEnvelope } from "./task-view.js";

/** One `text/event-stream` frame: id, event name and the data as one line of JSON. */
export function sseFrame(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * One client following one task's events: replays the log after the client's last event id,
 * follows it live, closes after the final event. Everything it holds (the ordered consumer, the
 * keep-alive timer) is released by `close`, which runs when the final event was sent, when the
 * client goes away, or when the API shuts down.
 */
export class EventStreamSession {
  readonly body = new PassThrough();
  private closed = false;
  private keepAlive: NodeJS.Timeout | null = null;
  private lastWriteMs = Date.now();
  /** The id of the last event this client has: from Last-Event-ID, then each event sent. */
  private lastSentSeq = 0;
  private follower: Awaited<ReturnType<TaskEvents["follow"]>> | null = null;

  constructor(
    private readonly taskId: string,
    private readonly deps: { events: TaskEvents; store: TaskStore; log: Logger; keepAliveMs: number; onClose: () => void },
  ) {}

  async open(afterSeq: number): Promise<void> {
    this.lastSentSeq = afterSeq;
    const follower = await this.deps.events.follow(this.taskId, afterSeq);
    this.follower = follower;
    if (this.closed) {
      // The client left (or the API began to stop) while the consumer was being created.
      await follower.stop();
      return;
    }
    // A comment first, so the client sees the response start even before the first event.
    this.write(": connected\n\n");
    this.keepAlive = setInterval(() => void this.tick(), this.deps.keepAliveMs);
    void this.pump();
    // A client resuming after the final event gets an empty stream that ends at once.
    void this.tick(false);
  }

  private async pump(): Promise<void> {
    try {
      for await (const { seq, stored } of this.follower!.events) {
        if (this.closed) break;
        if (!isFinalEvent(stored.event)) {
          this.write(sseFrame(seq, stored.event, stored.data));
          this.lastSentSeq = seq;
          continue;
        }
        // The final event's data is exactly what the poll answers now for the finished task.
        const record = await this.deps.store.get(this.taskId);
        this.write(sseFrame(seq, stored.event, isFinished(record) ? taskEnvelope(record, null) : stored.data));
        this.lastSentSeq = seq;
        break;
      }
    } catch (err) {
      if (!this.closed) this.deps.log.warn("event stream interrupted", { task_id: this.taskId, err });
    }
    await this.close();
  }

  /**
   * Keep-alive comment, and the checks of a finished task: a client that already has the final
   * event is done; a task that ended without its final event in the log (a worker that died
   * between storing the result and logging it) gets it logged here, once.
   */
  private async tick(keepAlive = true): Promise<void> {
    if (this.closed) return;
    // Only on an idle stream: any event already shows the connection is alive.
    if (keepAlive && Date.now() - this.lastWriteMs >= this.deps.keepAliveMs * 0.9) this.write(": keep-alive\n\n");
    try {
      const record = await this.deps.store.get(this.taskId);
      if (record === null) return void (await this.close());
      if (!isFinished(record)) return;
      const last = await this.deps.events.last(this.taskId);
      if (last && isFinalEvent(last.event)) {
        if (last.seq <= this.lastSentSeq) await this.close();
        return;
      }
      await this.deps.events.publishFinalOnce(this.taskId, record.state === "solved" ? "solved" : "failed", taskEnvelope(record, null));
    } catch (err) {
      this.deps.log.warn("event stream check failed", { task_id: this.taskId, err });
    }
  }

  private write(text: string): void {
    this.lastWriteMs = Date.now();
    this.body.write(text);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    await this.follower?.stop();
    this.body.end();
    this.deps.onClose();
  }
}

/** The open event streams of one API instance, so that shutdown can end them (they never end by themselves). */
export class EventStreamRegistry {
  private readonly open = new Set<EventStreamSession>();

  add(session: EventStreamSession): void {
    this.open.add(session);
  }

  remove(session: EventStreamSession): void {
    this.open.delete(session);
  }

  get size(): number {
    return this.open.size;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.close()));
  }
}
