import type { JetStreamManager } from "@nats-io/jetstream";
import { listFlows } from "../../src/queue/flows.js";
import type { TaskRecord } from "../../src/queue/task-store.js";

/** Tasks waiting and delivered-unacknowledged over every account's flow and the legacy subject. */
export async function queueCounts(jsm: JetStreamManager): Promise<{ pending: number; ackPending: number }> {
  const flows = await listFlows(jsm);
  return {
    pending: flows.reduce((n, f) => n + f.pending, 0),
    ackPending: flows.reduce((n, f) => n + f.ackPending, 0),
  };
}

/** A queued task's record as the API would create it, for tests that write records directly. */
export function queuedTaskRecord(id: string, owner: string, size: { nodeNum: number; vehicleNum: number }): TaskRecord {
  const now = new Date().toISOString();
  return {
    id,
    owner,
    channel: "direct",
    state: "queued",
    submittedAt: now,
    updatedAt: now,
    name: null,
    ...size,
    objective: "min_total_distance",
    timeLimitSeconds: 1,
    strategy: null,
    callbackUrl: null,
    solveAttempts: 0,
    seed: 1,
  };
}
