import { expect } from "chai";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

describe("large problems: plan tier, positions required, solver memory bound", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    // Workers are started per test: one with the default memory bound, one with a low bound.
    stack = await startStack({ workers: 0 });
    client = apiClient(stack.baseUrl, (await stack.account("mona", "pro")).headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("accepts 5,000 customers given by node_positions on the large plan and solves them without a matrix", async () => {
    const worker = await stack.startWorker();
    const large = apiClient(stack.baseUrl, (await stack.account("lara", "large")).headers);
    const request = {
      ...cvrpRequest({ customers: 5000, vehicles: 800, capacity: 40, seed: 21, withPositions: true, matrix: false }),
      time_limit_seconds: 3,
    };
    const { data, response } = await large.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(200);
    const solved = await pollUntil(large, data!.request_id, isFinished, 120_000);
    expect(solved.success, JSON.stringify(solved).slice(0, 300)).to.equal(true);
    expect((solved.result as { strategy: string }).strategy).to.be.oneOf(["large", "clarke-wright"]);
    // The reference check recomputes every distance from the positions (no matrix in the request).
    checkDistanceResult(request, solved.result as Parameters<typeof checkDistanceResult>[1]);
    worker.signal("SIGTERM");
    await worker.exited();
  });

  it("answers 422 saying node_positions are required when a request above 3,000 nodes has no positions", async () => {
    const large = apiClient(stack.baseUrl, (await stack.account("lars", "large")).headers);
    const request = { ...cvrpRequest({ customers: 3500, vehicles: 300, capacity: 40, seed: 2, matrix: false }), time_limit_seconds: 3 };
    const { error, response } = await large.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(422);
    const issues = (error as { detail: { loc: string[]; msg: string }[] }).detail;
    expect(issues.map((i) => i.loc.join("."))).to.deep.equal(["body.node_positions"]);
    expect(issues[0]!.msg).to.match(
      /^node_positions are required above 3,000 nodes \(got 3501\): a full distance_matrix that large exceeds the request body limit/,
    );
  });

  it("fails a request above the limit with an English error, and the same worker process solves the next one", async () => {
    // 32 MB of V8 heap: enough for ordinary requests, not for parsing a 2,000-node matrix.
    const worker = await stack.startWorker({ SOLVER_MAX_HEAP_MB: "32" });
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
  });
});
