import type { JsMsg } from "@nats-io/jetstream";
import type { FlowState } from "../queue/flows.js";

/**
 * Beyond this a held delivery is handed back rather than started: the worker was held up (its
 * bookkeeping tails full, a failover), and a delivery kept unstarted that long is better another's.
 * Well within any ack_wait, so no held message is redelivered to a second worker while held.
 */
export const MAX_HELD_MS = 1000;

interface Held {
  message: JsMsg;
  flow: FlowState;
  at: number;
}

/**
 * Deliveries a batch pull took beyond the one started at once, already charged to their flow and
 * counted out of its queue. They are started one by one, each only if the task before it ended
 * quickly (the caller's gate); otherwise they are all handed back at once, so no task waits
 * behind a long solve in one worker's hands while another worker could take it.
 */
export class HeldDeliveries {
  private held: Held[] = [];

  constructor(private readonly handBack: (message: JsMsg) => void) {}

  get size(): number {
    return this.held.length;
  }

  keep(messages: readonly JsMsg[], flow: FlowState, now = Date.now()): void {
    for (const message of messages) this.held.push({ message, flow, at: now });
  }

  /** The next held delivery still fresh enough to start; stale ones are handed back on the way. */
  take(now = Date.now()): { message: JsMsg; flow: FlowState } | null {
    for (let next = this.held.shift(); next; next = this.held.shift()) {
      if (now - next.at <= MAX_HELD_MS) return next;
      this.handBack(next.message);
    }
    return null;
  }

  /** Hands every held delivery back (the task before them ran long, or the worker stops). */
  release(): number {
    const all = this.held;
    this.held = [];
    for (const h of all) this.handBack(h.message);
    return all.length;
  }
}
