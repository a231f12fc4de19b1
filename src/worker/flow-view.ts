import { JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from "@nats-io/jetstream";
import { atLimit } from "../queue/fair-share.js";
import { consumerOfKey, listFlows, readFlow, type FlowState } from "../queue/flows.js";

/** How long one consumers list serves a worker's choices while nothing says it went stale. */
const LIST_MAX_AGE_MS = 100;
/**
 * How long a choice waits for a new consumers list before it goes on with the last one. On a
 * cluster the server waits up to 4 s for every consumer's leader to answer a list (one just made
 * for an account's first task, one whose node is catching up after a restart): every worker
 * waiting on such a list stood idle that long with tasks queued.
 */
const LIST_WAIT_MS = 500;

/** A flow seen only through a publish on its subject, not yet in a list: its plan and weight are unknown. */
export const UNLISTED_PLAN = "unlisted";

/**
 * A worker's recent view of the flows: one consumers list serves its next choices (a burst of
 * tiny tasks is not paced by a list each), kept up to date with what the worker itself took,
 * and dropped as soon as something it cannot know arrives: a task published to a flow it
 * does not see queued, a place freed in a flow at its limit, a pull that found nothing. While a
 * new list is slow to come, the last one serves, with the flows published to since then added.
 */
export class FlowView {
  private flows: FlowState[] | null = null;
  private fresh = false;
  private at = 0;
  /** Bumped by every invalidation: a list asked for before one is not fresh when it comes. */
  private generation = 0;
  private listing: Promise<FlowState[]> | null = null;
  /** Flows published to that the last list did not show. */
  private readonly unlisted = new Set<string>();
  /** Publishes seen, counted; each flow's latest one; the count when the list in the view was asked for. */
  private publishes = 0;
  private readonly lastPublish = new Map<string, number>();
  private listedThrough = 0;

  constructor(private readonly jsm: JetStreamManager) {}

  /**
   * The flows, listed again when the view is stale. While the list cannot be read (the stream
   * failing over) or is slow to come, the last one serves, so the workers keep pulling from the
   * consumers they know and from those they saw a publish for.
   */
  async current(): Promise<FlowState[]> {
    if (this.flows && this.fresh && Date.now() - this.at < LIST_MAX_AGE_MS) return this.flows;
    const listing = this.list();
    if (!this.flows) return listing;
    let timer: NodeJS.Timeout | undefined;
    const timely = await Promise.race([
      listing.catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), LIST_WAIT_MS))),
    ]);
    clearTimeout(timer);
    return timely ?? this.withUnlisted(this.flows);
  }

  /** One list at a time; what it shows replaces the view when it comes, however late. */
  private list(): Promise<FlowState[]> {
    if (this.listing) return this.listing;
    const generation = this.generation;
    const through = this.publishes;
    const listing = listFlows(this.jsm)
      .then((listed) => this.withUnanswered(listed))
      .then((flows) => {
        this.flows = flows;
        this.at = Date.now();
        this.listedThrough = through;
        for (const [key, at] of this.lastPublish) if (at <= through) this.lastPublish.delete(key);
        this.fresh = generation === this.generation;
        for (const f of flows) this.unlisted.delete(f.key);
        return flows;
      })
      .finally(() => {
        if (this.listing === listing) this.listing = null;
      });
    this.listing = listing;
    return listing;
  }

  /**
   * The new list with every flow the last one showed and it does not: on a cluster the list
   * leaves out, without an error, each consumer whose leader did not answer in time (one being
   * elected after a node's restart), and a flow left out would not be pulled from again. Each
   * such flow is asked for alone; only a consumer the server no longer has is dropped, one that
   * does not answer keeps its last state.
   */
  private async withUnanswered(listed: FlowState[]): Promise<FlowState[]> {
    const shown = new Set(listed.map((f) => f.key));
    const absent = (this.flows ?? []).filter((f) => !shown.has(f.key));
    const kept = await Promise.all(absent.map((f) => this.readAlone(f)));
    const found = kept.filter((f): f is FlowState => f !== null);
    return found.length > 0 ? [...listed, ...found] : listed;
  }

  /** The flow from its own consumer's info; null once the consumer is gone, the last state while it does not answer. */
  private async readAlone(last: FlowState): Promise<FlowState | null> {
    try {
      return await readFlow(this.jsm, last.consumer);
    } catch (err) {
      return err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound ? null : last;
    }
  }

  /** The last list with a queued task assumed in each flow published to since (the pull tells). */
  private withUnlisted(flows: FlowState[]): FlowState[] {
    const extra = [...this.unlisted]
      .filter((key) => !flows.some((f) => f.key === key))
      .map((key) => ({
        key,
        consumer: consumerOfKey(key),
        plan: UNLISTED_PLAN,
        weight: 1,
        pending: 1,
        ackPending: 0,
        maxAckPending: Number.MAX_SAFE_INTEGER,
        delivered: 0,
      }));
    return extra.length > 0 ? [...flows, ...extra] : flows;
  }

  /** The flow of `consumer` as last listed, however old the list. */
  find(consumer: string): FlowState | undefined {
    return this.flows?.find((f) => f.consumer === consumer);
  }

  invalidate(): void {
    this.fresh = false;
    this.generation++;
  }

  /**
   * Whether no flow but `key`'s can have a task queued: none had one in the list in the view and no
   * other flow was published to since that list was asked for. A worker that was busy meanwhile may
   * hold a list from before other flows' publishes, and then only a new list tells.
   */
  nothingQueuedBesides(key: string): boolean {
    if (this.flows === null || !this.flows.every((f) => f.pending === 0)) return false;
    for (const [published, at] of this.lastPublish) if (published !== key && at > this.listedThrough) return false;
    return true;
  }

  /** A task was published on the flow `key`'s subject. */
  published(key: string): void {
    this.lastPublish.set(key, ++this.publishes);
    if (this.flows?.some((f) => f.key === key && f.pending > 0)) return;
    if (!this.flows?.some((f) => f.key === key)) this.unlisted.add(key);
    this.invalidate();
  }

  /**
   * This worker's task from the flow of `consumer` was acknowledged: its place is free. Counted
   * in, so that a list slow to come still shows the flow below its limit to this worker's next choice.
   */
  ended(consumer: string): void {
    const flow = this.find(consumer);
    if (flow) flow.ackPending = Math.max(0, flow.ackPending - 1);
  }

  /**
   * Whether the flow of `consumer` had places to spare, as listed within LIST_MAX_AGE_MS and
   * counted since with this worker's own takes and ends: at most half its max_solving in hands.
   * False when the flow or a recent list is unknown.
   */
  roomy(consumer: string): boolean {
    const flow = this.find(consumer);
    return flow !== undefined && Date.now() - this.at < LIST_MAX_AGE_MS && flow.ackPending * 2 <= flow.maxAckPending;
  }

  /** A task ended or was handed back somewhere. */
  freed(): void {
    if (this.flows?.some(atLimit)) this.invalidate();
  }

  /** A pull from the flow found nothing: a flow assumed from a publish is assumed no longer. */
  missed(flow: FlowState): void {
    if (flow.plan === UNLISTED_PLAN) this.unlisted.delete(flow.key);
  }

  /**
   * This worker took a message from the flow (a first delivery leaves the queue for a worker's
   * hands). A flow assumed from a publish stays assumed: it may hold more tasks, and until a list
   * shows it or a pull finds it empty it is known nowhere else.
   */
  took(flow: FlowState, firstDelivery: boolean): void {
    if (!firstDelivery) return;
    flow.pending = Math.max(0, flow.pending - 1);
    flow.ackPending++;
  }
}
