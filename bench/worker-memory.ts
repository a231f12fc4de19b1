/**
 * `npm run bench:worker-memory`: is the worker's memory growth a leak or warm-up? One worker runs
 * in this process (its solver thread included) against its own nats-server and works through
 * rounds of small tasks; after each round it is idle, a full GC runs, and RSS, heapUsed and
 * external memory are printed. A leak shows as heapUsed (after GC) rising round after round;
 * warm-up as a rise in the first rounds that then levels off.
 *
 * MEM_TASKS (default 3000) and MEM_ROUND (default 250) change the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.js";
import { startNatsServer } from "../src/infra/nats-server.js";
import { createLogger } from "../src/log/logger.js";
import { connectNats } from "../src/queue/connection.js";
import { TaskQueue } from "../src/queue/task-queue.js";
import { startWorker } from "../src/worker/start-worker.js";
import { memoryAfterGc, runRound, type MemorySample } from "../test/helpers/worker-rounds.js";

const TASKS = Number(process.env.MEM_TASKS ?? 3000);
const ROUND = Number(process.env.MEM_ROUND ?? 250);
const mb = (n: number) => (n / 1048576).toFixed(1).padStart(6);

function print(label: string, m: MemorySample): void {
  console.log(
    `${label.padEnd(12)} rss ${mb(m.rss)} MB  heapUsed ${mb(m.heapUsed)} MB  ` +
      `heapTotal ${mb(m.heapTotal)} MB  external ${mb(m.external)} MB  handles ` +
      `${m.activeResources}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "vrp-bench-mem-"));
const nats = await startNatsServer({ storeDir: join(dir, "nats") });
const config = loadConfig({ ...process.env, NATS_URL: nats.url, WORKER_METRICS_PORT: "0", LOG_LEVEL: "warn" });
const quiet = createLogger({}, "warn");
const worker = await startWorker(config, quiet);
const conn = await connectNats(config, "memory-bench", quiet);
const queue = new TaskQueue(conn);
try {
  // Give the solver thread (started with the worker) a moment to boot before the first sample.
  await new Promise((r) => setTimeout(r, 2000));
  const samples = [await memoryAfterGc()];
  print("start", samples[0]!);
  for (let done = 0; done < TASKS; done += ROUND) {
    const count = Math.min(ROUND, TASKS - done);
    await runRound(conn, queue, count);
    samples.push(await memoryAfterGc());
    print(`${done + count} tasks`, samples.at(-1)!);
  }
  // Compare the second third of the run with the last third: warm-up is over by then.
  const third = Math.floor(samples.length / 3);
  const avg = (xs: MemorySample[], k: "heapUsed" | "rss") => xs.reduce((s, x) => s + x[k], 0) / xs.length;
  const middle = samples.slice(third, 2 * third);
  const last = samples.slice(2 * third);
  console.log(
    `heapUsed after GC: middle third ${mb(avg(middle, "heapUsed"))} MB, last third ` +
      `${mb(avg(last, "heapUsed"))} MB; rss: middle ${mb(avg(middle, "rss"))} MB, last ` +
      `${mb(avg(last, "rss"))} MB`,
  );
} finally {
  await conn.close();
  await worker.stop();
  await nats.kill();
  rmSync(dir, { recursive: true, force: true });
}
