/**
 * `npm run bench:worker-memory`: is the worker's memory growth a leak or warm-up? One worker runs
 * in this process (its solver thread included) against its own nats-server, and works through
 * rounds of small tasks; after each round it is idle, a full GC runs, and RSS, heapUsed and
 * external memory are printed. A leak shows as heapUsed (after GC) rising round after round;
 * warm-up as a rise in the first rounds that then levels off.
 *
 * MEM_TASKS (default 3000) and MEM_ROUND (default 250) change the run. Needs --expose-gc (the npm
 * script passes it).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.js";
import { startNatsServer } from "../src/infra/nats-server.js";
import { createLogger } from "../src/log/logger.js";
import { connectNats } from "../src/queue/connection.js";
import { NAMES } from "../src/queue/names.js";
import { TaskQueue } from "../src/queue/task-queue.js";
import type { TaskRecord } from "../src/queue/task-store.js";
import { startWorker } from "../src/worker/start-worker.js";

const TASKS = Number(process.env.MEM_TASKS ?? 3000);
const ROUND = Number(process.env.MEM_ROUND ?? 250);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

const BODY = Buffer.from(
  JSON.stringify({ node_num: 4, vehicle_num: 1, distance_matrix: [[0, 3, 4, 5], [3, 0, 2, 4], [4, 2, 0, 3], [5, 4, 3, 0]], start_nodes: [0], end_nodes: [0], node_demands: [0, 1, 2, 1], vehicles_capacity: [10], time_limit_seconds: 1 }),
);

function task(id: string): TaskRecord {
  const now = new Date().toISOString();
  return { id, owner: "memory", channel: "direct", state: "queued", submittedAt: now, updatedAt: now, name: null, nodeNum: 4, vehicleNum: 1, objective: "min_total_distance", timeLimitSeconds: 1, strategy: null, callbackUrl: null, deliveries: 0 };
}

const mb = (n: number) => (n / 1048576).toFixed(1).padStart(6);

async function sample(label: string): Promise<{ rss: number; heapUsed: number }> {
  // Two passes: the first can leave finalisation work for the second.
  gc!();
  await new Promise((r) => setTimeout(r, 50));
  gc!();
  const m = process.memoryUsage();
  console.log(`${label.padEnd(12)} rss ${mb(m.rss)} MB  heapUsed ${mb(m.heapUsed)} MB  heapTotal ${mb(m.heapTotal)} MB  external ${mb(m.external)} MB  arrayBuffers ${mb(m.arrayBuffers)} MB`);
  return { rss: m.rss, heapUsed: m.heapUsed };
}

const dir = mkdtempSync(join(tmpdir(), "vrp-bench-mem-"));
const nats = await startNatsServer({ storeDir: join(dir, "nats") });
const config = loadConfig({ ...process.env, NATS_URL: nats.url, WORKER_METRICS_PORT: "0", LOG_LEVEL: "warn" });
const quiet = createLogger({}, "warn");
const worker = await startWorker(config, quiet);
const conn = await connectNats(config, "memory-bench", quiet);
const queue = new TaskQueue(conn);
try {
  const samples = [await sample("start")];
  for (let done = 0; done < TASKS; done += ROUND) {
    const ids = Array.from({ length: Math.min(ROUND, TASKS - done) }, () => randomUUID());
    await Promise.all(ids.map((id) => queue.enqueue(task(id), BODY)));
    // The round is over when the consumer has nothing pending or in hand.
    for (;;) {
      const info = await conn.jsm.consumers.info(NAMES.taskStream, NAMES.taskConsumer);
      if (info.num_pending === 0 && info.num_ack_pending === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    samples.push(await sample(`${done + ids.length} tasks`));
  }
  // Compare the second third of the run with the last third: warm-up is over by then.
  const third = Math.floor(samples.length / 3);
  const avg = (xs: { heapUsed: number; rss: number }[], k: "heapUsed" | "rss") => xs.reduce((s, x) => s + x[k], 0) / xs.length;
  const middle = samples.slice(third, 2 * third);
  const last = samples.slice(2 * third);
  console.log(
    `heapUsed after GC: middle third ${mb(avg(middle, "heapUsed"))} MB, last third ${mb(avg(last, "heapUsed"))} MB; rss: middle ${mb(avg(middle, "rss"))} MB, last ${mb(avg(last, "rss"))} MB`,
  );
} finally {
  await conn.close();
  await worker.stop();
  await nats.kill();
  rmSync(dir, { recursive: true, force: true });
}
