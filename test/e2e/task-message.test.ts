import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config/load.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { NAMES } from "../../src/queue/names.js";
import { TaskEvents } from "../../src/queue/task-events.js";
import { encodeCommitted, encodeRecordFirst } from "../../src/queue/task-message.js";
import { TaskStore } from "../../src/queue/task-store.js";
import { apiClient } from "../helpers/client.js";
import { quietLog } from "../helpers/nats.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { queueCounts, queuedTaskRecord } from "../helpers/task-queue.js";

const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));
const TINY = { ...cvrpRequest({ customers: 3, vehicles: 1, capacity: 50 }), time_limit_seconds: 1 };
const SIZE = { nodeNum: 4, vehicleNum: 1 };

/**
 * The task message as the submit's commit point (docs/design/task-message.md): until a worker
 * writes it, a task's record exists only in its message and its `queued` event; polls, cancels
 * and tombstones work on it, and a worker of this version also runs the older layout's tasks.
 */
describe("the task message as the submit's commit point", function () {
  this.timeout(120_000);
  let stack: Stack;
  let nats: Nats;
  before(async () => {
    // No worker at first: the tasks stay queued, as messages only, until one is started.
    stack = await startStack({ workers: 0, env: { PLANS_FILE, TASK_COMMIT: "message" } });
    nats = await connectNats(loadConfig(stack.env), "task-message-test", quietLog);
  });
  after(async () => {
    await nats?.close();
    await stack?.stop();
  });

  const submit = async (headers: Record<string, string>) => {
    const res = await fetch(`${stack.baseUrl}/api/v1/solve`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(TINY),
    });
    expect(res.status).to.equal(200);
    return ((await res.json()) as { request_id: string }).request_id;
  };
  const poll = (headers: Record<string, string>, id: string) =>
    apiClient(stack.baseUrl, headers).GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: id } } });
  const waitFor = async (what: string, check: () => Promise<boolean>) => {
    for (const deadline = Date.now() + 30_000; !(await check());) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it("keeps each kind of task right from its message alone until a worker runs it, the older layout's too", async () => {
    const owner = await stack.account("message-owner", "pro");
    const other = await stack.account("message-other", "pro");
    const cancelled = await submit(owner.headers);
    const queued = await submit(owner.headers);

    // Nothing but the message and the `queued` event: no record, no stored body.
    expect((await new TaskStore(nats.tasks).read(queued)).kind, "no record before a worker writes it").to.equal("missing");
    expect((await stack.task(queued))?.state, "read from its `queued` event meanwhile").to.equal("queued");
    const body = await nats.requestBodies.get(queued);
    expect(body === null || body.operation !== "PUT", "the small body rides in the message").to.equal(true);
    expect((await new TaskEvents(nats.js, nats.jsm).last(queued))?.event).to.equal("queued");

    // Polled from the message's record: queued behind the first task, and another account's 403.
    const seen = await poll(owner.headers, queued);
    expect(seen.response.status).to.equal(200);
    expect(seen.data).to.deep.include({ request_id: queued, result: { status: "processing", phase: "queued", queue_depth: 1 } });
    expect((await poll(other.headers, queued)).response.status).to.equal(403);

    // A cancel writes the first record (failed, cancelled): the worker must not solve it later.
    const cancel = await fetch(`${stack.baseUrl}/api/v1/solve/${cancelled}/cancel`, { method: "POST", headers: owner.headers });
    expect(cancel.status).to.equal(200);
    expect(((await cancel.json()) as { result: { status: string } }).result.status).to.equal("cancelled");
    expect(await stack.task(cancelled)).to.include({ state: "failed", code: "cancelled" });

    // A committed message whose submit gave up (its tombstone): never run.
    const store = new TaskStore(nats.tasks);
    const givenUp = randomUUID();
    expect(await store.abandon(givenUp)).to.equal(true);
    await nats.js.publish(NAMES.taskSubject, encodeCommitted(queuedTaskRecord(givenUp, "message-owner", SIZE), JSON.stringify(TINY)), {
      msgID: givenUp,
    });

    // A task of the older layout (body, message with its id, then the record): run as before.
    const older = randomUUID();
    await nats.requestBodies.put(older, new TextEncoder().encode(JSON.stringify(TINY)));
    await nats.js.publish(NAMES.taskSubject, encodeRecordFirst(older), { msgID: older });
    await store.admit(queuedTaskRecord(older, "message-owner", SIZE));

    // A committed message as an older API instance publishes it: no history entry written ahead,
    // and no mark saying so; the worker writes the missing entry when the task ends.
    const unmarked = randomUUID();
    await nats.js.publish(NAMES.taskSubject, encodeCommitted(queuedTaskRecord(unmarked, "message-owner", SIZE), JSON.stringify(TINY)), {
      msgID: unmarked,
    });

    await stack.startWorker();
    await waitFor(
      "the tasks to end",
      async () =>
        (await stack.task(queued))?.state === "solved" &&
        (await stack.task(older))?.state === "solved" &&
        (await stack.task(unmarked))?.state === "solved",
    );
    for (const id of [queued, older, unmarked]) expect((await stack.task(id))!.solveAttempts, id).to.equal(1);
    // Listed in the history: the entry the submit wrote ahead (its final state from the download),
    // and the one the worker wrote for the unmarked message.
    await waitFor("the history to list both solved", async () => {
      const listed = await apiClient(stack.baseUrl, owner.headers).GET("/api/v1/history", {});
      const items = listed.data?.result.items ?? [];
      return [queued, unmarked].every((id) => items.some((e) => e.request_id === id && e.state === "solved"));
    });
    const solved = await poll(owner.headers, queued);
    expect(solved.data).to.include({ request_id: queued, success: true });
    expect(solved.data && "result" in solved.data ? solved.data.result : null, "the solution").to.not.equal(null);
    // Reopened from the history: the request that rode in the message is kept with the final
    // body; the older layout's comes from the request-body bucket, as before.
    for (const id of [queued, older]) {
      let download: { request: { node_num: number; node_demands: number[] } | null; result: { success: boolean } } | null = null;
      await waitFor(`${id}'s history download`, async () => {
        const res = await fetch(`${stack.baseUrl}/api/v1/history/${id}`, { headers: owner.headers });
        download = res.status === 200 ? ((await res.json()) as typeof download) : null;
        return download?.result?.success === true;
      });
      expect(download!.request, id).to.deep.include({ node_num: TINY.node_num, node_demands: TINY.node_demands });
    }
    await waitFor("the work queue to drain", async () => {
      const counts = await queueCounts(nats.jsm);
      return counts.pending + counts.ackPending === 0;
    });
    expect(await stack.task(cancelled), "the cancelled task stays cancelled").to.include({ state: "failed", code: "cancelled" });
    expect((await store.read(givenUp)).kind, "the given-up task stays a tombstone").to.equal("abandoned");
  });
});
