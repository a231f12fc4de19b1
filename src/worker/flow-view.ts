import type { JetStreamManager } from "@nats-io/jetstream";
import { atLimit } from "../queue/fair-share.js";
import { listFlows, type FlowState } from "../queue/flows.js";

/** How long one consumers list serves a worker's choices while nothing says it went stale. */
const LIST_MAX_AGE_MS = 100;

/**
 * A worker's recent view of the flows: one consumers list serves its next choices (a burst of
 * tiny tasks is not paced by a list each), kept up to date with what the worker itself took,
 * and dropped as soon as something it cannot know arrives: a task published to a flow it
 * does not see queued, a place freed in a flow at its limit, a pull that found nothing.
 */
export class FlowView {
  private flows: FlowState[] | null = null;
  private fresh = false;
  private at = 0;

  constructor(private readonly jsm: JetStreamManager) {}

  /**
   * The flows, listed again when the view is stale. While the list cannot be read (the stream
   * failing over) the last one serves, so the workers keep pulling from the consumers they know.
   */
  async current(): Promise<FlowState[]> {
    if (this.flows && this.fresh && Date.now() - this.at < LIST_MAX_AGE_MS) return this.flows;
    try {
      const flows = await listFlows(this.jsm);
      this.flows = flows;
      this.at = Date.now();
      this.fresh = true;
      return flows;
    } catch (err) {
      if (!this.flows) throw err;
      return this.flows;
    }
  }

  invalidate(): void {
    this.fresh = false;
  }

  /** Whether, as last seen, no flow had a task queued (an idle service). */
  nothingQueued(): boolean {
    return this.flows !== null && this.flows.every((f) => f.pending === 0);
  }

  /** A task was published on the flow `key`'s subject. */
  published(key: string): void {
    if (!this.flows?.some((f) => f.key === key && f.pending > 0)) this.invalidate();
  }

  /** A task ended or was handed back somewhere. */
  freed(): void {
    if (this.flows?.some(atLimit)) this.invalidate();
  }

  /** This worker took a message from the flow (a first delivery leaves the queue for a worker's hands). */
  took(flow: FlowState, firstDelivery: boolean): void {
    if (!firstDelivery) return;
    flow.pending = Math.max(0, flow.pending - 1);
    flow.ackPending++;
  }
}
