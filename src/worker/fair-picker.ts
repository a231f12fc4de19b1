import { randomUUID } from "node:crypto";
import type { JsMsg } from "@nats-io/jetstream";
import type { Logger } from "../log/logger.js";
import type { Nats } from "../queue/connection.js";
import { FairScheduleStore } from "../queue/fair-schedule-store.js";
import { atLimit, batchAllowance, candidateOrder } from "../queue/fair-share.js";
import { FlowPuller } from "../queue/flow-pull.js";
import { consumerOfKey, LEGACY_FLOW, readFlow, type FlowState } from "../queue/flows.js";
import { NAMES } from "../queue/names.js";
import { FlowView, UNLISTED_PLAN } from "./flow-view.js";
import { HeldDeliveries } from "./held-deliveries.js";
import { ScheduleCharges } from "./schedule-charges.js";
import { StallWatch } from "./stall-watch.js";

/** How long an idle worker waits for a wake-up before it scans the flows again (redeliveries publish nothing). */
const IDLE_SCAN_MS = 1000;
/**
 * A publish is seen by core subscribers about when the stream stores it, and the API creates an
 * account's consumer alongside its first publish: a scan right after a wake-up may not see the
 * task yet, so after one the worker scans this many more times, SETTLE_RETRY_MS apart.
 */
const SETTLE_SCANS = 5;
const SETTLE_RETRY_MS = 3;
/**
 * How long the pull from the flow a publish was just seen on waits on the server for a message:
 * the stream may store the task a moment after core subscribers see the publish, and one waiting
 * pull answers as soon as it is stored (where pulls a millisecond apart cost a request each).
 */
const HINT_WAIT_MS = 50;
/**
 * The most tasks one pull takes from a flow, when the task before ended quickly (a burst of tiny
 * tasks): one request for several, the tasks beyond the first held until started (HeldDeliveries).
 */
const MAX_BATCH = 4;
/** Flows tried per scan before the flows are listed again. */
const MAX_PULLS_PER_SCAN = 6;
const PULL_TIMEOUT_MS = 500;
/** How long a pull from a flow at its max_solving waits for the server's answer that it has no redelivery. */
const AT_LIMIT_WAIT_MS = 50;
/** How often a busy worker pulls from a flow stalled at its max_solving for a redelivery (see StallWatch). */
const STALL_PROBE_MS = 2000;

/** The end of a freed notice whose task was handed back for redelivery, and of one whose task was acknowledged. */
const HANDED_BACK = ":handed-back";
const ENDED = ":ended";
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
  private readonly charges: ScheduleCharges;
  private readonly puller: FlowPuller;
  private wakes = 0;
  private settleLeft = 0;
  private waiter: (() => void) | null = null;
  private readonly subscriptions;
  private stopped = false;
  private charging: Promise<void> = Promise.resolve();
  private readonly view: FlowView;
  private readonly stalls = new StallWatch(STALL_PROBE_MS);
  private readonly held: HeldDeliveries;
  /** The flow of the latest publish seen. */
  private hint: string | null = null;
  /** A hand-back seen, or the periodic re-scan due: the next scan also tries flows that may hold a redelivery. */
  private redeliveryLikely = true;
  /** Told of every task publish seen (the help loop stops an item's search for it). */
  private readonly publishWatchers: (() => void)[] = [];
  /** Marks this worker's own freed notices, which need not wake it. */
  private readonly id = randomUUID();

  constructor(
    private readonly nats: Nats,
    private readonly log: Logger,
    private readonly onTaken: (taken: TakenTask) => void = () => undefined,
  ) {
    this.charges = new ScheduleCharges(new FairScheduleStore(nats.fairShare), log);
    this.puller = new FlowPuller(nats.nc);
    this.view = new FlowView(nats.jsm);
    this.held = new HeldDeliveries((m) => this.handBack(m));
    const wake = (_err: unknown, m: { subject: string; string(): string }) => {
      if (m.subject === NAMES.freedSubject) {
        const notice = m.string();
        if (notice.startsWith(this.id)) return;
        // A notice without the mark (one from an older worker) may be a hand-back too.
        if (!notice.endsWith(ENDED)) this.redeliveryLikely = true;
        this.view.freed();
      } else {
        const key = m.subject === NAMES.taskSubject ? LEGACY_FLOW : m.subject.slice(NAMES.flowSubjectPrefix.length);
        this.view.published(key);
        for (const watcher of this.publishWatchers) watcher();
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
    if (this.held.size > 0) return this.nextHeld(gate);
    const wakesBefore = this.wakes;
    // This worker's last take is reported (and charged) before it chooses again.
    await this.charging;
    await this.charges.settled();
    // Nothing was queued anywhere, and a task was just published: it is the one to take (no other
    // flow can be ahead of it), straight from its flow without listing the flows first.
    const hinted = this.hint;
    this.hint = null;
    if (hinted !== null && !gate && this.view.nothingQueuedBesides(hinted)) {
      // The pull below waits for the stream to store the task; no settle scans after it.
      this.settleLeft = 0;
      const consumer = consumerOfKey(hinted);
      const message = await this.puller.pull(consumer, PULL_TIMEOUT_MS, { expiresMs: HINT_WAIT_MS, waitForMessage: true });
      if (message && message !== "timeout") {
        this.charging = this.reportHinted(message);
        return message;
      }
      if (message === null && this.wakes === wakesBefore) {
        // Stored and not given to this worker: another idle worker took it, or its flow is at
        // its max_solving (a freed place wakes this worker). Nothing else came meanwhile, so
        // there is nothing to scan for; the next wake-up lists the flows again.
        this.view.invalidate();
        await this.idle();
        return null;
      }
    }
    const redeliveries = this.redeliveryLikely;
    this.redeliveryLikely = false;
    const flows = await this.view.current();
    // Flows whose tasks are all in workers' hands give nothing but a redelivery; they are tried
    // only when one is likely (a task handed back) or on the periodic re-scan, not on every wake.
    const open = flows.filter((f) => (f.pending > 0 && !atLimit(f)) || (redeliveries && f.ackPending > 0));
    // The shared schedule only orders two or more flows.
    const schedule = await this.charges.forChoice(open.length > 1);
    // A flow stalled at its limit is tried first: a redelivery from it is a task already charged
    // and the oldest waiting, and the pull costs AT_LIMIT_WAIT_MS only once per STALL_PROBE_MS.
    const stalled = this.stalls.due(flows);
    const ordered = candidateOrder(
      open.filter((f) => !stalled.includes(f)),
      schedule,
    );
    const candidates = [...stalled, ...ordered].slice(0, MAX_PULLS_PER_SCAN);
    if (candidates.length > 0 && gate && !(await gate)) return null;
    for (const chosen of candidates) {
      // A batch only after a quick task (the gate is open by now): tiny tasks come in bursts.
      const batch =
        gate && !atLimit(chosen) && chosen.plan !== UNLISTED_PLAN && !stalled.includes(chosen)
          ? batchAllowance(chosen, open, schedule, MAX_BATCH)
          : 1;
      const answer = await this.puller.pullUpTo(
        chosen.consumer,
        batch,
        PULL_TIMEOUT_MS,
        atLimit(chosen) ? { expiresMs: AT_LIMIT_WAIT_MS } : undefined,
      );
      // No answer (the consumer without a leader, a failover): the flows are listed again rather
      // than waiting on the next candidate too, so a task that arrived meanwhile is not held up.
      if (answer === "timeout") {
        this.view.invalidate();
        break;
      }
      const [message, ...more] = answer;
      if (!message) {
        this.view.missed(chosen);
        if (chosen.pending > 0) this.view.invalidate();
        continue;
      }
      // Usually the chosen flow's; a late answer to an earlier pull may be another's.
      const flow = flows.find((f) => f.consumer === message.info.consumer) ?? chosen;
      const first = message.info.deliveryCount === 1;
      this.view.took(flow, first);
      if (flow.plan === UNLISTED_PLAN) {
        // Seen only through its publish (the list was slow): its plan and weight are read first.
        this.charging = this.describe(message.info.consumer).then((described) => {
          if (!described) return;
          this.onTaken({ message, flow: described });
          if (first) this.charges.add(described.key, described.weight);
        });
        return message;
      }
      // A redelivery (a crashed worker's task, one handed back) was charged when first taken.
      const kept = this.keep(more, flow);
      const charged = (first ? 1 : 0) + kept.filter((m) => m.info.deliveryCount === 1).length;
      if (charged > 0) this.charges.add(flow.key, flow.weight, charged);
      this.onTaken({ message, flow });
      return message;
    }
    if (this.wakes !== wakesBefore || this.settleLeft > 0) {
      this.settleLeft = Math.max(0, this.settleLeft - 1);
      await sleep(SETTLE_RETRY_MS);
    } else {
      await this.idle();
    }
    return null;
  }

  /**
   * The rest of a batch, held to be started one by one after quick tasks (nextHeld); returns
   * those held. A delivery from another flow (a late answer to an earlier pull) is handed back.
   */
  private keep(more: readonly JsMsg[], flow: FlowState): JsMsg[] {
    const own: JsMsg[] = [];
    for (const m of more) {
      if (m.info.consumer === flow.consumer) {
        own.push(m);
        this.view.took(flow, m.info.deliveryCount === 1);
        continue;
      }
      this.handBack(m);
    }
    this.held.keep(own, flow);
    return own;
  }

  /** Gives a delivery back to its flow for redelivery, and says a place may be free. */
  private handBack(m: JsMsg): void {
    m.nak();
    this.released(m, true);
  }

  /** A held delivery if the task before it ended quickly; otherwise every held one is handed back. */
  private async nextHeld(gate?: Promise<boolean>): Promise<JsMsg | null> {
    if (gate && !(await gate)) {
      this.held.release();
      return null;
    }
    const next = this.held.take();
    if (next) this.onTaken(next);
    return next?.message ?? null;
  }

  /** Waits for a wake-up; without one, the periodic re-scan also tries flows that may hold a redelivery. */
  private async idle(): Promise<void> {
    const woken = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), IDLE_SCAN_MS);
      this.waiter = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    this.waiter = null;
    if (!woken) {
      this.redeliveryLikely = true;
      this.view.invalidate();
    }
  }

  /**
   * Reports a task taken from a just-published flow while nothing was queued anywhere; its flow
   * (plan, weight) comes from the last list, or a new one for a flow not seen before. It is not
   * charged: it held up no other account, and virtual time only runs while flows compete (a
   * charge would put the account behind the others later for a task that cost them nothing).
   */
  private async reportHinted(message: JsMsg): Promise<void> {
    const listed = this.view.find(message.info.consumer);
    if (listed) this.view.took(listed, message.info.deliveryCount === 1);
    const flow = listed ?? (await this.describe(message.info.consumer));
    if (flow) this.onTaken({ message, flow });
  }

  /** A flow's plan and weight from its own consumer's info (a flow the last list did not show). */
  private async describe(consumer: string): Promise<FlowState | null> {
    try {
      return await readFlow(this.nats.jsm, consumer);
    } catch (err) {
      this.log.warn("task taken from a flow that could not be read", { err, flow: consumer });
      return null;
    }
  }

  /** Calls `watcher` on every task published, until stopped. */
  onPublished(watcher: () => void): void {
    this.publishWatchers.push(watcher);
  }

  /**
   * Ends an idle wait now, and makes a scan under way end without one: the caller has other work
   * for an idle worker (help items, help-loop.ts) and asks again right after it.
   */
  wake(): void {
    this.wakes++;
    this.waiter?.();
  }

  /**
   * Tells idle workers that a place was freed: a task ended or, with `handedBack`, was given back
   * for redelivery (which they then also pull for). An ended task of a flow that had places to
   * spare, as this worker saw it a moment ago, frees nothing anyone waits for (a worker idles on
   * a flow only at its max_solving; a new task's publish wakes it anyway): no notice then, one
   * message and a wake-up per worker less per task. A view that was wrong costs an idle worker
   * at most its periodic re-scan.
   */
  released(message: JsMsg, handedBack: boolean): void {
    if (!handedBack) this.view.ended(message.info.consumer);
    this.view.freed();
    if (!handedBack && this.view.roomy(message.info.consumer)) return;
    if (!this.nats.nc.isClosed()) this.nats.nc.publish(NAMES.freedSubject, `${this.id}${handedBack ? HANDED_BACK : ENDED}`);
  }

  stop(): void {
    this.stopped = true;
    this.held.release();
    // Best effort: the connection may close before the last interval's charges are written.
    void this.charges.flush();
    this.waiter?.();
    for (const s of this.subscriptions) s.unsubscribe();
    this.puller.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
