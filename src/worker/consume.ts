import type { Consumer, JsMsg } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { TaskRunner } from "./task-runner.js";

/**
 * Bookkeeping tails (history, final event, callback, ack of solved tasks) allowed to run at once
 * behind the current solve; the loop waits for one to end before taking another task.
 */
const MAX_TAILS = 16;
/** How long a pull waits for a message before it is made again. */
const PULL_EXPIRES_MS = 2000;
/** How long a message taken ahead may wait for the task in hand before it is handed back. */
const HOLD_MS = 50;

/**
 * Solves one task at a time (a solve uses a whole core) until stopped, with the next pull already
 * out while it runs (see prefetch). The bookkeeping after a
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
    let prefetched: Promise<JsMsg | null> | null = null;
    while (!this.stopped) {
      if (this.tails.size >= MAX_TAILS) await Promise.race(this.tails);
      let m: JsMsg | null;
      try {
        m = await (prefetched ?? this.consumer.next({ expires: PULL_EXPIRES_MS }));
      } catch (err) {
        // NATS unreachable: the client reconnects by itself; try again shortly.
        this.log.warn("pull failed", { err });
        prefetched = null;
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      prefetched = null;
      if (!m) continue;
      if (this.stopped) {
        m.nak();
        break;
      }
      const started = Date.now();
      const current = this.runner.process(m).then(
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
      this.current = current;
      if (this.tails.size < MAX_TAILS) {
        prefetched = this.prefetch(current, started);
        // Awaited only once the current task is done: a pull that fails meanwhile (NATS failing
        // over: "heartbeats missed") must not be an unhandled rejection, which ends the process
        // (the fault suite saw a worker die so, between a callback's POST and its record). The
        // loop still sees the failure when it awaits the promise.
        prefetched.catch(() => undefined);
      }
      await current;
      this.current = null;
    }
    // A message taken ahead and not started: another worker's.
    const left = await prefetched?.catch(() => null);
    left?.nak();
  }

  /**
   * The next pull goes out while the current task runs, so a queue of
   * tiny tasks is not paced by one pull round trip each. A message that arrives while the current
   * task is still running after HOLD_MS is handed back at once, for a free worker to take, rather
   * than kept waiting behind a long solve.
   */
  private async prefetch(current: Promise<void>, started: number): Promise<JsMsg | null> {
    const next = await this.consumer.next({ expires: PULL_EXPIRES_MS });
    if (!next) return null;
    let timer: NodeJS.Timeout | undefined;
    const quick = await Promise.race([
      current.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), Math.max(0, started + HOLD_MS - Date.now())))),
    ]);
    clearTimeout(timer);
    if (quick && !this.stopped) return next;
    next.nak();
    return null;
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
