import { expect } from "chai";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { sampleValue, scrape } from "../helpers/metrics.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

describe("large requests and worker crashes", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 1 });
    client = apiClient(stack.baseUrl, (await stack.account("dave", "pro")).headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("solves a 2,000-node request with a full distance matrix end to end", async () => {
    const request = { ...cvrpRequest({ customers: 1999, vehicles: 150, capacity: 100, seed: 11 }), time_limit_seconds: 5 };
    const body = JSON.stringify(request);
    expect(body.length, "the body is far above NATS's 1 MB message limit").to.be.greaterThan(8 * 1024 * 1024);
    const { data, response } = await client.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(200);
    const solved = await pollUntil(client, data!.request_id, isFinished, 120_000);
    expect(solved.success, JSON.stringify(solved).slice(0, 500)).to.equal(true);
    checkDistanceResult(request, solved.result as Parameters<typeof checkDistanceResult>[1]);
  });

  it("redelivers a task whose worker was SIGKILLed mid-solve, solves it, and calls back exactly once", async () => {
    const hits: string[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        hits.push(req.url ?? "");
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const callback_url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/done`;
    const request = { ...cvrpRequest({ customers: 60, vehicles: 8, capacity: 50, seed: 5 }), time_limit_seconds: 3, callback_url };
    const { data } = await client.POST("/api/v1/solve", { body: request as never });
    await pollUntil(client, data!.request_id, (b) => (b.result as { phase?: string }).phase === "solving");
    const victim = stack.workers[0]!;
    victim.signal("SIGKILL");
    await victim.exited();
    const rescuer = await stack.startWorker();
    const solved = await pollUntil(client, data!.request_id, isFinished, 60_000);
    expect(sampleValue(await scrape(rescuer.url), "vrp_task_redeliveries_total"), "the rescuing worker counts the redelivery").to.equal(1);
    expect(solved.success).to.equal(true);
    checkDistanceResult(request, solved.result as Parameters<typeof checkDistanceResult>[1]);
    await new Promise((r) => setTimeout(r, 1000));
    receiver.close();
    expect(hits).to.deep.equal(["/done"]);
  });
});
