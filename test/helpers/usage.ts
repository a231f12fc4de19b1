import { loadConfig } from "../../src/config/load.js";
import { Admission, SYSTEM_CLOCK } from "../../src/limits/admission.js";
import { KvCounter } from "../../src/limits/kv-counter.js";
import { connectNats } from "../../src/queue/connection.js";
import { TaskQueue } from "../../src/queue/task-queue.js";
import { HistoryStore } from "../../src/store/history.js";
import type { Stack } from "./stack.js";
import { quietLog } from "./nats.js";

/** An account's counters as stored in NATS: submits this minute (rate) and tasks this month (quota). */
export async function usageOf(stack: Stack, owner: string): Promise<{ minute: number; month: number }> {
  const conn = await connectNats(loadConfig(stack.env), "test-usage", quietLog);
  try {
    return await new Admission(new KvCounter(conn.counters), SYSTEM_CLOCK).usage(owner);
  } finally {
    await conn.close();
  }
}

/**
 * A task's stored request body wherever the service keeps it (the request-body bucket, or with the
 * history's final body when it came inside the task message); null once removed.
 */
export async function storedRequestBody(stack: Stack, id: string): Promise<Uint8Array | null> {
  const conn = await connectNats(loadConfig(stack.env), "test-body", quietLog);
  try {
    const kept = await new HistoryStore(conn.history, conn.requests, conn.requestBodies).keptDownload(id);
    if (kept?.request !== undefined) return new TextEncoder().encode(JSON.stringify(kept.request));
    return await new TaskQueue(conn).loadRequest(id);
  } finally {
    await conn.close();
  }
}
