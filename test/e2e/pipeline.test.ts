import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { isApiError, type PollResult, type VrpClient } from "../../clients/typescript/src/index.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { cvrpRequest } from "../helpers/requests.js";
import { asSolveRequest, sdkClient, TEST_WAIT } from "../helpers/sdk.js";
import { startStack, type Stack } from "../helpers/stack.js";

/** The pipeline end to end through the repository's SDK: submit, every state, result, failure. */
describe("solve pipeline (API + JetStream + workers)", function () {
  this.timeout(120_000);
  let stack: Stack;
  let client: VrpClient;

  before(async () => {
    // No worker at first, so a task can be observed while queued.
    stack = await startStack({ workers: 0 });
    client = sdkClient(stack.baseUrl, await stack.account("alice"));
  });
  after(async () => {
    await stack?.stop();
  });

  /** The first test starts the worker once it has seen its task queued; the others need one too when run alone. */
  async function ensureWorker(): Promise<void> {
    if (stack.workers.length === 0) await stack.startWorker();
  }

  async function pollUntilSolving(requestId: string): Promise<PollResult> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const poll = await client.poll(requestId);
      if (poll.result?.status !== "processing" || poll.result.phase === "solving" || Date.now() > deadline) return poll;
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  it("acknowledges at once, shows queued with queue_depth, then solving, then solved", async () => {
    const request = asSolveRequest({ ...cvrpRequest({ customers: 20, vehicles: 4, capacity: 40 }), time_limit_seconds: 2 });
    // The SDK's generated client underneath, to see the response header as well.
    const first = await client.raw.POST("/api/v1/solve", { body: request });
    expect(first.response.status).to.equal(200);
    const ack = first.data!;
    expect(ack.success).to.equal(true);
    expect((ack as unknown as { error: unknown }).error).to.equal(null);
    expect(ack.result).to.include({ status: "accepted", phase: "queued" });
    // UUID v4: 122 random bits.
    expect(ack.request_id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.response.headers.get("x-request-id")).to.equal(ack.request_id);

    const second = await client.submit(request);
    expect(second.error).to.equal(null);
    const queued = await client.poll(second.request_id);
    // One task ahead of it (its account's first).
    expect(queued.result).to.deep.equal({ status: "processing", phase: "queued", queue_depth: 1 });

    await stack.startWorker();
    const solving = await pollUntilSolving(ack.request_id);
    // Plus the `progress` extension (its own tests: test/e2e/progress-events.test.ts).
    expect(solving.result).to.deep.include({ status: "processing", phase: "solving", queue_depth: null });
    expect(solving.result).to.have.property("progress");

    const solved = await client.waitForResult(ack.request_id, TEST_WAIT);
    if (!solved.success) throw new Error(`expected a solution: ${solved.error}`);
    // A discriminated union: `result.status` tells solved from processing.
    expect(solved.result.status).to.equal("solved");
    expect(solved.result.request_id).to.equal(ack.request_id);
    expect(solved.result.success).to.equal(true);
    expect(solved.result.time_windows).to.deep.equal({});
    expect(solved.result.strategy).to.be.a("string");
    checkDistanceResult(
      request as Parameters<typeof checkDistanceResult>[0],
      solved.result as unknown as Parameters<typeof checkDistanceResult>[1],
    );
    await client.waitForResult(second.request_id, TEST_WAIT);
  });

  it("solves examples/small-cvrp.json with every distance x 100,000 and x 0.001 for seeds 1-6", async () => {
    await ensureWorker();
    const example = JSON.parse(readFileSync(join(REPO_ROOT, "examples/small-cvrp.json"), "utf8")) as { distance_matrix: number[][] };
    const runs = [100_000, 0.001].flatMap((factor) => [1, 2, 3, 4, 5, 6].map((seed) => ({ factor, seed })));
    const outcomes = await Promise.all(
      runs.map(({ factor, seed }) =>
        client.solve(
          asSolveRequest({
            ...example,
            distance_matrix: example.distance_matrix.map((row) => row.map((d) => d * factor)),
            seed,
            time_limit_seconds: 2,
          }),
          TEST_WAIT,
        ),
      ),
    );
    outcomes.forEach((outcome, k) => {
      if (!outcome.success) throw new Error(`x ${runs[k]!.factor}, seed ${runs[k]!.seed}: ${outcome.error}`);
      expect(outcome.result.total_cost / runs[k]!.factor).to.be.closeTo(70, 1e-6);
    });
  });

  it("reports an infeasible problem as failed: HTTP 200, success false, result null, English error", async () => {
    await ensureWorker();
    const request = cvrpRequest({ customers: 5, vehicles: 2, capacity: 10, seed: 3 });
    request.node_demands[3] = 30;
    const failed = await client.solve(asSolveRequest({ ...request, time_limit_seconds: 1 }), TEST_WAIT);
    if (failed.success) throw new Error("expected the task to fail");
    expect(failed.result).to.equal(null);
    expect(failed.code).to.equal("no_feasible_solution");
    expect(failed.error).to.match(/node 3/);
    expect(failed.diagnostics?.join(" ")).to.match(/node 3 demand 30 exceeds/);
  });

  it("answers 404 for an unknown id and 403 for another account's task, as typed errors", async () => {
    await ensureWorker();
    const unknown = await client.poll("00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    if (!isApiError(unknown) || unknown.status !== 404) throw new Error(`expected a 404 ApiError, got ${String(unknown)}`);
    expect(unknown.body.code).to.equal("not_found");
    expect(unknown.body.error).to.equal("request id not found or expired");

    const { request_id } = await client.submit(
      asSolveRequest({ ...cvrpRequest({ customers: 4, vehicles: 1, capacity: 100 }), time_limit_seconds: 1 }),
    );
    const bob = sdkClient(stack.baseUrl, await stack.account("bob"));
    const other = await bob.poll(request_id).catch((e: unknown) => e);
    if (!isApiError(other) || other.status !== 403) throw new Error(`expected a 403 ApiError, got ${String(other)}`);
    expect(other.body.code).to.equal("forbidden");
    expect(other.body.error).to.equal("no permission to access this request result");
  });

  it("lets any valid key of the same account read the result", async () => {
    await ensureWorker();
    const { request_id } = await client.submit(
      asSolveRequest({ ...cvrpRequest({ customers: 4, vehicles: 1, capacity: 100 }), time_limit_seconds: 1 }),
    );
    const viaOtherKey = sdkClient(stack.baseUrl, await stack.account("alice"));
    expect((await viaOtherKey.poll(request_id)).success).to.equal(true);
  });
});
