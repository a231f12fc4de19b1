import { expect } from "chai";
import { sampleValue, scrape } from "../helpers/metrics.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jetstream } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { startNatsServer } from "../../src/infra/nats-server.js";
import { NAMES } from "../../src/queue/names.js";
import { spawnService } from "../../src/infra/service-process.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { flowConsumer, flowKey } from "../../src/queue/flows.js";

const POISON_MODULE = fileURLToPath(new URL("../fixtures/poison-strategies.ts", import.meta.url));

async function callbackCounter(): Promise<{ url: string; hits: Map<string, number>; close(): void }> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const id = (JSON.parse(body) as { request_id: string }).request_id;
      hits.set(id, (hits.get(id) ?? 0) + 1);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`, hits, close: () => server.close() };
}

const phase = (b: { result: unknown }) => (b.result as { phase?: string } | null)?.phase;

describe("faults: graceful shutdown, poison tasks, NATS outage", function () {
  this.timeout(180_000);

  describe("SIGTERM", () => {
    let stack: Stack;
    let callbacks: Awaited<ReturnType<typeof callbackCounter>>;
    before(async () => {
      callbacks = await callbackCounter();
      stack = await startStack({ workers: 1, env: { WORKER_SHUTDOWN_GRACE_MS: "2000" } });
    });
    after(async () => {
      await stack?.stop();
      callbacks?.close();
    });

    it("hands a long task back when the grace period runs out; another worker solves it once", async () => {
      const client = apiClient(stack.baseUrl, (await stack.account("sre", "pro")).headers);
      const { data } = await client.POST("/api/v1/solve", {
        body: { ...cvrpRequest({ customers: 40, vehicles: 6, capacity: 50 }), time_limit_seconds: 5, callback_url: callbacks.url } as never,
      });
      const id = data!.request_id;
      await pollUntil(client, id, (b) => phase(b) === "solving");
      const worker = stack.workers[0]!;
      const stopped = Date.now();
      worker.signal("SIGTERM");
      expect(await worker.exited()).to.equal(0);
      // The phase below proves the task was handed back, not finished; this bound only catches a
      // worker that hangs past its grace period, with room for a loaded machine's slow exit.
      expect(Date.now() - stopped).to.be.lessThan(20_000);
      const handedBack = await pollUntil(client, id, () => true);
      expect(phase(handedBack)).to.equal("queued");
      await stack.startWorker({ WORKER_SHUTDOWN_GRACE_MS: "2000" });
      await pollUntil(client, id, (b) => phase(b) === "solving");
      const second = stack.workers[1]!;
      // Let it finish this time: a task within the grace period is completed before exit.
      const short = await client.POST("/api/v1/solve", {
        body: { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 1, callback_url: callbacks.url } as never,
      });
      second.signal("SIGTERM");
      expect(await second.exited()).to.equal(0);
      await stack.startWorker();
      const solved = await pollUntil(client, id, isFinished, 90_000);
      expect(solved.success).to.equal(true);
      await pollUntil(client, short.data!.request_id, isFinished, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(callbacks.hits.get(id)).to.equal(1);
      expect(callbacks.hits.get(short.data!.request_id)).to.equal(1);
    });

    it("finishes the current task on SIGTERM when it fits in the grace period, then exits, with no other worker", async () => {
      const client = apiClient(stack.baseUrl, (await stack.account("sre2", "pro")).headers);
      for (const w of stack.workers) w.signal("SIGTERM");
      await Promise.all(stack.workers.map((w) => w.exited()));
      const patient = await stack.startWorker({ WORKER_SHUTDOWN_GRACE_MS: "20000" });
      const { data } = await client.POST("/api/v1/solve", {
        body: { ...cvrpRequest({ customers: 30, vehicles: 5, capacity: 50 }), time_limit_seconds: 3, callback_url: callbacks.url } as never,
      });
      const id = data!.request_id;
      await pollUntil(client, id, (b) => phase(b) === "solving");
      const stopped = Date.now();
      patient.signal("SIGTERM");
      expect(await patient.exited()).to.equal(0);
      expect(Date.now() - stopped).to.be.lessThan(15_000);
      // No worker is running now: the task was finished by the one that was stopped.
      const done = await pollUntil(client, id, () => true);
      expect(isFinished(done), JSON.stringify(done.result)).to.equal(true);
      expect(done.success).to.equal(true);
      expect((await stack.task(id))!.solveAttempts).to.equal(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(callbacks.hits.get(id)).to.equal(1);
    });

    // Last in this block: it stops the block's API. The test before stopped every worker, so the
    // burst's tasks stay queued as on a stack without workers.
    it("lets the API finish requests in flight on SIGTERM: every acknowledged task exists", async () => {
      const { headers } = await stack.account("burst", "pro");
      const body = JSON.stringify({ ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 1 });
      const requests = Array.from({ length: 20 }, () =>
        fetch(`${stack.baseUrl}/api/v1/solve`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body,
        }).then(
          async (r) => {
            const json = (await r.json()) as { request_id: string };
            await expectMatchesSpec("submitSolve", r.status, json);
            return { status: r.status, body: json };
          },
          () => null,
        ),
      );
      await new Promise((r) => setTimeout(r, 20));
      stack.api.signal("SIGTERM");
      const answers = await Promise.all(requests);
      expect(await stack.api.exited()).to.equal(0);
      const acknowledged = answers.filter((a) => a?.status === 200);
      expect(answers.every((a) => a === null || a.status === 200)).to.equal(true);
      // Every acknowledged id must be pollable through a fresh API instance: the store has it.
      const api2 = await spawnService("api", { ...stack.env, PORT: "0" });
      try {
        const client = apiClient(api2.url, headers);
        for (const a of acknowledged) {
          const poll = await client.GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: a!.body.request_id } } });
          expect(poll.response.status).to.equal(200);
        }
      } finally {
        api2.signal("SIGKILL");
        await api2.exited();
      }
    });
  });

  // One stack for both blocks: the poison strategies are the poison test's workers' own, so the
  // deliveries test's worker solves with the built-in ones (the API reads no strategy selection).
  describe("redeliveries (WORKER_MAX_DELIVERIES=2)", () => {
    let stack: Stack;
    const poisonWorkerEnv = {
      STRATEGY_MODULES: POISON_MODULE,
      STRATEGY_SELECTION: JSON.stringify([{ maxCustomers: 1000, strategy: "test-crash" }]),
    };
    before(async () => {
      stack = await startStack({ workers: 0, env: { WORKER_MAX_DELIVERIES: "2" } });
    });
    after(async () => {
      await stack?.stop();
    });

    describe("deliveries given back on broker errors", () => {
      it("do not count as crashes: a task delivered more often than the limit without a solve attempt is still solved", async () => {
        const client = apiClient(stack.baseUrl, (await stack.account("failover", "pro")).headers);
        const { data } = await client.POST("/api/v1/solve", {
          body: { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 1 } as never,
        });
        const id = data!.request_id;
        // What a worker does when NATS fails over under it before it starts solving: nak, again and again.
        const nc = await connect({ servers: stack.nats.url });
        try {
          const consumer = await jetstream(nc).consumers.get(NAMES.taskStream, flowConsumer(flowKey("failover")));
          for (let delivery = 1; delivery <= 3; delivery++) {
            const m = await consumer.next({ expires: 5000 });
            expect(m, `delivery ${delivery}`).to.not.equal(null);
            expect(m!.info.deliveryCount).to.equal(delivery);
            m!.nak();
          }
        } finally {
          await nc.close();
        }
        const worker = await stack.startWorker();
        const done = await pollUntil(client, id, isFinished, 30_000);
        expect(done.success, JSON.stringify(done)).to.equal(true);
        expect((await stack.task(id))!.solveAttempts).to.equal(1);
        // The poison test's task must reach only its own workers.
        worker.signal("SIGKILL");
        await worker.exited();
      });
    });

    describe("poison task", () => {
      it("is failed with an English error after the configured deliveries instead of cycling for ever", async () => {
        const client = apiClient(stack.baseUrl, (await stack.account("victim", "pro")).headers);
        const { data } = await client.POST("/api/v1/solve", {
          body: { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 2 } as never,
        });
        const id = data!.request_id;
        let crashes = 0;
        const deadline = Date.now() + 60_000;
        let final: Awaited<ReturnType<typeof pollUntil>> | null = null;
        while (Date.now() < deadline) {
          const worker = await stack.startWorker(poisonWorkerEnv);
          const outcome = await Promise.race([
            worker.exited().then(() => "crashed"),
            pollUntil(client, id, isFinished, 20_000).then((b) => b),
          ]);
          if (outcome === "crashed") {
            crashes++;
            continue;
          }
          final = outcome as Awaited<ReturnType<typeof pollUntil>>;
          break;
        }
        expect(crashes).to.equal(2);
        expect(final).to.not.equal(null);
        expect(final!.success).to.equal(false);
        expect(final!.code).to.equal("task_failed");
        expect(final!.error).to.match(/abandoned after 2 attempts/);
        const survivor = stack.workers[stack.workers.length - 1]!;
        const metrics = await scrape(survivor.url);
        expect(sampleValue(metrics, "vrp_tasks_dead_lettered_total")).to.equal(1);
        expect(sampleValue(metrics, "vrp_task_redeliveries_total")).to.equal(1);
      });
    });
  });

  describe("NATS outage", () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack({ workers: 1 });
    });
    after(async () => {
      await stack?.stop();
    });

    it("answers 503 with Retry-After while NATS is down, reconnects by itself, and completes every task", async () => {
      const { headers } = await stack.account("patient", "pro");
      const client = apiClient(stack.baseUrl, headers);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { data } = await client.POST("/api/v1/solve", {
          body: { ...cvrpRequest({ customers: 15, vehicles: 3, capacity: 60, seed: i + 1 }), time_limit_seconds: 2 } as never,
        });
        ids.push(data!.request_id);
      }
      await pollUntil(client, ids[0]!, (b) => phase(b) === "solving");
      const port = stack.nats.port;
      await stack.nats.stop();

      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      const down = await fetch(`${stack.baseUrl}/api/v1/solve`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(cvrpRequest({ customers: 3, vehicles: 1, capacity: 50 })),
      });
      expect(Date.now() - started).to.be.lessThan(3000);
      expect(down.status).to.equal(503);
      expect(Number(down.headers.get("retry-after"))).to.be.greaterThan(0);
      await expectMatchesSpec("submitSolve", 503, await down.json());
      const poll = await fetch(`${stack.baseUrl}/api/v1/solve/result/${ids[1]}`, { headers });
      expect(poll.status).to.equal(503);
      await expectMatchesSpec("getSolveResult", 503, await poll.json());
      const notReady = await fetch(`${stack.baseUrl}/readyz`);
      expect(notReady.status).to.equal(503);
      await expectMatchesSpec("getReadiness", 503, await notReady.json());

      await new Promise((r) => setTimeout(r, 1500));
      stack.nats = await startNatsServer({ storeDir: join(stack.storeDir, "nats"), port });
      // The API reconnects by itself: readiness turns back to 200 without any restart.
      const deadline = Date.now() + 30_000;
      while ((await fetch(`${stack.baseUrl}/readyz`)).status !== 200) {
        expect(Date.now()).to.be.lessThan(deadline);
        await new Promise((r) => setTimeout(r, 200));
      }
      for (const id of ids) {
        const done = await pollUntil(client, id, isFinished, 90_000);
        expect(done.success, id).to.equal(true);
      }
    });
  });
});
