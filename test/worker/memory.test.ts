import { expect } from "chai";
import { loadConfig } from "../../src/config/load.js";
import { TaskQueue } from "../../src/queue/task-queue.js";
import { startWorker, type RunningWorker } from "../../src/worker/start-worker.js";
import { quietLog, withNats } from "../helpers/nats.js";
import { memoryAfterGc, runRound, type MemorySample } from "../helpers/worker-rounds.js";

/**
 * A guard against gross leaks in the worker's task loop (records, listeners, timers kept per
 * task), kept short and robust: the heap after a full GC and the count of live handles must
 * not grow between the end of the warm-up round and the end of the run. The full picture
 * (thousands of tasks, RSS) is `npm run bench:worker-memory`; see BENCHMARKS.md.
 */
describe("worker memory over many small tasks", function () {
  this.timeout(120_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let worker: RunningWorker | null = null;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await worker?.stop();
    await nats?.stop();
  });

  it("keeps the heap after GC and the live handles flat once warmed up", async () => {
    const config = loadConfig({ ...process.env, NATS_URL: nats.server.url, WORKER_METRICS_PORT: "0", LOG_LEVEL: "error" });
    worker = await startWorker(config, quietLog);
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const samples: MemorySample[] = [];
    for (let round = 0; round < 4; round++) {
      await runRound(conn, queue, 150);
      samples.push(await memoryAfterGc());
    }
    const warm = samples[1]!;
    const end = samples[3]!;
    // 300 tasks lie between the two samples: 2 MB of growth would be about 7 KB kept per task.
    expect(end.heapUsed - warm.heapUsed, "heap growth after warm-up (bytes)").to.be.lessThan(2 * 1048576);
    // An idle worker holds one or two short timers depending on where its loop is (waiting on the
    // queue, or pulling a help item between waits); a handle kept per task would add hundreds.
    expect(end.activeResources, "live handles").to.be.at.most(warm.activeResources + 2);
  });
});
