import { expect } from "chai";
import { apiClient, isFinished, type ApiClient } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { storedRequestBody } from "../helpers/usage.js";

type Poll = { success: boolean; request_id: string; result: Record<string, unknown> | null; expires_at?: string; code?: string };
const DAY_MS = 86_400_000;

/** Polls until finished, asserting that every poll body (queued, solving, final) says when it expires. */
async function pollFinished(client: ApiClient, id: string, timeoutMs = 60_000): Promise<Poll> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data, response } = await client.GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: id } } });
    expect(response.status).to.equal(200);
    const body = data as unknown as Poll;
    expect(body.expires_at, JSON.stringify(body).slice(0, 200)).to.be.a("string");
    if (isFinished(body)) return body;
    if (Date.now() > deadline) throw new Error(`task ${id} did not finish`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** expires_at and DELETE of a finished result. */
describe("result lifecycle: expires_at and DELETE /api/v1/solve/result/{id}", function () {
  this.timeout(120_000);
  let stack: Stack;
  let client: ApiClient;
  let other: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 1 });
    client = apiClient(stack.api.url, (await stack.account("life")).headers);
    other = apiClient(stack.api.url, (await stack.account("life-other")).headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("says in every acknowledgement and poll when the result expires (the result TTL after the last change)", async () => {
    const before = Date.now();
    const { data } = await client.POST("/api/v1/solve", {
      body: { ...cvrpRequest({ customers: 10, vehicles: 2, capacity: 40 }), time_limit_seconds: 1 } as never,
    });
    const after = Date.now();
    const ackExpiry = Date.parse(data!.expires_at!);
    expect(data!.expires_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(ackExpiry).to.be.within(before + DAY_MS - 1000, after + DAY_MS + 1000);
    const solved = await pollFinished(client, data!.request_id);
    expect(solved.success).to.equal(true);
    expect(Date.parse(solved.expires_at!)).to.be.at.least(ackExpiry);

    const infeasible = cvrpRequest({ customers: 4, vehicles: 1, capacity: 10 });
    infeasible.node_demands[2] = 50;
    const failedAck = await client.POST("/api/v1/solve", { body: infeasible as never });
    const failed = await pollFinished(client, failedAck.data!.request_id);
    expect(failed.success).to.equal(false);
    expect(Date.parse(failed.expires_at!)).to.be.at.least(Date.parse(failedAck.data!.expires_at!));
  });

  it("deletes a finished result and its request at once: 204, then 404; the history entry stays, marked deleted", async () => {
    const { data } = await client.POST("/api/v1/solve", {
      body: { ...cvrpRequest({ customers: 6, vehicles: 2, capacity: 40 }), time_limit_seconds: 1 } as never,
    });
    const id = data!.request_id;
    await pollFinished(client, id);
    expect(await storedRequestBody(stack, id)).to.not.equal(null);
    const path = { params: { path: { request_id: id } } };

    const foreign = await other.DELETE("/api/v1/solve/result/{request_id}", path);
    expect(foreign.response.status).to.equal(403);
    const unknown = await client.DELETE("/api/v1/solve/result/{request_id}", {
      params: { path: { request_id: "00000000-0000-4000-8000-000000000000" } },
    });
    expect(unknown.response.status).to.equal(404);

    const deleted = await client.DELETE("/api/v1/solve/result/{request_id}", path);
    expect(deleted.response.status).to.equal(204);
    expect((await client.GET("/api/v1/solve/result/{request_id}", path)).response.status).to.equal(404);
    expect(await storedRequestBody(stack, id)).to.equal(null);
    const listed = await client.GET("/api/v1/history", {});
    expect(listed.data!.result.items.find((i) => i.request_id === id)?.state).to.equal("deleted");
    const download = await client.GET("/api/v1/history/{request_id}", path);
    expect(download.response.status).to.equal(200);
    expect(download.data).to.include({ request_id: id, state: "deleted", request: null, result: null });
    expect((await client.DELETE("/api/v1/solve/result/{request_id}", path)).response.status).to.equal(404);
  });

  it("refuses to delete a task that is still queued or solving (409) and deletes it once finished", async () => {
    const { data } = await client.POST("/api/v1/solve", {
      body: { ...cvrpRequest({ customers: 30, vehicles: 4, capacity: 50 }), time_limit_seconds: 2 } as never,
    });
    const path = { params: { path: { request_id: data!.request_id } } };
    const early = await client.DELETE("/api/v1/solve/result/{request_id}", path);
    expect(early.response.status).to.equal(409);
    await expectMatchesSpec("deleteSolveResult", 409, early.error);
    expect(early.error).to.include({ code: "task_not_finished" });
    expect((early.error as { error: string }).error).to.match(
      /^The task is still (queued|solving); its result can be deleted once it has finished$/,
    );
    const solved = await pollFinished(client, data!.request_id);
    expect(solved.success).to.equal(true);
    expect((await client.DELETE("/api/v1/solve/result/{request_id}", path)).response.status).to.equal(204);
  });
});
