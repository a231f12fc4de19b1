import type { JsMsg } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { HelpMetrics } from "../metrics/help-metrics.js";
import type { Nats } from "../queue/connection.js";
import { FlowPuller } from "../queue/flow-pull.js";
import type { HelpAnswerMessage, HelpItemMessage } from "../queue/help-items.js";
import { NAMES } from "../queue/names.js";
import type { TaskSource } from "./consume.js";
import type { FairPicker } from "./fair-picker.js";
import type { HelperNotice } from "./help-coordinator.js";
import type { SolverThreadRunner } from "./solver-thread-runner.js";

/** How often a worker that could help says so (help-coordinator.ts counts the announcements). */
const ANNOUNCE_MS = 400;
/**
 * A worker says it could help only once it has been idle this long: between the tasks of a burst
 * of small ones it is idle for moments, and saying so (and taking it back) every time cost two
 * messages a task that no large task's owner could use.
 */
const ANNOUNCE_AFTER_IDLE_MS = 100;
const PULL_TIMEOUT_MS = 500;
/** An item due sooner than this is not worth starting: its answer would come too late. */
const MIN_USEFUL_MS = 300;
/** The answer leaves this long before the item is due, to arrive in time. */
const ANSWER_MARGIN_MS = 150;
/** Beyond an item's own time, before its search is taken for hung and the thread replaced. */
const ITEM_HARD_GRACE_MS = 5000;

/**
 * The helper's side of cooperative solves, around the fair queue (FairPicker): a worker takes a
 * help item only when the queue had no task for it, one item at a time, and asks the queue again
 * between items. A task published while it searches an item stops that search at once (its best
 * routes so far are still sent), so the task waits for no more than the item's wind-down.
 * Idle or helping, the worker announces that it could take items; owning a task, it does not.
 */
export class HelpingSource implements TaskSource {
  private available = false;
  /** Whether the coordinators were last told that this worker could help. */
  private said = false;
  private announcer: NodeJS.Timeout | null = null;
  private firstAnnouncement: NodeJS.Timeout | null = null;
  /** When the help stream was last asked for an item without a sign that one was waiting. */
  private lastBlindPull = 0;
  /** An item was published, or one was just taken (more may wait): look before idling. */
  private itemsWaiting = false;
  private stopped = false;
  private readonly puller: FlowPuller;
  private readonly subscription;
  private current: AbortController | null = null;

  constructor(
    private readonly picker: FairPicker,
    private readonly nats: Nats,
    private readonly solver: SolverThreadRunner,
    private readonly metrics: HelpMetrics,
    private readonly log: Logger,
    private readonly workerId: string,
  ) {
    this.puller = new FlowPuller(nats.nc, NAMES.helpStream);
    // A JetStream publish is seen by core subscribers of its subject too.
    this.subscription = nats.nc.subscribe(NAMES.helpItemSubject, {
      callback: () => {
        this.itemsWaiting = true;
        if (this.available) this.picker.wake();
      },
    });
    // Through the picker's own subscription to the task subjects: one delivery of each publish, not two.
    picker.onPublished(() => this.current?.abort());
  }

  async next(gate?: Promise<boolean>): Promise<Awaited<ReturnType<FairPicker["next"]>>> {
    // Taken ahead while a task of its own runs (ConsumeLoop.prefetch): this worker is owning.
    if (gate) return this.picker.next(gate);
    const taking = this.picker.next();
    if (this.itemsWaiting) this.picker.wake();
    const message = await taking;
    if (message || this.stopped) {
      this.announce(false);
      return message;
    }
    this.announce(true);
    await this.helpOnce().catch((err: unknown) => this.log.warn("help item failed", { err }));
    return null;
  }

  released(message: JsMsg, handedBack: boolean): void {
    this.picker.released(message, handedBack);
  }

  private announce(available: boolean): void {
    if (available === this.available) return;
    this.available = available;
    const say = () => {
      this.said = this.available;
      const notice: HelperNotice = { id: this.workerId, available: this.available };
      if (!this.nats.nc.isClosed()) this.nats.nc.publish(NAMES.helpAvailableSubject, JSON.stringify(notice));
    };
    if (this.announcer) clearInterval(this.announcer);
    if (this.firstAnnouncement) clearTimeout(this.firstAnnouncement);
    this.announcer = null;
    this.firstAnnouncement = null;
    if (!available) {
      if (this.said) say();
      return;
    }
    this.firstAnnouncement = setTimeout(() => {
      this.firstAnnouncement = null;
      say();
      this.announcer = setInterval(say, ANNOUNCE_MS);
    }, ANNOUNCE_AFTER_IDLE_MS);
  }

  /** Takes one item if there is one, searches it, answers it. */
  private async helpOnce(): Promise<void> {
    // Items are looked for when one was published (the subscription) or taken (more may wait),
    // and otherwise about as often as the worker announces itself, in case a notice was missed:
    // not on every idle moment between small tasks.
    if (!this.itemsWaiting && Date.now() - this.lastBlindPull < ANNOUNCE_MS) return;
    if (!this.itemsWaiting) this.lastBlindPull = Date.now();
    this.itemsWaiting = false;
    const m = await this.puller.pull(NAMES.helpConsumer, PULL_TIMEOUT_MS);
    if (!m || m === "timeout") return;
    this.itemsWaiting = true;
    let item: HelpItemMessage;
    try {
      item = JSON.parse(m.string()) as HelpItemMessage;
    } catch {
      m.term();
      return;
    }
    const left = item.dueAt - Date.now();
    if (left < MIN_USEFUL_MS) {
      m.ack();
      return;
    }
    this.metrics.taken.inc();
    this.metrics.setHelping(true);
    const stop = new AbortController();
    this.current = stop;
    const timer = setTimeout(() => stop.abort(), Math.max(0, left - ANSWER_MARGIN_MS));
    try {
      const reply = await this.solver.runHelp(item, item.seconds * 1000 + ITEM_HARD_GRACE_MS, stop.signal);
      const answer: HelpAnswerMessage = { id: item.id, routes: reply.ok ? reply.routes : null };
      if (!reply.ok) this.log.warn("help item not solved", { error: reply.error });
      if (!this.nats.nc.isClosed()) this.nats.nc.publish(item.replyTo, JSON.stringify(answer));
      m.ack();
    } finally {
      clearTimeout(timer);
      this.current = null;
      this.metrics.setHelping(false);
    }
  }

  stop(): void {
    this.stopped = true;
    this.current?.abort();
    this.announce(false);
    this.subscription.unsubscribe();
    this.puller.close();
  }
}
