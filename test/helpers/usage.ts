import { loadConfig } from "../../src/config/load.js";
import { Admission, SYSTEM_CLOCK } from "../../src/limits/admission.js";
import { KvCounter } from "../../src/limits/kv-counter.js";
import { connectNats } from "../../src/queue/connection.js";
import { TaskQueue } from "../../src/queue/task-queue.js";
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

/** A task's stored request body as the worker would load it; null once removed. */
export async function storedRequestBody(stack: Stack, id: string): Promise<Uint8Array | null> {
  const conn = await connectNats(loadConfig(stack.env), "test-body", quietLog);
  try {
    return await new TaskQueue(conn).loadRequest(id);
  } finally {
    await conn.close();
  }
}
