import { expect } from "chai";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateXxlLike } from "../../bench/xxl-like-instance.js";
import type { ServiceProcess } from "../../src/infra/service-process.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { sampleValue, scrape } from "../helpers/metrics.js";
import { cvrpRequest, type PlainCvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Result = Parameters<typeof checkDistanceResult>[1];

/** A generated XXL-like request small enough to solve in seconds, large enough to be decomposed. */
function largeRequest(seed: number, seconds: number): PlainCvrpRequest & Record<string, unknown> {
  const { request } = generateXxlLike(0, seed, 1200);
  return { ...(request as unknown as PlainCvrpRequest), strategy: "large", time_limit_seconds: seconds, seed: 3 };
}

async function helpCount(workers: readonly ServiceProcess[], name: string): Promise<number> {
  const texts = await Promise.all(workers.map((w) => scrape(w.url).catch(() => "")));
  return texts.reduce((sum, text) => sum + sampleValue(text, name), 0);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each worker's count of items it took, by worker URL (counters only grow, so tests compare against these). */
async function takenByWorker(workers: readonly ServiceProcess[]): Promise<Map<string, number>> {
  const counts = await Promise.all(
    workers.map(async (w) => sampleValue(await scrape(w.url).catch(() => ""), "vrp_help_items_taken_total")),
  );
  return new Map(workers.map((w, i) => [w.url, counts[i]!]));
}

// One stack for the file: the tests run in order on it (two workers, then a third joins, then one
// is killed), and each compares the counters against their values when it began.
describe("cooperative solves: idle workers help a large task", function () {
  this.timeout(120_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 2, env: { WORKER_ACK_WAIT_MS: "4000" } });
    client = apiClient(stack.baseUrl, (await stack.account("coop", "pro")).headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("solves a large problem through two workers, the idle one taking items", async () => {
    const request = largeRequest(5, 6);
    const { data } = await client.POST("/api/v1/solve", { body: request as never });
    const solved = await pollUntil(client, data!.request_id, isFinished, 60_000);
    expect(solved.success, JSON.stringify(solved).slice(0, 400)).to.equal(true);
    checkDistanceResult(request, solved.result as Result);
    expect(await helpCount(stack.workers, "vrp_help_items_taken_total"), "items taken by the helper").to.be.greaterThan(0);
    const offered = await helpCount(stack.workers, "vrp_help_items_offered_total");
    const merged = await helpCount(stack.workers, "vrp_help_items_merged_total");
    expect(offered, "items offered").to.be.greaterThan(0);
    expect(merged, "merged answers are offered items").to.be.at.most(offered);

    // hgs on a medium problem (its iterated search): the whole problem from the owner's best, on the same stack.
    const medium = {
      ...cvrpRequest({ customers: 450, vehicles: 60, capacity: 60, seed: 4 }),
      strategy: "hgs",
      time_limit_seconds: 4,
      seed: 3,
    };
    const sent = await client.POST("/api/v1/solve", { body: medium as never });
    const hgsSolved = await pollUntil(client, sent.data!.request_id, isFinished, 60_000);
    expect(hgsSolved.success, JSON.stringify(hgsSolved).slice(0, 400)).to.equal(true);
    checkDistanceResult(medium, hgsSolved.result as Result);
    expect(await helpCount(stack.workers, "vrp_help_items_offered_total"), "hgs offered items").to.be.greaterThan(offered);
  });

  it("starts a task queued while two workers help within about two seconds", async () => {
    await stack.startWorker();
    const takenBefore = await helpCount(stack.workers, "vrp_help_items_taken_total");
    const request = largeRequest(13, 10);
    const { data: large } = await client.POST("/api/v1/solve", { body: request as never });
    await waitFor(
      "two workers helping",
      async () => (await helpCount(stack.workers, "vrp_help_items_taken_total")) >= takenBefore + 2,
      8000,
    );
    const small = { ...cvrpRequest({ customers: 8, vehicles: 3, capacity: 40, seed: 2 }), time_limit_seconds: 1 };
    const submitted = Date.now();
    const { data } = await client.POST("/api/v1/solve", { body: small as never });
    await pollUntil(client, data!.request_id, (b) => (b.result as { phase?: string }).phase !== "queued" || isFinished(b), 10_000);
    const startedMs = Date.now() - submitted;
    expect(startedMs, "the queued task left the queue within about an item's wind-down").to.be.below(2000);
    const done = await pollUntil(client, large!.request_id, isFinished, 60_000);
    expect(done.success).to.equal(true);
  });

  it("ends solved within its limit when the helper is killed mid-item, and calls back once", async () => {
    const hits: string[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        hits.push(req.url ?? "");
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    try {
      const callback_url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/done`;
      const limit = 8;
      const request = { ...largeRequest(9, limit), callback_url };
      const takenBefore = await takenByWorker(stack.workers);
      const submitted = Date.now();
      const { data } = await client.POST("/api/v1/solve", { body: request as never });
      let helper: ServiceProcess | undefined;
      await waitFor(
        "a worker to take an item of this task",
        async () => {
          const taken = await takenByWorker(stack.workers);
          helper = stack.workers.find((w) => taken.get(w.url)! > takenBefore.get(w.url)!);
          return helper !== undefined;
        },
        limit * 1000,
      );
      helper!.signal("SIGKILL");
      await helper!.exited();
      const solved = await pollUntil(client, data!.request_id, isFinished, 60_000);
      const tookMs = Date.now() - submitted;
      expect(solved.success, JSON.stringify(solved).slice(0, 400)).to.equal(true);
      checkDistanceResult(request, solved.result as Result);
      // The owner never waits on an item past its deadline: the answer keeps the task's own time.
      expect(tookMs, "solved within the limit plus a few seconds").to.be.below((limit + 4) * 1000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(hits).to.deep.equal(["/done"]);
      const record = await stack.task(data!.request_id);
      expect(record?.solveAttempts, "solved by its owner in one attempt").to.equal(1);
    } finally {
      receiver.close();
    }
  });
});
