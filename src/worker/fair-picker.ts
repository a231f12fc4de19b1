import { randomUUID } from "node:crypto";
import type { JsMsg } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { Nats } from "../queue/connection.js";
import { FairScheduleStore, type StoredSchedule } from "../queue/fair-schedule-store.js";
import { atLimit, candidateOrder, EMPTY_SCHEDULE } from "../queue/fair-share.js";
import { FlowPuller } from "../queue/flow-pull.js";
import { flowConsumer, LEGACY_FLOW, type FlowState } from "../queue/flows.js";
import { NAMES } from "../queue/names.js";
import { FlowView } from "./flow-view.js";

/** How long an idle worker waits for a wake-up before it scans the flows again (redeliveries publish nothing). */
const IDLE_SCAN_MS = 1000;
/**
 * A publish is seen by core subscribers about when the stream stores it, and the API creates an
 * account's consumer alongside its first publish: a scan right after a wake-up may not see the
 * task yet, so after one the worker scans this many more times, SETTLE_RETRY_MS apart.
 */
const SETTLE_SCANS = 5;
const SETTLE_RETRY_MS = 3;
/** Pulls, a millisecond apart, from the flow a publish was just seen on. */
const HINT_PULLS = 3;
/** Flows tried per scan before the flows are listed again. */
const MAX_PULLS_PER_SCAN = 6;
const PULL_TIMEOUT_MS = 500;
/** This worker's own last charge stands for the shared schedule this long (a stale one only fails its compare-and-set). */
const OWN_SCHEDULE_MS = 100;
/** How long a pull from a flow at its max_solving waits for the server's answer that it has no redelivery. */
const AT_LIMIT_WAIT_MS = 50;

export interface TakenTask {
  message: JsMsg;
  flow: FlowState;
}

/**
 * Chooses the next task for this worker among the accounts' flows (fair-share.ts), from state
 * kept only in NATS: the consumers list says which flows have tasks, the shared schedule which
 * flow is next; taking a task charges its flow. Idle, it waits for a task subject's publish or
 * a freed place (core-NATS wake-ups) with a periodic re-scan as safety net.
 */
export class FairPicker {
  private readonly schedule: FairScheduleStore;
  private readonly puller: FlowPuller;
  private wakes = 0;
  private settleLeft = 0;
  private waiter: (() => void) | null = null;
  private readonly subscriptions;
  private stopped = false;
  private charging: Promise<void> = Promise.resolve();
  private readonly view: FlowView;
  private ownSchedule: { stored: StoredSchedule; at: number } | null = null;
  private lastRead: StoredSchedule | null = null;
  /** The flow of the latest publish seen. */
  private hint: string | null = null;
  /** Marks this worker's own freed notices, which need not wake it. */
  private readonly id = randomUUID();

  constructor(
    private readonly nats: Nats,
    private readonly log: Logger,
    private readonly onTaken: (taken: TakenTask) => void = () => undefined,
  ) {
    this.schedule = new FairScheduleStore(nats.fairShare);
    this.puller = new FlowPuller(nats.nc);
    this.view = new FlowView(nats.jsm);
    const wake = (_err: unknown, m: { subject: string; string(): string }) => {
      if (m.subject === NAMES.freedSubject) {
        if (m.string() === this.id) return;
        this.view.freed();
      } else {
        const key = m.subject === NAMES.taskSubject ? LEGACY_FLOW : m.subject.slice(NAMES.flowSubjectPrefix.length);
        this.view.published(key);
        this.hint = key;
        // Only a publish may be ahead of what the consumers list shows (see SETTLE_SCANS).
        this.settleLeft = SETTLE_SCANS;
      }
      this.wakes++;
      this.waiter?.();
    };
    this.subscriptions = [NAMES.taskSubject, `${NAMES.flowSubjectPrefix}>`, NAMES.freedSubject].map((subject) =>
      nats.nc.subscribe(subject, { callback: wake }),
    );
  }

  /** The next task, or null after a wait with nothing to take (the caller checks whether to stop, then asks again). */
  async next(gate?: Promise<boolean>): Promise<JsMsg | null> {
    if (this.stopped) return null;
    const wakesBefore = this.wakes;
    // This worker's last charge is in before it chooses again.
    await this.charging;
    // Nothing was queued anywhere, and a task was just published: it is the one to take (no other
    // flow can be ahead of it), straight from its flow without listing the flows first.
    const hinted = this.hint;
    this.hint = null;
    if (hinted !== null && !gate && this.view.nothingQueued()) {
      // The pulls below wait for the stream to store the task; no settle scans after them.
      this.settleLeft = 0;
      const consumer = hinted === LEGACY_FLOW ? NAMES.taskConsumer : flowConsumer(hinted);
      // A core subscriber may see the publish a moment before the stream has stored it.
      for (let attempt = 0; attempt < HINT_PULLS; attempt++) {
        const message = await this.puller.pull(consumer, PULL_TIMEOUT_MS);
        if (message === "timeout") break;
        if (message) {
          this.charging = this.chargeLater(message);
          return message;
        }
        await sleep(1);
      }
    }
    const own = this.ownSchedule && Date.now() - this.ownSchedule.at < OWN_SCHEDULE_MS ? this.ownSchedule.stored : null;
    const [flows, known] = await Promise.all([this.view.current(), own ?? this.readSchedule()]);
    const candidates = candidateOrder(flows, known.schedule).slice(0, MAX_PULLS_PER_SCAN);
    if (candidates.length > 0 && gate && !(await gate)) return null;
    for (const chosen of candidates) {
      const message = await this.puller.pull(chosen.consumer, PULL_TIMEOUT_MS, atLimit(chosen) ? AT_LIMIT_WAIT_MS : undefined);
      // No answer (the consumer without a leader, a failover): the flows are listed again rather
      // than waiting on the next candidate too, so a task that arrived meanwhile is not held up.
      if (message === "timeout") {
        this.view.invalidate();
        break;
      }
      if (!message) {
        if (chosen.pending > 0) this.view.invalidate();
        continue;
      }
      // Usually the chosen flow's; a late answer to an earlier pull may be another's.
      const flow = flows.find((f) => f.consumer === message.info.consumer) ?? chosen;
      const first = message.info.deliveryCount === 1;
      this.view.took(flow, first);
      // A redelivery (a crashed worker's task, one handed back) was charged when first taken.
      if (first) this.charging = this.charge(flow, known);
      this.onTaken({ message, flow });
      return message;
    }
    if (this.wakes !== wakesBefore || this.settleLeft > 0) {
      this.settleLeft = Math.max(0, this.settleLeft - 1);
      await sleep(SETTLE_RETRY_MS);
    } else {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, IDLE_SCAN_MS);
        this.waiter = done;
        function done() {
          clearTimeout(timer);
          resolve();
        }
      });
      this.waiter = null;
    }
    return null;
  }

  /**
   * The shared schedule; while it cannot be read (its bucket failing over) the last one read
   * serves for the choice, so tasks keep starting (the charge then reads it again itself).
   */
  private async readSchedule(): Promise<StoredSchedule> {
    try {
      this.lastRead = await this.schedule.read();
      return this.lastRead;
    } catch (err) {
      if (!this.lastRead) throw err;
      return { schedule: this.lastRead.schedule, revision: -1 };
    }
  }

  /** Charges and reports a task taken without a list in hand: its flow (weight, plan) is looked up first. */
  private async chargeLater(message: JsMsg): Promise<void> {
    this.view.invalidate();
    const flows = await this.view.current().catch(() => [] as FlowState[]);
    const flow = flows.find((f) => f.consumer === message.info.consumer);
    if (!flow) return this.log.warn("fair-share charge not written: flow not listed", { flow: message.info.consumer });
    // Listed after the take: the list already counts it.
    this.onTaken({ message, flow });
    if (message.info.deliveryCount !== 1) return;
    const known = await this.readSchedule().catch(() => null);
    await this.charge(flow, known ?? { schedule: EMPTY_SCHEDULE, revision: -1 });
  }

  private async charge(flow: FlowState, known: StoredSchedule): Promise<void> {
    try {
      const stored = await this.schedule.charge(flow.key, flow.weight, known.revision >= 0 ? known : undefined);
      this.ownSchedule = stored ? { stored, at: Date.now() } : null;
    } catch (err) {
      this.ownSchedule = null;
      this.log.warn("fair-share charge not written", { err, flow: flow.consumer });
    }
  }

  /**
   * Ends an idle wait now, and makes a scan under way end without one: the caller has other work
   * for an idle worker (help items, help-loop.ts) and asks again right after it.
   */
  wake(): void {
    this.wakes++;
    this.waiter?.();
  }

  /** Tells idle workers that a place was freed (a task ended or was handed back). */
  released(): void {
    this.view.freed();
    if (!this.nats.nc.isClosed()) this.nats.nc.publish(NAMES.freedSubject, this.id);
  }

  stop(): void {
    this.stopped = true;
    this.waiter?.();
    for (const s of this.subscriptions) s.unsubscribe();
    this.puller.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
