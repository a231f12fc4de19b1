import type { Consumer } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { TaskRunner } from "./task-runner.js";

/**
 * Bookkeeping tails (history, final event, callback, ack of solved tasks) allowed to run at once
 * behind the current solve; the loop waits for one to end before taking another task.
 */
const MAX_TAILS = 16;

/**
 * Pulls one task at a time (a solve uses a whole core) until stopped. The bookkeeping after a
 * stored result runs behind the next task's solve, so tiny tasks are not paced by its round trips.
 * Stopping ends the pull loop; the task in hand is finished, or handed back when the grace
 * period runs out; tails in flight are waited for.
 */
export class ConsumeLoop {
  private stopped = false;
  private current: Promise<unknown> | null = null;
  private readonly tails = new Set<Promise<void>>();
  private done: Promise<void> | null = null;

  constructor(
    private readonly consumer: Consumer,
    private readonly runner: TaskRunner,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      if (this.tails.size >= MAX_TAILS) await Promise.race(this.tails);
      let m;
      try {
        m = await this.consumer.next({ expires: 2000 });
      } catch (err) {
        // NATS unreachable: the client reconnects by itself; try again shortly.
        this.log.warn("pull failed", { err });
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (!m) continue;
      if (this.stopped) {
        m.nak();
        break;
      }
      this.current = this.runner.process(m).then(
        (outcome) => {
          if (!outcome.tail) return;
          const tail = outcome.tail.finally(() => this.tails.delete(tail));
          this.tails.add(tail);
        },
        (err: unknown) => {
          // A transient fault (NATS hiccup mid-task): give the task back for another try.
          this.log.error("task processing failed; handing back", { err, seq: m.seq });
          try {
            m.nak(1000);
          } catch {
            /* connection gone: ack_wait will redeliver it */
          }
        },
      );
      await this.current;
      this.current = null;
    }
  }

  /** Stops pulling and waits for the task in hand, handing it back if it outlasts `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    if (this.current) {
      const finished = await Promise.race([
        this.current.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), graceMs)),
      ]);
      if (!finished) {
        this.log.info("grace period over; handing the current task back");
        this.runner.handBackCurrent();
      }
    }
    await this.done;
    await Promise.all(this.tails);
  }
}
