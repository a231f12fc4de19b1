import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { loadConfig } from "../../src/config/load.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { NAMES } from "../../src/queue/names.js";
import { AdmissionAbandoned, TaskStore } from "../../src/queue/task-store.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { quietLog } from "../helpers/nats.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { queuedTaskRecord } from "../helpers/task-queue.js";

const BODY = JSON.stringify({ ...cvrpRequest({ customers: 4, vehicles: 1, capacity: 50 }), time_limit_seconds: 1 });
const DEADLINE_MS = 3000;
/** The size of BODY, as the record of a submit of it says. */
const ADMITTED_SIZE = { nodeNum: 5, vehicleNum: 1 };

/**
 * A task runs only once its record exists (the submit's commit point), a missing record
 * is never taken as "finished", and a submit that answers an error leaves nothing behind.
 */
describe("admission: the task record as the submit's commit point", function () {
  this.timeout(120_000);
  let stack: Stack;
  let nats: Nats;
  before(async () => {
    stack = await startStack({ workers: 1, env: { WORKER_ADMISSION_DEADLINE_MS: String(DEADLINE_MS) } });
    nats = await connectNats(loadConfig(stack.env), "admission-test", quietLog);
  });
  after(async () => {
    await nats?.close();
    await stack?.stop();
  });

  const drained = async () => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const info = await nats.jsm.consumers.info(NAMES.taskStream, NAMES.taskConsumer);
      if (info.num_pending === 0 && info.num_ack_pending === 0) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error("the work queue did not drain");
  };
  const publishMessage = (id: string) => nats.js.publish(NAMES.taskSubject, JSON.stringify({ taskId: id }), { msgID: id });

  it("hands back a message whose record is not there yet (never 'already finished') and solves it once the record appears", async () => {
    const id = randomUUID();
    await nats.requestBodies.put(id, new TextEncoder().encode(BODY));
    await publishMessage(id);
    await new Promise((r) => setTimeout(r, 1500));
    const info = await nats.jsm.consumers.info(NAMES.taskStream, NAMES.taskConsumer);
    expect(info.num_pending + info.num_ack_pending, "the message is still there").to.equal(1);
    await new TaskStore(nats.tasks).admit(queuedTaskRecord(id, "late", ADMITTED_SIZE));
    for (const deadline = Date.now() + 30_000; (await stack.task(id))?.state !== "solved";) {
      expect(Date.now()).to.be.lessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await stack.task(id))!.solveAttempts).to.equal(1);
  });

  it(
    "solves a task whose body is stored after its message was delivered (the submit " +
      "writes both at once), never 'body no longer available'",
    async () => {
      // The body lands a little after the worker got the message (it reads body and record at
      // once), and the record right after the body: a few delays, as the race varies with load;
      // one task at a time, so each message reaches an idle worker at once.
      for (const delay of [0, 5, 10, 20, 30, 40]) {
        const id = randomUUID();
        await publishMessage(id);
        await new Promise((r) => setTimeout(r, delay));
        await nats.requestBodies.put(id, new TextEncoder().encode(BODY));
        await new TaskStore(nats.tasks).admit(queuedTaskRecord(id, "body-late", ADMITTED_SIZE));
        for (const deadline = Date.now() + 30_000; !["solved", "failed"].includes((await stack.task(id))?.state ?? "");) {
          expect(Date.now()).to.be.lessThan(deadline);
          await new Promise((r) => setTimeout(r, 50));
        }
        const task = (await stack.task(id))!;
        expect(task.state, `body ${delay} ms after the message: ${task.error ?? ""}`).to.equal("solved");
      }
    },
  );

  it("drops a message whose record never appears after the deadline, and a late admission then fails", async () => {
    const id = randomUUID();
    await publishMessage(id);
    await drained();
    const store = new TaskStore(nats.tasks);
    expect((await store.read(id)).kind).to.equal("abandoned");
    let error: unknown = null;
    await store.admit(queuedTaskRecord(id, "late", ADMITTED_SIZE)).catch((err: unknown) => (error = err));
    expect(error).to.be.instanceOf(AdmissionAbandoned);
    expect(await store.get(id)).to.equal(null);
  });

  it("answers 503 when a write of the admission fails, leaves nothing to poll or run, and frees the Idempotency-Key", async () => {
    const { headers } = await stack.account("admission", "pro");
    const h = { ...headers, "content-type": "application/json", "idempotency-key": "order-503" };
    // The `queued` event is part of the admission: without its stream the submit cannot complete.
    const events = await nats.jsm.streams.info(NAMES.eventStream);
    await nats.jsm.streams.delete(NAMES.eventStream);
    let refused: { request_id: string };
    try {
      const res = await fetch(`${stack.baseUrl}/api/v1/solve`, { method: "POST", headers: h, body: BODY });
      refused = (await res.json()) as { request_id: string };
      expect(res.status).to.equal(503);
      expect(Number(res.headers.get("retry-after"))).to.be.greaterThan(0);
      await expectMatchesSpec("submitSolve", 503, refused);
    } finally {
      await nats.jsm.streams.add(events.config);
    }
    const poll = await fetch(`${stack.baseUrl}/api/v1/solve/result/${refused.request_id}`, { headers });
    expect(poll.status, "the refused submit's id polls as unknown").to.equal(404);
    await drained();
    expect(await stack.task(refused.request_id)).to.equal(null);
    // The key is free at once: the same request is a fresh attempt, accepted and solved.
    const again = await fetch(`${stack.baseUrl}/api/v1/solve`, { method: "POST", headers: h, body: BODY });
    expect(again.status).to.equal(200);
    const ack = (await again.json()) as { request_id: string };
    expect(ack.request_id).to.not.equal(refused.request_id);
    const done = await pollUntil(apiClient(stack.baseUrl, headers), ack.request_id, isFinished, 30_000);
    expect(done.success).to.equal(true);
  });
});
