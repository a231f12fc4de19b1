import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.js";
import { startNatsServer } from "../../src/infra/nats-server.js";
import { connectNats, directReadsAreLeaderReads } from "../../src/queue/connection.js";
import { NAMES } from "../../src/queue/names.js";
import type { TaskRecord } from "../../src/queue/task-store.js";
import { HistoryStore } from "../../src/store/history.js";
import { quietLog, withNats } from "../helpers/nats.js";

/** How the service's NATS clients read, and how fast they leave a node that hangs. */
describe("NATS clients under faults", function () {
  this.timeout(60_000);

  it("reads task records, bodies, history, Idempotency-Key claims and counters from the stream leader, not from any replica", async () => {
    // Several replicas: a direct get may be answered by one that lags, so those buckets refuse them.
    expect(directReadsAreLeaderReads(3)).to.equal(false);
    // One replica (this server): the only copy is the leader's, and the cheaper direct get reads it.
    expect(directReadsAreLeaderReads(1)).to.equal(true);
    const nats = await withNats();
    try {
      const conn = await nats.connect();
      for (const bucket of [NAMES.taskBucket, NAMES.requestBodyBucket, NAMES.historyBucket, NAMES.idempotencyBucket, NAMES.counterBucket]) {
        const config = (await conn.jsm.streams.info(`KV_${bucket}`)).config;
        expect(config.num_replicas, bucket).to.equal(1);
        expect(config.allow_direct, bucket).to.equal(true);
      }
      expect(conn.eventsDirect).to.equal(true);
    } finally {
      await nats.stop();
    }
  });

  it("leaves a node that stops answering (SIGSTOP) within a few seconds, not the client default of minutes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vrp-hang-"));
    const server = await startNatsServer({ storeDir: dir });
    const conn = await connectNats(loadConfig({ ...process.env, NATS_URL: server.url }), "hang-test", quietLog);
    try {
      expect(conn.isConnected()).to.equal(true);
      server.process.kill("SIGSTOP");
      const frozen = Date.now();
      while (conn.isConnected()) {
        expect(Date.now() - frozen, "still connected to a frozen node").to.be.lessThan(6000);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      server.process.kill("SIGCONT");
      await conn.close().catch(() => undefined);
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes a history entry a failover lost when the task finishes, and a late first write does not overwrite it", async () => {
    const nats = await withNats();
    try {
      const conn = await nats.connect();
      const history = new HistoryStore(conn.history, conn.requests, conn.requestBodies);
      const at = new Date().toISOString();
      const task: TaskRecord = {
        id: "5c3f0f63-8a4e-4f57-9d8f-2b1c0a9e7d11",
        owner: "ann",
        channel: "direct",
        state: "queued",
        submittedAt: at,
        updatedAt: at,
        name: "lost",
        nodeNum: 4,
        vehicleNum: 1,
        objective: "min_total_distance",
        timeLimitSeconds: 1,
        strategy: null,
        callbackUrl: null,
        solveAttempts: 0,
      };
      const solved = { ...task, state: "solved" as const, result: { total_cost: 12 } as unknown as TaskRecord["result"] };
      await history.finish(solved, { success: true });
      await history.record(task);
      const entry = await history.find("ann", task.id);
      expect(entry).to.include({ request_id: task.id, state: "solved", total_cost: 12, name: "lost" });
    } finally {
      await nats.stop();
    }
  });
});
