import { expect } from "chai";
import { checkDistanceResult } from "../../checker/check-result.js";
import { NAMES } from "../../src/queue/names.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { sampleValue, scrape } from "../helpers/metrics.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Poll = { success: boolean; result: any; error: string | null };

/**
 * Long polls (`wait_seconds`) through real processes: two API instances (A takes the submits, B
 * answers the waiting polls, so the wake-up travels through NATS), one worker, one nats-server
 * with its monitoring port (to count the waits' subscriptions).
 */
describe("polls that wait for the result (wait_seconds)", function () {
  this.timeout(120_000);
  let stack: Stack;
  let headers: Record<string, string>;
  let a: ApiClient;
  let b: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 1, apis: 2, natsMonitor: true });
    headers = (await stack.account("waiter")).headers;
    a = apiClient(stack.apis[0]!.url, headers);
    b = apiClient(stack.apis[1]!.url, headers);
  });
  after(async () => {
    await stack?.stop();
  });

  async function submit(body: Record<string, unknown>): Promise<string> {
    const { data, response } = await a.POST("/api/v1/solve", { body: body as never });
    expect(response.status).to.equal(200);
    return data!.request_id;
  }

  /** One poll on B with `wait_seconds`, timed; the answer is checked against the document. */
  async function waitingPoll(id: string, seconds: number, client: ApiClient = b): Promise<{ status: number; body: Poll; ms: number }> {
    const started = performance.now();
    const { data, error, response } = await client.GET("/api/v1/solve/result/{request_id}", {
      params: { path: { request_id: id }, query: { wait_seconds: seconds } },
    });
    return { status: response.status, body: (data ?? error) as unknown as Poll, ms: performance.now() - started };
  }

  /** Subscriptions nats-server holds on a task's record subject (the waits' interest). */
  async function recordSubscriptions(id: string): Promise<number> {
    const subject = `$KV.${NAMES.taskBucket}.${id}`;
    const subsz = (await (await fetch(`${stack.nats.monitorUrl}/subsz?subs=1&test=${encodeURIComponent(subject)}`)).json()) as {
      subscriptions_list?: { subject: string }[];
    };
    return (subsz.subscriptions_list ?? []).filter((s) => s.subject === subject).length;
  }

  async function cancel(id: string): Promise<void> {
    expect((await a.POST("/api/v1/solve/{request_id}/cancel", { params: { path: { request_id: id } } })).response.status).to.equal(200);
    await pollUntil(a, id, isFinished);
  }

  it("answers as soon as the task finishes, with the solved result, in one request on another instance", async () => {
    const request = { ...cvrpRequest({ customers: 40, vehicles: 8, capacity: 50, seed: 5 }), time_limit_seconds: 2, strategy: "alns" };
    const id = await submit(request);
    const { status, body, ms } = await waitingPoll(id, 25);
    expect(status).to.equal(200);
    expect(body.success).to.equal(true);
    expect(body.result.status, "finished, not processing").not.to.equal("processing");
    checkDistanceResult(request as never, body.result);
    expect(ms, "it waited through the solve").to.be.above(1_000);
    expect(ms, "it answered when the task finished, not when the wait ran out").to.be.below(20_000);
  });

  it("answers with the task as it stands when the wait runs out", async () => {
    const id = await submit({
      ...cvrpRequest({ customers: 60, vehicles: 10, capacity: 50, seed: 7 }),
      time_limit_seconds: 20,
      strategy: "alns",
    });
    const { status, body, ms } = await waitingPoll(id, 1);
    expect(status).to.equal(200);
    expect(body.result.status).to.equal("processing");
    expect(ms).to.be.within(900, 15_000);
    await cancel(id);
  });

  it("answers a finished task, another account's task and an unknown id without waiting", async () => {
    const id = await submit({ ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 1 });
    await pollUntil(a, id, isFinished);
    const finished = await waitingPoll(id, 30);
    expect(finished.status).to.equal(200);
    expect(finished.body.result.status).not.to.equal("processing");
    expect(finished.ms).to.be.below(10_000);

    const running = await submit({
      ...cvrpRequest({ customers: 60, vehicles: 10, capacity: 50, seed: 9 }),
      time_limit_seconds: 20,
      strategy: "alns",
    });
    const stranger = apiClient(stack.apis[1]!.url, (await stack.account("stranger")).headers);
    const forbidden = await waitingPoll(running, 30, stranger);
    expect(forbidden.status).to.equal(403);
    expect(forbidden.ms).to.be.below(10_000);
    const unknown = await waitingPoll("3f0c6f1e-7d5a-4c1b-9a61-2b8f5e0c9d47", 30);
    expect(unknown.status).to.equal(404);
    expect(unknown.ms).to.be.below(10_000);
    await cancel(running);
  });

  it("answers 422 in the spec's envelope for a wait outside 0-30 seconds or not a whole number", async () => {
    for (const value of ["31", "-1", "1.5", "soon", "100"]) {
      const response = await fetch(`${stack.apis[1]!.url}/api/v1/solve/result/3f0c6f1e-7d5a-4c1b-9a61-2b8f5e0c9d47?wait_seconds=${value}`, {
        headers,
      });
      expect(response.status, value).to.equal(422);
      const body = (await response.json()) as { detail: { loc: string[] }[] };
      await expectMatchesSpec("getSolveResult", 422, body);
      expect(body.detail[0]!.loc, value).to.deep.equal(["query", "wait_seconds"]);
    }
  });

  it("leaves no subscription behind when the client leaves, and answers waiting polls when the API stops", async () => {
    const id = await submit({
      ...cvrpRequest({ customers: 60, vehicles: 10, capacity: 50, seed: 11 }),
      time_limit_seconds: 25,
      strategy: "alns",
    });
    const url = `${stack.apis[1]!.url}/api/v1/solve/result/${id}?wait_seconds=30`;
    const leaving = new AbortController();
    const abandoned = fetch(url, { headers, signal: leaving.signal }).catch((err: unknown) => err);
    await until(async () => (await recordSubscriptions(id)) === 1, "the wait's subscription");
    const waiting = async () => sampleValue(await scrape(`${stack.apis[1]!.url}/metrics`), "vrp_waiting_polls");
    expect(await waiting(), "vrp_waiting_polls while the poll is held").to.equal(1);
    leaving.abort();
    expect(await abandoned).to.be.instanceOf(Error);
    await until(async () => (await recordSubscriptions(id)) === 0, "the subscription gone with the client");
    expect(await waiting(), "vrp_waiting_polls once the client left").to.equal(0);

    const held = waitingPoll(id, 30);
    await until(async () => (await recordSubscriptions(id)) === 1, "the second wait's subscription");
    const stopped = performance.now();
    stack.apis[1]!.signal("SIGTERM");
    const answer = await held;
    expect(answer.status).to.equal(200);
    expect(answer.body.result.status, "the task as it stands").to.equal("processing");
    expect(await stack.apis[1]!.exited()).to.equal(0);
    expect(performance.now() - stopped, "the wait did not hold the stop").to.be.below(8_000);
    await cancel(id);
  });
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
