import type { JsMsg } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { TaskRunner } from "./task-runner.js";

/**
 * Bookkeeping tails (history, final event, callback, ack of solved tasks) allowed to run at once
 * behind the current solve; the loop waits for one to end before taking another task.
 */
const MAX_TAILS = 16;

/** Where the loop takes its tasks from (FairPicker): null means nothing for now, ask again. */
export interface TaskSource {
  /** With `gate`, the task is chosen at once but taken only if the gate resolves true. */
  next(gate?: Promise<boolean>): Promise<JsMsg | null>;
  /** The task of `message` ended or, with `handedBack`, was handed back: a place may be free for another worker. */
  released(message: JsMsg, handedBack: boolean): void;
}
/** How long the task in hand may run for the next one to be taken ahead (see prefetch). */
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
    private readonly source: TaskSource,
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
        m = await (prefetched ?? this.source.next());
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
          if (!outcome.tail) return this.source.released(m, outcome.end === "handed-back");
          const tail = outcome.tail.then((acked) => {
            this.tails.delete(tail);
            this.source.released(m, !acked);
          });
          this.tails.add(tail);
        },
        (err: unknown) => {
          // A transient fault (NATS hiccup mid-task): give the task back for another try.
          this.log.error("task processing failed; handing back", { err, seq: m.seq });
          try {
            m.nak(1000);
            this.source.released(m, true);
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
    // A message taken ahead and not started (stopped meanwhile): another worker's.
    const left = await prefetched?.catch(() => null);
    if (left) {
      left.nak();
      this.source.released(left, true);
    }
  }

  /**
   * The next task is chosen while the current one runs, so a queue of tiny tasks is not paced by
   * the choice's round trips; it is taken only when the current task ends within HOLD_MS, so no
   * task is ever held behind a long solve (where a free worker could start it) nor handed back.
   */
  private async prefetch(current: Promise<void>, started: number): Promise<JsMsg | null> {
    let timer: NodeJS.Timeout | undefined;
    const gate = Promise.race([
      current.then(() => !this.stopped),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), Math.max(0, started + HOLD_MS - Date.now())))),
    ]).finally(() => clearTimeout(timer));
    return this.source.next(gate);
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
