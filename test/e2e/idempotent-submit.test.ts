import { expect } from "chai";
import { fileURLToPath } from "node:url";
import { apiClient, type ApiClient } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { usageOf } from "../helpers/usage.js";

const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));

type Body = {
  success: boolean;
  request_id: string;
  code?: string;
  error: string | null;
  expires_at?: string;
  detail?: { loc: string[]; type: string; msg: string }[];
};

/** POST /api/v1/solve through the typed client (every answer checked against the document). */
async function submit(client: ApiClient, body: object, key?: string): Promise<{ status: number; body: Body; replayed: string | null }> {
  const { data, error, response } = await client.POST("/api/v1/solve", {
    body: body as never,
    ...(key !== undefined ? { params: { header: { "Idempotency-Key": key } } } : {}),
  });
  return { status: response.status, body: (data ?? error) as unknown as Body, replayed: response.headers.get("idempotent-replayed") };
}

async function historyIds(client: ApiClient): Promise<string[]> {
  const { data } = await client.GET("/api/v1/history", { params: { query: { limit: 100 } } });
  return data!.result.items.map((i) => i.request_id);
}

/** Idempotency-Key on submit, across two API instances. */
describe("idempotent submits (Idempotency-Key) over two API instances", function () {
  this.timeout(120_000);
  let stack: Stack;

  before(async () => {
    // No worker: admission is what is under test, and queued tasks stay put.
    stack = await startStack({ workers: 0, apis: 2, env: { PLANS_FILE } });
  });
  after(async () => {
    await stack?.stop();
  });

  it("answers a repeat with the original acknowledgement: same request_id, no second task, no second quota unit", async () => {
    // Plan `quota`: 3 tasks a month.
    const { headers } = await stack.account("idem-quota", "quota");
    const [one, two] = stack.apis.map((a) => apiClient(a.url, headers));
    const request = { ...cvrpRequest({ customers: 6, vehicles: 2, capacity: 30 }), time_limit_seconds: 1 };
    const first = await submit(one!, request, "order-2026-11-23-0001");
    expect(first.status).to.equal(200);
    expect(first.replayed).to.equal(null);
    // The same body with its fields in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(request).reverse());
    const again = await submit(two!, reordered, '"order-2026-11-23-0001"');
    expect(again.status).to.equal(200);
    expect(again.replayed).to.equal("true");
    expect(again.body.request_id).to.equal(first.body.request_id);
    expect(again.body).to.deep.equal(first.body);
    expect((await usageOf(stack, "idem-quota")).month).to.equal(1);

    // Two more distinct tasks use up the quota of 3; then a new task is refused, a repeat is not.
    expect((await submit(one!, { ...request, name: "b" })).status).to.equal(200);
    expect((await submit(two!, { ...request, name: "c" }, "order-2026-11-23-0003")).status).to.equal(200);
    const over = await submit(one!, { ...request, name: "d" }, "order-2026-11-23-0004");
    expect(over.status).to.equal(429);
    expect(over.body.code).to.equal("monthly_quota_exceeded");
    // The refused submit did not keep its key: another body with it is a fresh attempt (refused
    // for the quota again), not a 422 for a reused key.
    const sameKeyOtherBody = await submit(two!, { ...request, name: "e" }, "order-2026-11-23-0004");
    expect(sameKeyOtherBody.status).to.equal(429);
    expect(sameKeyOtherBody.body.code).to.equal("monthly_quota_exceeded");
    const repeat = await submit(two!, request, "order-2026-11-23-0001");
    expect(repeat.status).to.equal(200);
    expect(repeat.body.request_id).to.equal(first.body.request_id);
    expect(await historyIds(one!)).to.have.length(3);
    expect((await usageOf(stack, "idem-quota")).month).to.equal(3);
  });

  it("answers 422 for the same key with a different body, and for a malformed key", async () => {
    const { headers } = await stack.account("idem-mismatch", "tight");
    const client = apiClient(stack.apis[0]!.url, headers);
    const request = cvrpRequest({ customers: 5, vehicles: 2, capacity: 30 });
    expect((await submit(client, request, "k-1")).status).to.equal(200);
    const other = await submit(apiClient(stack.apis[1]!.url, headers), { ...request, name: "changed" }, "k-1");
    expect(other.status).to.equal(422);
    expect(other.body.code).to.equal("validation_failed");
    expect(other.body.detail).to.have.length(1);
    expect(other.body.detail![0]).to.include({ type: "idempotency_key_reused" });
    expect(other.body.detail![0]!.loc).to.deep.equal(["header", "Idempotency-Key"]);
    expect(other.body.detail![0]!.msg).to.match(/already used with a different request body/);

    const tooLong = await submit(client, request, "x".repeat(256));
    expect(tooLong.status).to.equal(422);
    expect(tooLong.body.detail![0]!.loc).to.deep.equal(["header", "Idempotency-Key"]);
    expect(await historyIds(client)).to.have.length(1);
  });

  it("keeps keys per account: another account's identical key and body make its own task", async () => {
    const a = await stack.account("idem-a", "tight");
    const b = await stack.account("idem-b", "tight");
    const request = cvrpRequest({ customers: 5, vehicles: 2, capacity: 30, seed: 11 });
    const fromA = await submit(apiClient(stack.api.url, a.headers), request, "shared-key");
    const fromB = await submit(apiClient(stack.api.url, b.headers), request, "shared-key");
    expect(fromA.status).to.equal(200);
    expect(fromB.status).to.equal(200);
    expect(fromB.replayed).to.equal(null);
    expect(fromB.body.request_id).to.not.equal(fromA.body.request_id);
  });

  it(
    "admits exactly one task for 16 concurrent repeats spread over both instances " + "(the others: 409 or the same acknowledgement)",
    async () => {
      const { headers } = await stack.account("idem-race", "tight");
      const clients = stack.apis.map((a) => apiClient(a.url, headers));
      const request = cvrpRequest({ customers: 8, vehicles: 2, capacity: 40, seed: 5 });
      // The rate is counted per fixed minute: keep the burst inside one.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => submit(clients[i % 2]!, request, "race-key")));
      const accepted = answers.filter((a) => a.status === 200);
      const inUse = answers.filter((a) => a.status === 409);
      expect(accepted.length + inUse.length, JSON.stringify(answers.map((a) => a.status))).to.equal(16);
      expect(accepted.length).to.be.at.least(1);
      expect(new Set(accepted.map((a) => a.body.request_id)).size).to.equal(1);
      for (const a of inUse) {
        expect(a.body.code).to.equal("idempotency_key_in_use");
        expect(a.body.error).to.match(/still being admitted/);
      }
      // Once admitted, a retry gets the acknowledgement on either instance.
      for (const client of clients) {
        const retry = await submit(client, request, "race-key");
        expect(retry.status).to.equal(200);
        expect(retry.body.request_id).to.equal(accepted[0]!.body.request_id);
      }
      expect(await historyIds(clients[0]!)).to.deep.equal([accepted[0]!.body.request_id]);
      const usage = await usageOf(stack, "idem-race");
      expect(usage.month).to.equal(1);
      // Every attempt still counted towards the per-minute rate, as any submit does.
      expect(usage.minute).to.equal(18);
    },
  );
});
