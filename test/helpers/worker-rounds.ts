import { randomUUID } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Nats } from "../../src/queue/connection.js";
import { NAMES } from "../../src/queue/names.js";
import type { TaskQueue } from "../../src/queue/task-queue.js";
import type { TaskRecord } from "../../src/queue/task-store.js";

/** Shared by the worker memory test and `npm run bench:worker-memory`. */

const SMALL_BODY = Buffer.from(
  JSON.stringify({
    node_num: 4,
    vehicle_num: 1,
    distance_matrix: [
      [0, 3, 4, 5],
      [3, 0, 2, 4],
      [4, 2, 0, 3],
      [5, 4, 3, 0],
    ],
    start_nodes: [0],
    end_nodes: [0],
    node_demands: [0, 1, 2, 1],
    vehicles_capacity: [10],
    time_limit_seconds: 1,
  }),
);

function smallTask(id: string): TaskRecord {
  const now = new Date().toISOString();
  return {
    id,
    owner: "memory",
    channel: "direct",
    state: "queued",
    submittedAt: now,
    updatedAt: now,
    name: null,
    nodeNum: 4,
    vehicleNum: 1,
    objective: "min_total_distance",
    timeLimitSeconds: 1,
    strategy: null,
    callbackUrl: null,
    solveAttempts: 0,
  };
}

/** Enqueues `count` small tasks (as the API would) and waits until the workers have done them all. */
export async function runRound(conn: Nats, queue: TaskQueue, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => queue.enqueue(smallTask(randomUUID()), SMALL_BODY)));
  for (;;) {
    const info = await conn.jsm.consumers.info(NAMES.taskStream, NAMES.taskConsumer);
    if (info.num_pending === 0 && info.num_ack_pending === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A full GC, even without --expose-gc (the flag can be set at run time; the function then comes from a fresh context). */
function fullGc(): void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed();
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Timers, sockets and other handles keeping the event loop alive. */
  activeResources: number;
}

export async function memoryAfterGc(): Promise<MemorySample> {
  // Two passes with a pause between: the first can leave finalisation work for the second.
  fullGc();
  await new Promise((r) => setTimeout(r, 50));
  fullGc();
  const m = process.memoryUsage();
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    activeResources: process.getActiveResourcesInfo().length,
  };
}
