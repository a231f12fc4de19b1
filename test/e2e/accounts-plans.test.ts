import { expect } from "chai";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config/load.js";
import { connectNats } from "../../src/queue/connection.js";
import { AccountStore } from "../../src/store/accounts.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { quietLog } from "../helpers/nats.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));
const small = () => ({ ...cvrpRequest({ customers: 3, vehicles: 1, capacity: 100 }), time_limit_seconds: 1 });

async function submit(baseUrl: string, headers: Record<string, string>, body: unknown = small()) {
  const res = await fetch(`${baseUrl}/api/v1/solve`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; code?: string; error: string; request_id: string; retry_after_seconds?: number };
  await expectMatchesSpec("submitSolve", res.status, json);
  return { status: res.status, body: json, headers: res.headers };
}

/** Fixed minute windows: start a burst well inside one, so it cannot straddle two. */
async function awayFromMinuteBoundary(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 52_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
}

describe("accounts and plans across two API instances", function () {
  this.timeout(120_000);
  let stack: Stack;
  const proxy = { "X-Marketplace-Proxy-Secret": "proxy-s3cret", "X-Marketplace-User": "platform-user-7" };

  before(async () => {
    stack = await startStack({
      workers: 0,
      apis: 2,
      env: { PLANS_FILE, BUSY_QUEUE_THRESHOLD: "40", MARKETPLACE_PROXY_SECRET: "proxy-s3cret" },
    });
  });
  after(async () => {
    await stack?.stop();
  });

  it("accepts exactly 20 of 50 parallel submits against a limit of 20 per minute, spread over both instances", async () => {
    const { headers } = await stack.account("racer", "tight");
    await awayFromMinuteBoundary();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(stack.apis[i % 2]!.url, headers)));
    const accepted = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(accepted).to.have.length(20);
    expect(limited).to.have.length(30);
    for (const r of limited) {
      expect(r.body.code).to.equal("rate_limit_exceeded");
      expect(Number(r.headers.get("retry-after")))
        .to.equal(r.body.retry_after_seconds)
        .and.to.be.within(1, 60);
    }
    for (const r of accepted) {
      expect(r.headers.get("ratelimit")).to.match(/^"default";r=\d+;t=\d+$/);
      expect(r.headers.get("ratelimit-policy")).to.equal('"default";q=20;w=60');
    }
  });

  it("counts bad bodies against the rate (rate comes before validation)", async () => {
    const { headers } = await stack.account("sloppy", "tight");
    await awayFromMinuteBoundary();
    const results = await Promise.all(Array.from({ length: 22 }, () => submit(stack.api.url, headers, { node_num: "x" })));
    expect(results.filter((r) => r.status === 422)).to.have.length(20);
    expect(results.filter((r) => r.status === 429)).to.have.length(2);
  });

  it("enforces the monthly quota on accepted tasks only, naming the quota", async () => {
    const { headers } = await stack.account("thrifty", "quota");
    for (let i = 0; i < 3; i++) expect((await submit(stack.apis[i % 2]!.url, headers)).status).to.equal(200);
    expect((await submit(stack.api.url, headers, { ...small(), node_num: 0 })).status).to.equal(422);
    const over = await submit(stack.api.url, headers);
    expect(over.status).to.equal(429);
    expect(over.body.code).to.equal("monthly_quota_exceeded");
    expect(over.body.error).to.include("3");
    // Retry-After says when a retry can succeed: the start of next month (UTC).
    const now = new Date();
    const untilNextMonth = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
    expect(Number(over.headers.get("retry-after"))).to.equal(over.body.retry_after_seconds);
    expect(over.body.retry_after_seconds).to.be.within(untilNextMonth - 5, untilNextMonth + 5);
  });

  it("refuses revoked, disabled and expired keys with 401", async () => {
    const acct = await stack.account("keyholder", "tight");
    const conn = await connectNats(loadConfig(stack.env), "test", quietLog);
    const store = new AccountStore(conn.accounts, conn.apiKeys);
    const [keyRecord] = await store.listKeys("keyholder");
    await store.setKeyState("keyholder", keyRecord!.fingerprint, "revoked");
    const expired = await store.createKey("keyholder", new Date(Date.now() - 1000));
    await conn.close();
    for (const key of [acct.key, expired.key]) {
      const r = await submit(stack.api.url, { "X-User-Name": "keyholder", "X-Api-Key": key });
      expect(r.status).to.equal(401);
      expect(r.body.error).to.equal("invalid username or API key (or expired/revoked)");
    }
  });

  it("authenticates marketplace requests by the proxy secret, on the marketplace plan, outside planning history", async () => {
    const wrong = await submit(stack.api.url, { ...proxy, "X-Marketplace-Proxy-Secret": "nope" });
    expect(wrong.status).to.equal(401);
    expect(wrong.body.error).to.equal("invalid proxy secret");
    const ok = await submit(stack.apis[1]!.url, proxy);
    expect(ok.status).to.equal(200);
    const poll = await apiClient(stack.api.url, proxy).GET("/api/v1/solve/result/{request_id}", {
      params: { path: { request_id: ok.body.request_id } },
    });
    expect(poll.response.status).to.equal(200);
    const otherUser = await apiClient(stack.api.url, { ...proxy, "X-Marketplace-User": "someone-else" }).GET(
      "/api/v1/solve/result/{request_id}",
      { params: { path: { request_id: ok.body.request_id } } },
    );
    expect(otherUser.response.status).to.equal(403);
    const history = await apiClient(stack.api.url, proxy).GET("/api/v1/history", {});
    expect(history.response.status).to.equal(200);
    expect((history.data as unknown as { result: { items: unknown[] } }).result.items).to.deep.equal([]);
  });

  it("runs the submit checks in the contract's order: 401, 403, rate, 422, 400, quota, busy", async () => {
    const overNodes = () => ({ ...cvrpRequest({ customers: 100, vehicles: 1, capacity: 10_000 }), time_limit_seconds: 1 });
    const invalid = () => ({ ...small(), time_limit_seconds: 0 });
    // 401 before 403: a wrong key of an account whose plan has no API access.
    const free = await stack.account("freeloader", "free");
    const wrongKey = await submit(stack.api.url, { ...free.headers, "X-Api-Key": "vrp_" + "0".repeat(40) });
    expect(wrongKey.status).to.equal(401);
    // 403 before the rate: more submits than the free plan's 5 per minute are all 403, never 429.
    await awayFromMinuteBoundary();
    const refused = await Promise.all(Array.from({ length: 7 }, () => submit(stack.api.url, free.headers)));
    expect(refused.map((r) => r.status)).to.deep.equal(Array(7).fill(403));
    // 422 before 400: over the node limit and invalid gives 422.
    const { headers } = await stack.account("orderly", "quota");
    expect((await submit(stack.api.url, headers, { ...overNodes(), time_limit_seconds: 0 })).status).to.equal(422);
    for (let i = 0; i < 3; i++) expect((await submit(stack.api.url, headers)).status).to.equal(200);
    // Quota exhausted: 422 and 400 still come first, then 429 monthly_quota_exceeded.
    expect((await submit(stack.api.url, headers, invalid())).status).to.equal(422);
    expect((await submit(stack.api.url, headers, overNodes())).status).to.equal(400);
    expect((await submit(stack.api.url, headers)).body.code).to.equal("monthly_quota_exceeded");
    // Fill the queue to the busy threshold from another account.
    const filler = await stack.account("filler", "market");
    let last = await submit(stack.api.url, filler.headers);
    for (let i = 0; i < 60 && last.status === 200; i++) last = await submit(stack.apis[i % 2]!.url, filler.headers);
    expect(last.body.code).to.equal("service_busy");
    // Each instance caches the depth for 250 ms and counts only its own submissions in between,
    // so the other instance may see the threshold that long later.
    await new Promise((r) => setTimeout(r, 300));
    // Busy: the quota still answers before busy, validation and plan limits before both.
    const quotaWhileBusy = await submit(stack.api.url, headers);
    expect(quotaWhileBusy.status).to.equal(429);
    expect(quotaWhileBusy.body.code).to.equal("monthly_quota_exceeded");
    expect((await submit(stack.api.url, filler.headers, invalid())).status).to.equal(422);
    expect((await submit(stack.api.url, filler.headers, overNodes())).status).to.equal(400);
    expect((await submit(stack.api.url, filler.headers)).body.code).to.equal("service_busy");
  });

  it("answers 429 service_busy with the queue depth once the queue reaches the threshold", async () => {
    const { headers } = await stack.account("busybee", "market");
    let last = await submit(stack.api.url, headers);
    for (let i = 0; i < 40 && last.status === 200; i++) last = await submit(stack.apis[i % 2]!.url, headers);
    expect(last.status).to.equal(429);
    expect(last.body.code).to.equal("service_busy");
    // The depth in the text is the current one (each instance caches it for at most 250 ms).
    const depth = Number(/Service busy: (\d+) tasks are waiting/.exec(last.body.error)?.[1]);
    expect(depth).to.be.at.least(40);
    expect(Number(last.headers.get("retry-after"))).to.equal(last.body.retry_after_seconds);
  });
});

describe("planning history", function () {
  this.timeout(120_000);
  let stack: Stack;

  before(async () => {
    stack = await startStack({ workers: 1, env: { RESULT_TTL_SECONDS: "4" } });
  });
  after(async () => {
    await stack?.stop();
  });

  it("lists direct tasks newest first with cursor pagination and outlives the result TTL", async () => {
    const { headers } = await stack.account("historian", "pro");
    const client = apiClient(stack.baseUrl, headers);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await submit(stack.baseUrl, headers, { ...small(), name: `run ${i}` });
      ids.push(r.body.request_id);
    }
    for (const id of ids) await pollUntil(client, id, isFinished);

    const first = await client.GET("/api/v1/history", { params: { query: { limit: 2 } } });
    await expectMatchesSpec("listHistory", 200, first.data);
    const page1 = (
      first.data as unknown as {
        result: { items: { request_id: string; state: string; total_cost: number | null }[]; next_cursor: string };
      }
    ).result;
    expect(page1.items.map((i) => i.request_id)).to.deep.equal([ids[2], ids[1]]);
    expect(page1.items[0]!.state).to.equal("solved");
    expect(page1.items[0]!.total_cost).to.be.a("number");
    const second = await client.GET("/api/v1/history", { params: { query: { limit: 2, cursor: page1.next_cursor } } });
    const page2 = (second.data as unknown as { result: { items: { request_id: string }[]; next_cursor: string | null } }).result;
    expect(page2.items.map((i) => i.request_id)).to.deep.equal([ids[0]]);
    expect(page2.next_cursor).to.equal(null);

    // The result is gone within 6 s (RESULT_TTL_SECONDS 4); polled rather than slept for, so the
    // test goes on as soon as it is.
    const expiresBy = Date.now() + 6000;
    for (;;) {
      const expired = await client.GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: ids[0]! } } });
      if (expired.response.status === 404) break;
      expect(expired.response.status).to.equal(200);
      expect(Date.now(), "the result outlived its TTL").to.be.below(expiresBy);
      await new Promise((r) => setTimeout(r, 200));
    }
    const download = await client.GET("/api/v1/history/{request_id}", { params: { path: { request_id: ids[0]! } } });
    expect(download.response.status).to.equal(200);
    await expectMatchesSpec("downloadHistoryItem", 200, download.data);
    expect(download.response.headers.get("content-disposition")).to.include(`vrp-task-${ids[0]}.json`);
    const body = download.data as unknown as { request: { name: string }; result: { success: boolean } };
    expect(body.request.name).to.equal("run 0");
    expect(body.result.success).to.equal(true);
    // With the task's record gone, the entry still lists it solved with its cost.
    expect((download.data as unknown as { state: string }).state).to.equal("solved");
    const after = await client.GET("/api/v1/history", { params: { query: { limit: 3 } } });
    const listed = (after.data as unknown as { result: { items: { request_id: string; state: string; total_cost: number | null }[] } })
      .result;
    expect(listed.items.find((i) => i.request_id === ids[0])).to.include({ state: "solved" });
    expect(listed.items.find((i) => i.request_id === ids[0])?.total_cost).to.be.a("number");
    const other = await stack.account("nosy", "pro");
    const foreign = await apiClient(stack.baseUrl, other.headers).GET("/api/v1/history/{request_id}", {
      params: { path: { request_id: ids[0]! } },
    });
    expect(foreign.response.status).to.equal(404);
  });
});
