import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { flowConsumer, flowKey } from "../../src/queue/flows.js";
import { NAMES } from "../../src/queue/names.js";
import { TaskStore } from "../../src/queue/task-store.js";
import { taskReader } from "../../src/queue/task-queue.js";
import { quietLog } from "../helpers/nats.js";
import { queuedTaskRecord } from "../helpers/task-queue.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

const plan = (weight: number, maxQueued: number, maxSolving: number) => ({
  api_access: true,
  max_nodes: 100,
  max_vehicles: 10,
  max_solve_seconds: 10,
  submits_per_minute: 600,
  monthly_quota: 10_000,
  weight,
  max_queued: maxQueued,
  max_solving: maxSolving,
});
const PLANS = {
  default_plan: "light",
  marketplace_plan: "light",
  plans: { heavy: plan(3, 8, 4), light: plan(1, 8, 4), solo: plan(1, 20, 1) },
};

/** A task that solves for about `seconds` (the search runs to its time limit). */
const task = (seconds: number, seed = 1) => ({
  ...cvrpRequest({ customers: 25, vehicles: 4, capacity: 60, seed }),
  time_limit_seconds: seconds,
});

type Headers = Record<string, string>;

/**
 * Fair shares between accounts on a real nats-server with real API and worker processes: each
 * account's tasks are a flow of their own, served by weight, within the plan's max_queued and
 * max_solving, with queue_depth counting the tasks ahead under that order.
 */
describe("fair shares between accounts", function () {
  this.timeout(180_000);
  let stack: Stack;
  let nats: Nats;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "vrp-fair-"));
    const plansFile = join(dir, "plans.json");
    writeFileSync(plansFile, JSON.stringify(PLANS));
    stack = await startStack({ workers: 0, env: { PLANS_FILE: plansFile, WORKER_ACK_WAIT_MS: "3000" } });
    nats = await connectNats(loadConfig(stack.env), "fair-share-test", quietLog);
  });
  after(async () => {
    await nats?.close();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function submit(
    headers: Headers,
    body: unknown,
  ): Promise<{ status: number; id: string; body: Record<string, unknown>; retryAfter: string | null }> {
    const res = await fetch(`${stack.baseUrl}/api/v1/solve`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    return { status: res.status, id: String(json.request_id ?? ""), body: json, retryAfter: res.headers.get("retry-after") };
  }
  async function poll(headers: Headers, id: string): Promise<{ status?: string; phase?: string; queue_depth?: number | null }> {
    const res = await fetch(`${stack.baseUrl}/api/v1/solve/result/${id}`, { headers });
    return ((await res.json()) as { result: { status?: string; phase?: string; queue_depth?: number | null } }).result;
  }
  /** Watches the tasks' records until all are finished; resolves with when each was first seen past `queued`. */
  async function startTimes(ids: readonly string[], timeoutMs = 90_000): Promise<Map<string, number>> {
    // As the API reads a task: one that exists only as its message is still queued.
    const store = taskReader(nats);
    const started = new Map<string, number>();
    const finished = new Set<string>();
    for (const deadline = Date.now() + timeoutMs; finished.size < ids.length;) {
      expect(Date.now(), "all tasks finished in time").to.be.lessThan(deadline);
      await Promise.all(
        ids
          .filter((id) => !finished.has(id))
          .map(async (id) => {
            const state = (await store.get(id))?.state;
            if (state !== "queued" && !started.has(id)) started.set(id, Date.now());
            if (state === "solved" || state === "failed") finished.add(id);
          }),
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    return started;
  }
  async function drained(): Promise<void> {
    for (const deadline = Date.now() + 60_000; ;) {
      const info = await nats.jsm.streams.info(NAMES.taskStream);
      if (info.state.messages === 0) return;
      expect(Date.now(), "the task stream drained").to.be.lessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  let heavy: Headers;
  let light: Headers;

  it("counts in queue_depth the tasks ahead under the fair order, and refuses one account over its max_queued", async () => {
    heavy = (await stack.account("fair-heavy", "heavy")).headers;
    light = (await stack.account("fair-light", "light")).headers;
    const a: string[] = [];
    for (let i = 0; i < 4; i++) a.push((await submit(heavy, task(1, i))).id);
    const b = (await submit(light, task(1))).id;
    // No worker yet: light's one task has, of heavy's four, those weight 3 to 1 serves first.
    await new Promise((r) => setTimeout(r, 300));
    expect((await poll(light, b)).queue_depth).to.equal(3);
    expect((await poll(heavy, a[0]!)).queue_depth).to.equal(0);
    // Heavy's fourth: its own three plus light's one (served after heavy's third).
    expect((await poll(heavy, a[3]!)).queue_depth).to.equal(4);

    for (let i = 4; i < 8; i++) expect((await submit(heavy, task(1, i))).status).to.equal(200);
    await new Promise((r) => setTimeout(r, 300));
    const refused = await submit(heavy, task(1));
    expect(refused.status).to.equal(429);
    expect(refused.body).to.include({ code: "service_busy" });
    expect(String(refused.body.error)).to.contain("8 of its tasks").and.to.contain("'heavy'");
    expect(Number(refused.retryAfter)).to.be.at.least(1);
    expect((await submit(light, task(1))).status, "another account is still admitted").to.equal(200);
  });

  it("serves the accounts by weight once workers start, and solves every task once", async () => {
    // The lighter account submits first: first come first served would start all of its tasks first.
    const wLight = (await stack.account("weights-light", "light")).headers;
    const wHeavy = (await stack.account("weights-heavy", "heavy")).headers;
    const lightIds: string[] = [];
    const heavyIds: string[] = [];
    for (let i = 0; i < 6; i++) lightIds.push((await submit(wLight, task(1, i))).id);
    for (let i = 0; i < 6; i++) heavyIds.push((await submit(wHeavy, task(1, i))).id);
    await stack.startWorker();
    await stack.startWorker();
    const started = await startTimes([...heavyIds, ...lightIds]);
    const order = [...started.entries()].sort((x, y) => x[1] - y[1]).map(([id]) => (heavyIds.includes(id) ? "H" : "L"));
    // Weight 3 to 1: of the first eight started, about six heavy (first come first served: two).
    const heavyFirst = order.slice(0, 8).filter((o) => o === "H").length;
    expect(heavyFirst, order.join("")).to.be.within(5, 7);
    for (const id of [...heavyIds, ...lightIds]) {
      const record = await stack.task(id);
      expect(record!.state, id).to.equal("solved");
      expect(record!.solveAttempts, id).to.equal(1);
    }
    await drained();
  });

  it("starts one account's single task within about one solve of another account's burst", async () => {
    const burst: string[] = [];
    for (let i = 0; i < 8; i++) burst.push((await submit(heavy, task(2, i))).id);
    await new Promise((r) => setTimeout(r, 500));
    const submitted = Date.now();
    const single = (await submit(light, task(1))).id;
    const started = await startTimes([single], 60_000);
    const waited = started.get(single)! - submitted;
    // First come first served would start it after heavy's eight (four rounds of 2 s on two workers).
    expect(waited, `waited ${waited} ms`).to.be.lessThan(2000 + 1500);
    await startTimes(burst);
    await drained();
  });

  it("holds one account to its max_solving", async () => {
    const solo = (await stack.account("fair-solo", "solo")).headers;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await submit(solo, task(2, i))).id);
    let most = 0;
    const sampling = (async () => {
      for (let i = 0; i < 80; i++) {
        const info = await nats.jsm.consumers.info(NAMES.taskStream, flowConsumer(flowKey("fair-solo")));
        most = Math.max(most, info.num_ack_pending);
        if (info.num_pending === 0 && info.num_ack_pending === 0 && i > 5) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = Date.now();
    await startTimes(ids);
    await sampling;
    expect(most).to.equal(1);
    expect(Date.now() - started, "three solves one after the other").to.be.at.least(5000);
  });

  it("redelivers a killed worker's task to another worker, which solves it once", async () => {
    const id = (await submit(light, task(4))).id;
    let holder = -1;
    for (const deadline = Date.now() + 20_000; holder < 0;) {
      expect(Date.now()).to.be.lessThan(deadline);
      if ((await poll(light, id)).phase === "solving") {
        holder = stack.workers.findIndex((w) => w.output().includes(id));
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    stack.workers[holder]!.signal("SIGKILL");
    await startTimes([id], 60_000);
    const record = await stack.task(id);
    expect(record!.state).to.equal("solved");
    expect(record!.solveAttempts).to.equal(2);
    await stack.startWorker();
    await drained();
  });

  it("still runs tasks published on the legacy subject (a store from before the flows)", async () => {
    const id = randomUUID();
    await nats.requestBodies.put(id, new TextEncoder().encode(JSON.stringify(task(1))));
    await nats.js.publish(NAMES.taskSubject, JSON.stringify({ taskId: id }), { msgID: id });
    await new TaskStore(nats.tasks).admit(queuedTaskRecord(id, "fair-light", { nodeNum: 26, vehicleNum: 4 }));
    for (const deadline = Date.now() + 30_000; (await stack.task(id))?.state !== "solved";) {
      expect(Date.now()).to.be.lessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    await drained();
  });
});
