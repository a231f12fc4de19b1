/**
 * The client's own logic against a scripted HTTP server on loopback: which headers it sends, how
 * it waits between polls (a recording clock, so no real waiting), Retry-After, the total timeout,
 * abort, and typed errors. The same client runs against the real service in the repository's
 * end-to-end tests.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { ApiError, VrpClient, WaitTimeoutError, isApiError, type PollResult } from "../src/index.js";

const ID = "3f0c6f1e-7d5a-4c1b-9a61-2b8f5e0c9d47";
const processing = { success: true, request_id: ID, error: null, result: { status: "processing", phase: "solving", queue_depth: null } };
const solved = {
  success: true,
  request_id: ID,
  error: null,
  result: {
    status: "solved",
    success: true,
    error: null,
    total_cost: 7,
    routes: { "Vehicle 0": [0, 1, 0] },
    distances: [7],
    loads: { "Vehicle 0": [0, 1, 1] },
    time_windows: {},
    time: 0.1,
    request_id: ID,
  },
};
const busy = { success: false, request_id: ID, error: "busy", result: null, code: "service_unavailable", retry_after_seconds: 7 };

/** Answers are taken from `script` in order (the last one repeats); requests are recorded. */
let script: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? "", headers: req.headers });
  const next = script.length > 1 ? script.shift()! : script[0]!;
  res.writeHead(next.status, { "content-type": "application/json", ...next.headers }).end(JSON.stringify(next.body));
});
let baseUrl = "";
before(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

function recordingClock() {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    clock: { now: () => now, sleep: async (ms: number) => void (waits.push(ms), (now += ms)) },
    /** Time that passes while a request is out (a poll the service holds). */
    advance: (ms: number) => void (now += ms),
  };
}
const direct = () => new VrpClient({ baseUrl, credentials: { user: "acme", apiKey: "vrp_x" } });

describe("VrpClient", () => {
  it("lists the deployment's strategies from GET /api/v1/strategies, and throws the typed error on a 401", async () => {
    const list = [{ name: "hgs", kind: "search", supports: ["capacities", "time_windows"] }];
    script = [{ status: 200, body: { success: true, request_id: ID, error: null, result: list } }];
    seen.length = 0;
    assert.deepEqual(await direct().strategies(), list);
    assert.equal(seen[0]!.url, "/api/v1/strategies");
    script = [{ status: 401, body: { success: false, request_id: ID, error: "no key", result: null, code: "invalid_credentials" } }];
    await assert.rejects(direct().strategies(), (err: unknown) => isApiError(err) && err.status === 401);
  });

  it("sends direct-access or marketplace headers from the one credentials option", async () => {
    script = [{ status: 200, body: processing }];
    seen.length = 0;
    await direct().poll(ID);
    await new VrpClient({ baseUrl, credentials: { marketplace: { proxySecret: "s3", user: "m-user" } } }).poll(ID);
    await new VrpClient({
      baseUrl,
      credentials: { marketplace: { proxySecret: "s3", user: "m-user", secretHeader: "X-Proxy", userHeader: "X-Who" } },
    }).poll(ID);
    assert.equal(seen[0]!.url, `/api/v1/solve/result/${ID}`);
    assert.deepEqual([seen[0]!.headers["x-user-name"], seen[0]!.headers["x-api-key"]], ["acme", "vrp_x"]);
    assert.deepEqual(
      [seen[1]!.headers["x-marketplace-proxy-secret"], seen[1]!.headers["x-marketplace-user"], seen[1]!.headers["x-api-key"]],
      ["s3", "m-user", undefined],
    );
    assert.deepEqual([seen[2]!.headers["x-proxy"], seen[2]!.headers["x-who"]], ["s3", "m-user"]);
  });

  it("waits 2 s, 3 s, then 5 s between polls, and at least Retry-After after a 503", async () => {
    script = [
      { status: 200, body: processing },
      { status: 200, body: processing },
      { status: 200, body: processing },
      { status: 503, body: busy, headers: { "retry-after": "7" } },
      { status: 200, body: processing },
      { status: 200, body: solved },
    ];
    const { waits, clock } = recordingClock();
    const progress: PollResult[] = [];
    const done = await direct().waitForResult(ID, { clock, onProcessing: (p) => progress.push(p) });
    assert.deepEqual(waits, [2000, 3000, 5000, 7000, 5000]);
    assert.equal(progress.length, 4);
    assert.ok(done.success && done.result.status === "solved");
    assert.equal(done.result.total_cost, 7);
  });

  it("asks the service to hold each poll (wait_seconds) and polls again at once after a held poll", async () => {
    script = [
      { status: 200, body: processing },
      { status: 200, body: processing },
      { status: 200, body: solved },
    ];
    seen.length = 0;
    const { waits, clock, advance } = recordingClock();
    let held = 0;
    // A service that holds every poll for 20 s: the clock moves while the request is out.
    const holding: typeof fetch = async (input, init) => {
      held++;
      const answer = await fetch(input, init);
      advance(20_000);
      return answer;
    };
    const client = new VrpClient({ baseUrl, credentials: { user: "acme", apiKey: "vrp_x" }, fetch: holding });
    const done = await client.waitForResult(ID, { clock });
    assert.ok(done.success && done.result.status === "solved");
    assert.equal(held, 3);
    assert.deepEqual(waits, [], "no pause after a poll that was held longer than the schedule");
    assert.ok(
      seen.every((r) => r.url.endsWith("?wait_seconds=20")),
      JSON.stringify(seen.map((r) => r.url)),
    );

    script = [
      { status: 200, body: processing },
      { status: 200, body: solved },
    ];
    seen.length = 0;
    const plain = recordingClock();
    await direct().waitForResult(ID, { clock: plain.clock, longPollSeconds: 0 });
    assert.deepEqual(plain.waits, [2000]);
    assert.ok(seen.every((r) => !r.url.includes("wait_seconds")));
  });

  it("gives up after the total timeout with WaitTimeoutError, polling once more at the deadline", async () => {
    script = [{ status: 200, body: processing }];
    seen.length = 0;
    const { waits, clock } = recordingClock();
    await assert.rejects(direct().waitForResult(ID, { clock, timeoutMs: 6_000 }), WaitTimeoutError);
    assert.deepEqual(waits, [2000, 3000, 1000]);
    assert.equal(seen.length, 4);
  });

  it("stops waiting when its AbortSignal aborts, with the signal's reason", async () => {
    script = [{ status: 200, body: processing }];
    const controller = new AbortController();
    const waiting = direct().waitForResult(ID, { signal: controller.signal, scheduleMs: [60_000] });
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    await assert.rejects(waiting, /user cancelled/);
  });

  it("throws typed errors that carry the status, the envelope and Retry-After; other errors end the wait at once", async () => {
    const limited = {
      success: false,
      request_id: ID,
      error: "slow down",
      result: null,
      code: "rate_limit_exceeded",
      retry_after_seconds: 30,
    };
    script = [{ status: 429, body: limited, headers: { "retry-after": "30" } }];
    const err = await direct()
      .submit({} as never)
      .catch((e: unknown) => e);
    assert.ok(err instanceof ApiError && isApiError(err));
    assert.equal(err.status, 429);
    if (err.status === 429) assert.equal(err.body.code, "rate_limit_exceeded");
    assert.equal(err.retryAfterSeconds, 30);
    script = [
      { status: 404, body: { success: false, request_id: ID, error: "request id not found or expired", result: null, code: "not_found" } },
    ];
    const { waits, clock } = recordingClock();
    await assert.rejects(direct().waitForResult(ID, { clock }), (e: unknown) => isApiError(e) && e.status === 404);
    assert.deepEqual(waits, []);
  });
});
