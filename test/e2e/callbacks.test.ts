import { expect } from "chai";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateWebhookSecret, verifyWebhook } from "../../src/callbacks/signature.js";
import { loadConfig } from "../../src/config/load.js";
import { connectNats } from "../../src/queue/connection.js";
import { AccountStore } from "../../src/store/accounts.js";
import { NAMES } from "../../src/queue/names.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { quietLog } from "../helpers/nats.js";
import { cvrpRequest } from "../helpers/requests.js";
import { sampleValue, scrape } from "../helpers/metrics.js";
import { freePort } from "../../src/infra/free-port.js";
import { expectMatchesSchema } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { asSolveRequest, sdkClient, TEST_WAIT } from "../helpers/sdk.js";
import { CallbackVerificationError, verifyCallback } from "../../clients/typescript/src/index.js";

describe("completion callbacks through the workers", function () {
  this.timeout(90_000);
  let stack: Stack;
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
  let secret: string;
  let headers: Record<string, string>;
  let account: { user: string; key: string; headers: Record<string, string> };

  before(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(req.url === "/broken" ? 500 : 200).end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    stack = await startStack({ workers: 1 });
    account = await stack.account("hooked", "pro");
    headers = account.headers;
    secret = generateWebhookSecret();
    const conn = await connectNats(loadConfig(stack.env), "test", quietLog);
    await new AccountStore(conn.accounts, conn.apiKeys).updateAccount("hooked", (a) => ({ ...a, webhookSecret: secret }));
    await conn.close();
  });
  after(async () => {
    await stack?.stop();
    receiver?.close();
  });

  async function waitForCallbacks(count: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  }

  it(
    "posts exactly one signed callback whose body equals the poll response, for " + "solved and failed tasks, verified by the SDK",
    async () => {
      const sdk = sdkClient(stack.baseUrl, account);
      const ok = await sdk.submit(
        asSolveRequest({
          ...cvrpRequest({ customers: 6, vehicles: 2, capacity: 40 }),
          time_limit_seconds: 1,
          callback_url: `${receiverUrl}/solved`,
        }),
      );
      const bad = cvrpRequest({ customers: 4, vehicles: 1, capacity: 5 });
      bad.node_demands[1] = 9;
      const failed = await sdk.submit(asSolveRequest({ ...bad, time_limit_seconds: 1, callback_url: `${receiverUrl}/failed` }));
      const polledOk = await sdk.waitForResult(ok.request_id, TEST_WAIT);
      const polledFailed = await sdk.waitForResult(failed.request_id, TEST_WAIT);
      await waitForCallbacks(2);
      await new Promise((r) => setTimeout(r, 1500));
      expect(received).to.have.length(2);
      for (const [path, polled] of [
        ["/solved", polledOk],
        ["/failed", polledFailed],
      ] as const) {
        const hit = received.find((r) => (JSON.parse(r.body) as { request_id: string }).request_id === polled.request_id)!;
        expect(hit, path).to.not.equal(undefined);
        expect(JSON.parse(hit.body)).to.deep.equal(polled);
        expect(verifyWebhook(secret, hit.headers as Record<string, string>, hit.body)).to.equal(true);
        // The receiving side as a partner writes it: the SDK's verifier checks and parses the body.
        const body = verifyCallback(secret, { headers: hit.headers, rawBody: hit.body });
        expect(body.success).to.equal(path === "/solved");
        expect(() => verifyCallback(secret, { headers: hit.headers, rawBody: hit.body.replace(polled.request_id, "tampered") })).to.throw(
          CallbackVerificationError,
        );
        await expectMatchesSchema("#/components/schemas/CompletionCallbackBody", body);
        await expectMatchesSchema(
          path === "/solved" ? "#/components/schemas/PollSolved" : "#/components/schemas/PollFailed",
          JSON.parse(hit.body),
        );
      }
    },
  );

  it("keeps each callback's outcome with the task, counts it in the worker's metrics, and leaves the result pollable", async () => {
    const client = apiClient(stack.baseUrl, headers);
    const metricsBefore = await scrape(stack.workers[0]!.url);
    const closedPort = await freePort();
    const targets = { delivered: `${receiverUrl}/ok`, http_error: `${receiverUrl}/broken`, error: `http://127.0.0.1:${closedPort}/nobody` };
    const ids: Record<string, string> = {};
    for (const [outcome, callback_url] of Object.entries(targets)) {
      const { data } = await client.POST("/api/v1/solve", {
        body: { ...cvrpRequest({ customers: 4, vehicles: 2, capacity: 40 }), time_limit_seconds: 1, callback_url } as never,
      });
      ids[outcome] = data!.request_id;
    }
    for (const id of Object.values(ids)) {
      const polled = await pollUntil(client, id, isFinished);
      expect(polled.success, "the result stays pollable whatever the callback did").to.equal(true);
    }
    const deadline = Date.now() + 20_000;
    const records: Record<string, Awaited<ReturnType<Stack["task"]>>> = {};
    for (const [outcome, id] of Object.entries(ids)) {
      for (;;) {
        records[outcome] = await stack.task(id);
        if (records[outcome]?.callback?.state === "done" || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(records.delivered!.callback).to.include({ state: "done", outcome: "delivered", httpStatus: 200 });
    expect(records.http_error!.callback).to.include({ state: "done", outcome: "http_error", httpStatus: 500 });
    expect(records.error!.callback).to.include({ state: "done", outcome: "error" });
    const metricsAfter = await scrape(stack.workers[0]!.url);
    for (const outcome of Object.keys(targets)) {
      const moved =
        sampleValue(metricsAfter, "vrp_callbacks_total", { outcome }) - sampleValue(metricsBefore, "vrp_callbacks_total", { outcome });
      expect(moved, `vrp_callbacks_total{outcome="${outcome}"}`).to.equal(1);
    }
  });

  it("does not send a second callback when a task whose callback was sent is delivered again", async () => {
    const client = apiClient(stack.baseUrl, headers);
    const { data } = await client.POST("/api/v1/solve", {
      body: {
        ...cvrpRequest({ customers: 4, vehicles: 2, capacity: 40 }),
        time_limit_seconds: 1,
        callback_url: `${receiverUrl}/once`,
      } as never,
    });
    const id = data!.request_id;
    await pollUntil(client, id, isFinished);
    const hits = () => received.filter((r) => (JSON.parse(r.body) as { request_id: string }).request_id === id).length;
    const deadline = Date.now() + 20_000;
    while (hits() < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(hits()).to.equal(1);
    // The same task message again, as after a worker crash between the callback and the ack.
    const conn = await connectNats(loadConfig(stack.env), "test", quietLog);
    try {
      const ack = await conn.js.publish(NAMES.taskSubject, JSON.stringify({ taskId: id }), { msgID: `${id}-again` });
      // Work-queue retention: the message leaves the stream once a worker has acknowledged it.
      const consumed = Date.now() + 20_000;
      for (;;) {
        const left = await conn.jsm.streams.getMessage(NAMES.taskStream, { seq: ack.seq }).then(
          (m) => m !== null,
          () => false,
        );
        if (!left) break;
        expect(Date.now(), "the worker took the repeated message").to.be.lessThan(consumed);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await conn.close();
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(
      stack.workers[0]!.output()
        .split("\n")
        .filter((l) => l.includes(id) && l.includes("callback sent")),
    ).to.have.length(1);
    expect(hits()).to.equal(1);
    expect((await pollUntil(client, id, isFinished)).success).to.equal(true);
  });
});
