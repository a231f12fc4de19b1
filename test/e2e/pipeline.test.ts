import { expect } from "chai";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { checkDistanceResult } from "../helpers/check-result.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

/** The pipeline end to end through the typed client: submit, every state, result, failure. */
describe("solve pipeline (API + JetStream + workers)", function () {
  this.timeout(120_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    // No worker at first, so a task can be observed while queued.
    stack = await startStack({ workers: 0 });
    const alice = await stack.account("alice");
    client = apiClient(stack.baseUrl, alice.headers);
  });
  after(async () => {
    await stack?.stop();
  });

  /** The first test starts the worker once it has seen its task queued; the others need one too when run alone. */
  async function ensureWorker(): Promise<void> {
    if (stack.workers.length === 0) await stack.startWorker();
  }

  it("acknowledges at once, shows queued with queue_depth, then solving, then solved", async () => {
    const request = { ...cvrpRequest({ customers: 20, vehicles: 4, capacity: 40 }), time_limit_seconds: 2 };
    const first = await client.POST("/api/v1/solve", { body: request as never });
    expect(first.response.status).to.equal(200);
    await expectMatchesSpec("submitSolve", 200, first.data);
    const ack = first.data!;
    expect(ack.success).to.equal(true);
    expect((first.data as unknown as { error: unknown }).error).to.equal(null);
    expect(ack.result).to.include({ status: "accepted", phase: "queued" });
    // UUID v4: 122 random bits.
    expect(ack.request_id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.response.headers.get("x-request-id")).to.equal(ack.request_id);

    const second = await client.POST("/api/v1/solve", { body: request as never });
    const queued = await pollUntil(client, second.data!.request_id, () => true);
    expect(queued.result).to.deep.equal({ status: "processing", phase: "queued", queue_depth: 2 });

    await stack.startWorker();
    const solving = await pollUntil(client, ack.request_id, (b) => (b.result as { phase?: string }).phase === "solving");
    // Plus the `progress` extension of issue 13 (its own tests: test/e2e/progress-events.test.ts).
    expect(solving.result).to.deep.include({ status: "processing", phase: "solving", queue_depth: null });
    expect(solving.result).to.have.property("progress");

    const solved = await pollUntil(client, ack.request_id, isFinished);
    expect(solved.success).to.equal(true);
    const result = solved.result as Parameters<typeof checkDistanceResult>[1] & Record<string, unknown>;
    expect(result.request_id).to.equal(ack.request_id);
    expect(result.success).to.equal(true);
    expect(result.time_windows).to.deep.equal({});
    expect(result.strategy).to.be.a("string");
    checkDistanceResult(request, result);
    await pollUntil(client, second.data!.request_id, isFinished);
  });

  it("reports an infeasible problem as failed: HTTP 200, success false, result null, English error", async () => {
    await ensureWorker();
    const request = cvrpRequest({ customers: 5, vehicles: 2, capacity: 10, seed: 3 });
    request.node_demands[3] = 30;
    const { data } = await client.POST("/api/v1/solve", { body: { ...request, time_limit_seconds: 1 } as never });
    const failed = await pollUntil(client, data!.request_id, isFinished);
    expect(failed.success).to.equal(false);
    expect(failed.result).to.equal(null);
    expect(failed.code).to.equal("no_feasible_solution");
    expect(failed.error).to.match(/node 3/);
    expect(failed.diagnostics?.join(" ")).to.match(/node 3 demand 30 exceeds/);
  });

  it("answers 404 for an unknown id and 403 for another account's task", async () => {
    await ensureWorker();
    const unknown = await client.GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: "00000000-0000-4000-8000-000000000000" } } });
    expect(unknown.response.status).to.equal(404);
    await expectMatchesSpec("getSolveResult", 404, unknown.error);
    expect((unknown.error as { error: string }).error).to.equal("request id not found or expired");

    const { data } = await client.POST("/api/v1/solve", { body: { ...cvrpRequest({ customers: 4, vehicles: 1, capacity: 100 }), time_limit_seconds: 1 } as never });
    const bob = await stack.account("bob");
    const other = await apiClient(stack.baseUrl, bob.headers).GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: data!.request_id } } });
    expect(other.response.status).to.equal(403);
    await expectMatchesSpec("getSolveResult", 403, other.error);
    expect((other.error as { error: string }).error).to.equal("no permission to access this request result");
  });

  it("lets any valid key of the same account read the result", async () => {
    await ensureWorker();
    const { data } = await client.POST("/api/v1/solve", { body: { ...cvrpRequest({ customers: 4, vehicles: 1, capacity: 100 }), time_limit_seconds: 1 } as never });
    const secondKey = await stack.account("alice");
    const viaOtherKey = await apiClient(stack.baseUrl, secondKey.headers).GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: data!.request_id } } });
    expect(viaOtherKey.response.status).to.equal(200);
  });
});
