import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { loadConfig } from "../../src/config/load.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { NAMES } from "../../src/queue/names.js";
import { TaskStore } from "../../src/queue/task-store.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { openEvents } from "../helpers/events.js";
import { quietLog } from "../helpers/nats.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Poll = { success: boolean; result: any; error: string | null };

/**
 * Progress and the event stream through real processes: two API instances (A accepts, B streams), one
 * worker, one nats-server. Progress comes from the worker's solver thread through NATS.
 */
describe("progress while solving and the event stream", function () {
  this.timeout(120_000);
  let stack: Stack;
  let headers: Record<string, string>;
  let a: ApiClient;
  let b: ApiClient;
  let nats: Nats;

  before(async () => {
    stack = await startStack({ workers: 1, apis: 2, env: { EVENTS_KEEPALIVE_SECONDS: "1" } });
    headers = (await stack.account("watcher")).headers;
    a = apiClient(stack.apis[0]!.url, headers);
    b = apiClient(stack.apis[1]!.url, headers);
    nats = await connectNats(loadConfig(stack.env), "test-inspect", quietLog);
  });
  after(async () => {
    await nats?.close();
    await stack?.stop();
  });

  async function submit(client: ApiClient, body: Record<string, unknown>): Promise<string> {
    const { data, response } = await client.POST("/api/v1/solve", { body: body as never });
    expect(response.status).to.equal(200);
    return data!.request_id;
  }

  function poll(client: ApiClient, id: string, include?: "best") {
    return client.GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: id }, query: include ? { include } : {} } });
  }

  async function eventConsumers(): Promise<number> {
    return (await nats.jsm.streams.info(NAMES.eventStream)).state.consumer_count;
  }

  it("reports progress in a solving poll, and with ?include=best the best solution so far in the solved-result format", async () => {
    const request = { ...cvrpRequest({ customers: 80, vehicles: 12, capacity: 50, seed: 3 }), time_limit_seconds: 5, strategy: "alns" };
    const id = await submit(a, request);
    const solving = await pollUntil(a, id, (body) => (body.result as any)?.progress?.feasible === true, 30_000);
    const progress = (solving.result as any).progress;
    expect(progress).to.include({ time_limit_seconds: 5, feasible: true, strategy: "alns" });
    expect(progress.improvements).to.be.greaterThan(0);
    expect(progress.iterations).to.be.greaterThan(0);
    expect(progress.elapsed_seconds).to.be.within(0.5, 6);
    expect(progress, "best only when asked for").not.to.have.property("best");

    // Asked on the other instance: the state is in NATS, not in the instance that took the submit.
    const { data, response } = await poll(b, id, "best");
    expect(response.status).to.equal(200);
    const withBest = (data as unknown as Poll).result;
    expect(withBest.phase).to.equal("solving");
    const best = withBest.progress.best;
    expect(best.total_cost).to.equal(withBest.progress.best_cost);
    expect(best.request_id).to.equal(id);
    checkDistanceResult(request as never, best);

    const final = await pollUntil(a, id, isFinished, 30_000);
    expect(final.success).to.equal(true);
    expect((final.result as any).total_cost).to.be.at.most(best.total_cost);
    expect(final.result as object, "a finished task has no progress").not.to.have.property("progress");
  });

  it("answers 422 for an unknown include value", async () => {
    const { response, error } = await a.GET("/api/v1/solve/result/{request_id}", {
      params: { path: { request_id: "3f0c6f1e-7d5a-4c1b-9a61-2b8f5e0c9d47" }, query: { include: "everything" as never } },
    });
    expect(response.status).to.equal(422);
    expect((error as any).detail[0].loc).to.deep.equal(["query", "include"]);
  });

  it(
    "streams queued (with its depth), solving, progress at most once a second and " +
      "the final poll response, on another API instance than the submit",
    async () => {
      // A first task keeps the only worker busy, so the second is seen queued, and long enough that
      // the stream, opened after a second submit, still waits over a keep-alive interval on a busy machine.
      const blocker = await submit(a, { ...cvrpRequest({ customers: 30, vehicles: 6, capacity: 50 }), time_limit_seconds: 3 });
      const id = await submit(a, {
        ...cvrpRequest({ customers: 60, vehicles: 10, capacity: 50, seed: 5 }),
        time_limit_seconds: 4,
        strategy: "alns",
      });
      const stream = await openEvents(b, id);
      const events = await stream.readAll(60_000);
      const names = events.map((e) => e.event);
      expect(names[0]).to.equal("queued");
      // The tasks ahead of it: the blocker, unless a worker took it before the submit looked.
      expect(events[0]!.data.result.queue_depth).to.be.within(0, 1);
      expect(names[1]).to.equal("solving");
      expect(names.at(-1)).to.equal("solved");
      expect(names.slice(2, -1).every((n) => n === "progress")).to.equal(true);
      const progress = events.filter((e) => e.event === "progress").map((e) => e.data.result.progress);
      expect(progress.length).to.be.within(2, 5);
      for (let i = 1; i < progress.length; i++) {
        expect(progress[i].elapsed_seconds - progress[i - 1].elapsed_seconds, "at most one report a second").to.be.at.least(0.99);
        expect(progress[i].iterations).to.be.at.least(progress[i - 1].iterations);
      }
      const ids = events.map((e) => Number(e.id));
      expect(ids).to.deep.equal([...ids].sort((x, y) => x - y));
      expect(new Set(ids).size).to.equal(ids.length);
      expect(stream.comments, "keep-alive comments while the task waits").to.include(": keep-alive");

      // The final event's data is exactly the final poll response.
      const { data } = await poll(a, id);
      expect(events.at(-1)!.data).to.deep.equal(data);
      await pollUntil(a, blocker, isFinished);
    },
  );

  it("resumes with Last-Event-ID without loss or duplicates, and leaves no consumer behind when the client leaves", async () => {
    const id = await submit(a, {
      ...cvrpRequest({ customers: 60, vehicles: 10, capacity: 50, seed: 9 }),
      time_limit_seconds: 4,
      strategy: "alns",
    });
    const first = await openEvents(b, id);
    const head = [await first.next(), await first.next(), await first.next()];
    expect(head.map((e) => e!.event)).to.deep.equal(["queued", "solving", "progress"]);
    expect(await eventConsumers(), "one ordered consumer while following").to.equal(1);
    first.close();
    const deadline = Date.now() + 5000;
    while ((await eventConsumers()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await eventConsumers(), "consumer deleted after the client left").to.equal(0);

    const seen = head.map((e) => e!);
    const rest = await (await openEvents(a, id, seen.at(-1)!.id)).readAll(60_000);
    expect(rest.at(-1)!.event).to.equal("solved");
    const everything = await (await openEvents(b, id)).readAll(10_000);
    expect([...seen, ...rest].map((e) => e.id)).to.deep.equal(everything.map((e) => e.id));
    expect([...seen, ...rest].map((e) => e.data)).to.deep.equal(everything.map((e) => e.data));
    const afterFinal = await (await openEvents(b, id, everything.at(-1)!.id)).readAll(10_000);
    expect(afterFinal, "resuming after the final event: an empty stream that ends").to.deep.equal([]);
    expect(await eventConsumers(), "consumers gone after streams that ended").to.equal(0);
  });

  it("answers the poll's 401, 403, 404 and 422 on the event stream", async () => {
    const id = await submit(a, { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 1 });
    const other = apiClient(stack.apis[1]!.url, (await stack.account("stranger")).headers);
    const anonymous = apiClient(stack.apis[1]!.url);
    const get = (client: ApiClient, requestId: string, header: Record<string, string> = {}) =>
      client.GET("/api/v1/solve/events/{request_id}", { params: { path: { request_id: requestId }, header } });
    expect((await get(other, id)).response.status).to.equal(403);
    expect((await get(anonymous, id)).response.status).to.equal(401);
    expect((await get(b, "3f0c6f1e-7d5a-4c1b-9a61-2b8f5e0c9d47")).response.status).to.equal(404);
    const bad = await get(b, id, { "Last-Event-ID": "abc" });
    expect(bad.response.status).to.equal(422);
    await expectMatchesSpec("getSolveEvents", 422, bad.error);
    await pollUntil(a, id, isFinished);
    expect(await eventConsumers()).to.equal(0);
  });

  it(
    "logs a missing final event itself (as after a worker died between storing the " + "result and logging it), so a stream still ends",
    async () => {
      const id = await submit(a, { ...cvrpRequest({ customers: 8, vehicles: 2, capacity: 50 }), time_limit_seconds: 1 });
      await pollUntil(a, id, isFinished);
      // The same finished record under a new id, with nothing in its event log.
      const copy = randomUUID();
      const record = (await stack.task(id))!;
      await new TaskStore(nats.tasks).admit({ ...record, id: copy, result: { ...record.result!, request_id: copy } });
      const events = await (await openEvents(b, copy)).readAll(10_000);
      expect(events.map((e) => e.event)).to.deep.equal(["solved"]);
      const { data } = await poll(a, copy);
      expect(events[0]!.data).to.deep.equal(data);
    },
  );

  // Last: it stops instance B.
  it("ends its open event streams on SIGTERM, so an API instance stops promptly, and the consumers go with them", async () => {
    const id = await submit(a, {
      ...cvrpRequest({ customers: 60, vehicles: 10, capacity: 50, seed: 13 }),
      time_limit_seconds: 20,
      strategy: "alns",
    });
    const stream = await openEvents(b, id);
    expect((await stream.next())!.event).to.equal("queued");
    const started = Date.now();
    stack.apis[1]!.signal("SIGTERM");
    // Events already on their way may still arrive; then the stream ends, long before the task does.
    for (let e = await stream.next(10_000); e !== null; e = await stream.next(10_000)) expect(e.event).to.be.oneOf(["solving", "progress"]);
    expect(await stack.apis[1]!.exited()).to.equal(0);
    expect(Date.now() - started, "stopped promptly, not held open by the stream").to.be.below(8000);
    expect(await eventConsumers()).to.equal(0);
    expect((await a.POST("/api/v1/solve/{request_id}/cancel", { params: { path: { request_id: id } } })).response.status).to.equal(200);
    await pollUntil(a, id, isFinished);
  });
});
