import { expect } from "chai";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { checkDistanceResult } from "../helpers/check-result.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

describe("solver memory bound (worker_threads resource limits)", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    // 32 MB of V8 heap: enough for ordinary requests, not for parsing a 2,000-node matrix.
    stack = await startStack({ workers: 1, env: { SOLVER_MAX_HEAP_MB: "32" } });
    client = apiClient(stack.baseUrl, (await stack.account("mona", "pro")).headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("fails a request above the limit with an English error, and the same worker process solves the next one", async () => {
    const worker = stack.workers[0]!;
    let exited = false;
    void worker.exited().then(() => (exited = true));

    const big = { ...cvrpRequest({ customers: 1999, vehicles: 150, capacity: 100, seed: 11 }), time_limit_seconds: 5 };
    const first = await client.POST("/api/v1/solve", { body: big as never });
    expect(first.response.status).to.equal(200);
    const failed = await pollUntil(client, first.data!.request_id, isFinished, 120_000);
    expect(failed.success).to.equal(false);
    expect(failed.code).to.equal("task_failed");
    expect(failed.error).to.match(/more memory than the solver's limit of 32 MB/);

    const small = { ...cvrpRequest({ customers: 40, vehicles: 6, capacity: 50, seed: 3 }), time_limit_seconds: 2 };
    const second = await client.POST("/api/v1/solve", { body: small as never });
    const solved = await pollUntil(client, second.data!.request_id, isFinished, 60_000);
    expect(solved.success, JSON.stringify(solved).slice(0, 300)).to.equal(true);
    checkDistanceResult(small, solved.result as Parameters<typeof checkDistanceResult>[1]);
    expect(exited, "the worker process survived").to.equal(false);
    expect(stack.workers).to.have.length(1);
  });
});
