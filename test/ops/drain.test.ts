import { expect } from "chai";
import { request } from "node:http";
import { apiClient, pollUntil } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

const DRAIN_DELAY_MS = 1500;

/** Status of GET url, or 0 when no connection could be made. */
async function statusOf(url: string): Promise<number> {
  return fetch(url, { signal: AbortSignal.timeout(3000) }).then(
    (r) => r.status,
    () => 0,
  );
}

/**
 * A submission whose body is sent in two halves: the request is open on the server (headers
 * read, body pending) until `finish()` sends the rest; resolves with the status and JSON body.
 */
function halfSentSubmit(baseUrl: string, headers: Record<string, string>, body: string) {
  const url = new URL("/api/v1/solve", baseUrl);
  let finishBody!: () => void;
  const answer = new Promise<{ status: number; body: { request_id?: string } }>((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { request_id?: string } }));
      },
    );
    req.on("error", reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    finishBody = () => req.end(body.slice(half));
  });
  return { answer, finish: () => finishBody() };
}

describe("graceful drain of real API and worker processes on SIGTERM", function () {
  this.timeout(60_000);

  // One stack for both: the drain settings of each kind of process do not touch the other.
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      workers: 1,
      env: { API_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS), API_DRAIN_TIMEOUT_MS: "10000", WORKER_SHUTDOWN_GRACE_MS: "1500" },
    });
  });
  after(async () => {
    await stack?.stop();
  });

  describe("worker", () => {
    it("turns readiness false at once and hands its long task back within the grace period", async () => {
      const worker = stack.workers[0]!;
      const readyz = worker.url.replace(/\/metrics$/, "/readyz");
      expect(await statusOf(readyz)).to.equal(200);
      expect(await statusOf(worker.url.replace(/\/metrics$/, "/healthz"))).to.equal(200);
      const client = apiClient(stack.baseUrl, (await stack.account("drain-worker", "pro")).headers);
      const { data } = await client.POST("/api/v1/solve", {
        body: { ...cvrpRequest({ customers: 40, vehicles: 6, capacity: 50 }), time_limit_seconds: 20 } as never,
      });
      const id = data!.request_id;
      await pollUntil(client, id, (b) => (b.result as { phase?: string } | null)?.phase === "solving");

      const signalled = Date.now();
      worker.signal("SIGTERM");
      await new Promise((r) => setTimeout(r, 300));
      expect(await statusOf(readyz), "readiness while draining").to.equal(503);
      expect(await worker.exited()).to.equal(0);
      expect(Date.now() - signalled, "stop bounded by the grace period").to.be.lessThan(6000);
      expect((await stack.task(id))?.state).to.equal("queued");
    });
  });

  // Last: it stops the stack's API. The worker test before it stopped the only worker, so the tasks
  // submitted here stay queued.
  describe("API", () => {
    it("turns readiness false first, keeps serving for the drain delay, refuses connections, finishes the open request", async () => {
      const { headers } = await stack.account("drain", "pro");
      const body = JSON.stringify({ ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 50 }), time_limit_seconds: 1 });
      expect(await statusOf(`${stack.baseUrl}/readyz`)).to.equal(200);
      const open = halfSentSubmit(stack.baseUrl, headers, body);
      await new Promise((r) => setTimeout(r, 200));

      const signalled = Date.now();
      stack.api.signal("SIGTERM");
      await new Promise((r) => setTimeout(r, 200));
      expect(await statusOf(`${stack.baseUrl}/readyz`), "readiness while draining").to.equal(503);
      expect(await statusOf(`${stack.baseUrl}/healthz`), "liveness while draining").to.equal(200);
      // Within the delay a balancer may still send work: it is accepted.
      const during = await apiClient(stack.baseUrl, headers).POST("/api/v1/solve", { body: JSON.parse(body) as never });
      expect(during.response.status).to.equal(200);
      expect(during.response.headers.get("connection")).to.equal("close");

      // After the delay the listener is closed: new connections are refused.
      while ((await statusOf(`${stack.baseUrl}/healthz`)) !== 0) {
        expect(Date.now() - signalled, "still accepting connections well after the drain delay").to.be.lessThan(DRAIN_DELAY_MS + 3000);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(Date.now() - signalled, "stopped accepting before the drain delay ended").to.be.at.least(DRAIN_DELAY_MS - 100);

      // The request that was open all along is finished, then the process exits.
      open.finish();
      const answer = await open.answer;
      expect(answer.status).to.equal(200);
      expect(await stack.api.exited()).to.equal(0);
      for (const id of [answer.body.request_id!, during.data!.request_id]) expect((await stack.task(id))?.state, id).to.equal("queued");
    });
  });
});
