import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../../src/config/load.js";
import { Admission, SYSTEM_CLOCK } from "../../src/limits/admission.js";
import { KvCounter } from "../../src/limits/kv-counter.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { openEvents } from "../helpers/events.js";
import { quietLog } from "../helpers/nats.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { queueCounts } from "../helpers/task-queue.js";

const CANCELLED = "cancelled by the caller";

/** 20 customers near the depot, each reachable alone, but no two routes can serve them all in their windows. */
function jointlyInfeasibleRequest(): Record<string, unknown> {
  const pos = [[50, 50], ...Array.from({ length: 20 }, (_, i) => [50 + (i % 5) * 2, 50 + Math.floor(i / 5) * 2])];
  return {
    node_num: 21,
    vehicle_num: 2,
    distance_matrix: pos.map((p) => pos.map((q) => Math.round(Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!)))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, ...Array(20).fill(1)],
    vehicles_capacity: [100, 100],
    node_time_windows: [[0, 600], ...Array(20).fill([0, 15])],
    node_service_time: [0, ...Array(20).fill(10)],
    vehicle_speeds: [1, 1],
  };
}

/**
 * Cancelling through real processes: two API instances, one worker, one nats-server, and a
 * callback receiver. Cancels are sent to the instance that did not take the submit.
 */
describe("cancelling a task", function () {
  this.timeout(120_000);
  let stack: Stack;
  let a: ApiClient;
  let b: ApiClient;
  let nats: Nats;
  let receiver: Server;
  let receiverUrl: string;
  const callbacks: { path: string; body: any }[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        callbacks.push({ path: req.url ?? "", body: JSON.parse(body) });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    stack = await startStack({ workers: 1, apis: 2 });
    const { headers } = await stack.account("canceller");
    a = apiClient(stack.apis[0]!.url, headers);
    b = apiClient(stack.apis[1]!.url, headers);
    nats = await connectNats(loadConfig(stack.env), "test-inspect", quietLog);
  });
  after(async () => {
    await nats?.close();
    await stack?.stop();
    receiver?.close();
  });

  async function submit(body: Record<string, unknown>): Promise<string> {
    const { data, response } = await a.POST("/api/v1/solve", { body: body as never });
    expect(response.status).to.equal(200);
    return data!.request_id;
  }

  function cancel(client: ApiClient, id: string) {
    return client.POST("/api/v1/solve/{request_id}/cancel", { params: { path: { request_id: id } } });
  }

  function callbacksTo(path: string) {
    return callbacks.filter((c) => c.path === path);
  }

  async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it(
    "stops a solving task within a second and keeps its best feasible solution, " +
      "marked stopped; one callback; a second cancel is harmless",
    async () => {
      const request = {
        ...cvrpRequest({ customers: 100, vehicles: 14, capacity: 50, seed: 11 }),
        time_limit_seconds: 60,
        strategy: "alns",
        callback_url: `${receiverUrl}/solving`,
      };
      const id = await submit(request);
      await pollUntil(a, id, (body) => (body.result as any)?.progress?.feasible === true, 30_000);
      const events = await openEvents(a, id);
      while ((await events.next())!.event !== "solving");

      const asked = Date.now();
      const { data, response } = await cancel(b, id);
      expect(response.status).to.equal(200);
      expect(data!.result).to.include({ status: "cancelling" });
      let final;
      while (!final) {
        const e = await events.next(10_000);
        if (e && (e.event === "solved" || e.event === "failed")) final = e;
      }
      const stoppedAfterMs = Date.now() - asked;
      expect(final.event).to.equal("solved");
      expect(stoppedAfterMs, "stopped within about a second (loaded machine: 1.5 s allowed)").to.be.below(1500);

      const polled = await pollUntil(a, id, isFinished);
      expect(polled.success).to.equal(true);
      const result = polled.result as any;
      expect(result.stopped).to.equal("cancelled");
      expect(result.time).to.be.below(30);
      checkDistanceResult(request as never, result);

      await waitFor("the callback", () => callbacksTo("/solving").length === 1);
      expect(callbacksTo("/solving")[0]!.body).to.deep.equal(polled);
      const again = await cancel(a, id);
      expect(again.response.status, "a second cancel is harmless").to.equal(200);
      expect(again.data!.result.status).to.equal("cancelled");
      await new Promise((r) => setTimeout(r, 500));
      expect(callbacksTo("/solving"), "still exactly one callback").to.have.length(1);
    },
  );

  it(
    "ends a queued task at once as failed, gives its quota unit back and sends its " +
      "one callback; the worker that later pulls it does not solve it",
    async () => {
      const admission = new Admission(new KvCounter(nats.counters), SYSTEM_CLOCK);
      const blocker = await submit({ ...cvrpRequest({ customers: 40, vehicles: 8, capacity: 50 }), time_limit_seconds: 3 });
      const id = await submit({
        ...cvrpRequest({ customers: 10, vehicles: 3, capacity: 50 }),
        time_limit_seconds: 1,
        callback_url: `${receiverUrl}/queued`,
      });
      const queued = await pollUntil(b, id, () => true);
      expect((queued.result as any).phase).to.equal("queued");
      const monthBefore = (await admission.usage("canceller")).month;

      const { data, response } = await cancel(b, id);
      expect(response.status).to.equal(200);
      expect(data!.result.status).to.equal("cancelled");
      const polled = await pollUntil(a, id, () => true);
      expect(polled).to.deep.include({ success: false, error: CANCELLED, result: null, code: "cancelled" });
      expect((await admission.usage("canceller")).month).to.equal(monthBefore - 1);

      await waitFor("the callback", () => callbacksTo("/queued").length === 1);
      expect(callbacksTo("/queued")[0]!.body).to.deep.equal(polled);
      const twice = await cancel(a, id);
      expect(twice.response.status).to.equal(200);
      expect(twice.data!.result.status).to.equal("cancelled");
      expect((await admission.usage("canceller")).month, "a second cancel gives nothing back").to.equal(monthBefore - 1);

      // The blocker finishes, the worker pulls the cancelled task's message and only acknowledges it.
      await pollUntil(a, blocker, isFinished);
      await waitFor("the queue to drain", async () => {
        const counts = await queueCounts(nats.jsm);
        return counts.ackPending === 0 && counts.pending === 0;
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(await pollUntil(a, id, () => true)).to.deep.equal(polled);
      expect(callbacksTo("/queued"), "exactly one callback").to.have.length(1);
      const events = await (await openEvents(b, id)).readAll(10_000);
      expect(events.map((e) => e.event)).to.deep.equal(["queued", "failed"]);
    },
  );

  it("fails a solving task with no feasible solution yet with the cancel as its error", async () => {
    const id = await submit({ ...jointlyInfeasibleRequest(), time_limit_seconds: 30, strategy: "alns" });
    await pollUntil(a, id, (body) => (body.result as any)?.phase === "solving", 30_000);
    await new Promise((r) => setTimeout(r, 300));
    const asked = Date.now();
    expect((await cancel(b, id)).data!.result.status).to.equal("cancelling");
    const polled = await pollUntil(a, id, isFinished, 10_000);
    expect(Date.now() - asked).to.be.below(2000);
    expect(polled).to.deep.include({ success: false, error: CANCELLED, result: null, code: "cancelled" });
  });

  it("settles cancels that race the worker's pickup in exactly one final state, with one callback and one final event each", async () => {
    const admission = new Admission(new KvCounter(nats.counters), SYSTEM_CLOCK);
    const monthBefore = (await admission.usage("canceller")).month;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        await submit({
          ...cvrpRequest({ customers: 30, vehicles: 6, capacity: 50, seed: i }),
          time_limit_seconds: 5,
          callback_url: `${receiverUrl}/race-${i}`,
        }),
      );
    // Cancel at once, alternating instances, while the worker is taking the first tasks.
    const answers = await Promise.all(ids.map((id, i) => cancel(i % 2 ? a : b, id)));
    const statuses = answers.map((r) => r.data!.result.status);
    for (const [i, id] of ids.entries()) {
      const final = await pollUntil(a, id, isFinished, 30_000);
      if (statuses[i] === "cancelled") {
        expect(final).to.deep.include({ success: false, error: CANCELLED, code: "cancelled" });
      } else {
        expect(statuses[i]).to.equal("cancelling");
        // Stopped by its worker: the best solution so far, or the cancel as its error.
        if (final.success) expect((final.result as any).stopped).to.equal("cancelled");
        else expect(final).to.deep.include({ error: CANCELLED, code: "cancelled" });
      }
      await waitFor(`the callback of task ${i}`, () => callbacksTo(`/race-${i}`).length === 1);
      expect(callbacksTo(`/race-${i}`)[0]!.body).to.deep.equal(final);
      const events = await (await openEvents(b, id)).readAll(10_000);
      expect(events.filter((e) => e.event === "solved" || e.event === "failed")).to.have.length(1);
      expect(events.at(-1)!.data).to.deep.equal(final);
    }
    const givenBack = statuses.filter((s) => s === "cancelled").length;
    expect(givenBack, "most were still queued").to.be.greaterThan(0);
    // A burst takes its quota in blocks; what a block holds beyond the submits goes back once the account is quiet.
    const expected = monthBefore + ids.length - givenBack;
    await waitFor("the quota blocks given back", async () => (await admission.usage("canceller")).month === expected, 5_000).catch(
      () => {},
    );
    expect((await admission.usage("canceller")).month, "one quota unit back per task cancelled while queued").to.equal(expected);
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < ids.length; i++) expect(callbacksTo(`/race-${i}`), `callbacks of task ${i}`).to.have.length(1);
  });

  it(
    "answers 409 for a task that ended without a cancel, 403 for another account's, " + "404 for an unknown id, 401 without credentials",
    async () => {
      const id = await submit({ ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 1 });
      await pollUntil(a, id, isFinished);
      const finished = await cancel(b, id);
      expect(finished.response.status).to.equal(409);
      expect((finished.error as any).code).to.equal("task_finished");
      const other = apiClient(stack.apis[1]!.url, (await stack.account("someone-else")).headers);
      expect((await cancel(other, id)).response.status).to.equal(403);
      expect((await cancel(b, "3f0c6f1e-7d5a-4c1b-9a61-2b8f5e0c9d47")).response.status).to.equal(404);
      expect((await cancel(apiClient(stack.apis[1]!.url), id)).response.status).to.equal(401);
    },
  );
});
