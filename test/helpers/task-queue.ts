import type { JetStreamManager } from "@nats-io/jetstream";
import { listFlows } from "../../src/queue/flows.js";

/** Tasks waiting and delivered-unacknowledged over every account's flow and the legacy subject. */
export async function queueCounts(jsm: JetStreamManager): Promise<{ pending: number; ackPending: number }> {
  const flows = await listFlows(jsm);
  return {
    pending: flows.reduce((n, f) => n + f.pending, 0),
    ackPending: flows.reduce((n, f) => n + f.ackPending, 0),
  };
}
