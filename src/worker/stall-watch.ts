import { atLimit } from "../queue/fair-share.js";
import type { FlowState } from "../queue/flows.js";

interface Seen {
  /** The flow's deliveries when last seen to change. */
  delivered: number;
  /** When this worker last pulled from it for a redelivery (or first saw it stalled). */
  probed: number;
}

/**
 * Finds flows stalled at their max_solving: tasks queued, every place held, and no delivery for
 * a while. Their places may be held by deliveries nobody will acknowledge (a killed worker's
 * task, an acknowledgement lost while the consumer's leader changed); JetStream redelivers those
 * after ack_wait, but only to a pull, and a busy worker never pulls from a flow at its limit
 * unless a hand-back was announced. Without a probe the flow waits until every worker is idle.
 */
export class StallWatch {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly probeEveryMs: number) {}

  /** The stalled flows due a pull for a redelivery now; each is due again `probeEveryMs` later. */
  due(flows: readonly FlowState[], now = Date.now()): FlowState[] {
    const due: FlowState[] = [];
    const stalled = new Set<string>();
    for (const flow of flows) {
      if (flow.pending === 0 || !atLimit(flow)) continue;
      stalled.add(flow.key);
      const seen = this.seen.get(flow.key);
      if (!seen || seen.delivered !== flow.delivered) {
        this.seen.set(flow.key, { delivered: flow.delivered, probed: now });
      } else if (now - seen.probed >= this.probeEveryMs) {
        seen.probed = now;
        due.push(flow);
      }
    }
    for (const key of this.seen.keys()) if (!stalled.has(key)) this.seen.delete(key);
    return due;
  }
}
