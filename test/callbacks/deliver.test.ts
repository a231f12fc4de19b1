import { expect } from "chai";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { deliverCallback } from "../../src/callbacks/deliver.js";
import { generateWebhookSecret, verifyWebhook } from "../../src/callbacks/signature.js";
import { REASONS, type HostLookup } from "../../src/callbacks/target-guard.js";

// Every connection in this file goes to 127.0.0.1: names are served by injected lookups that
// answer with 127.0.0.1, and the loopback allowance is on wherever a connection is wanted.

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  server: Server;
  port: number;
  received: Received[];
  close: () => Promise<void>;
}

type Respond = (request: IncomingMessage, response: ServerResponse) => void;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function startServer(respond: Respond): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      respond(request, response);
    });
  });
  const port = await listen(server);
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { server, port, received, close };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

function countingLookup(answers: ReadonlyArray<ReadonlyArray<{ address: string; family: number }>>) {
  const calls: string[] = [];
  const lookup: HostLookup = async (hostname) => {
    const answer = answers[calls.length] ?? answers[answers.length - 1] ?? [];
    calls.push(hostname);
    return answer;
  };
  return { lookup, calls };
}

const BODY = JSON.stringify({ data: { task_id: "t_1", status: "solved" }, result: { cost: 12.5 } });

describe("callbacks/deliver", () => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  async function server(respond: Respond): Promise<TestServer> {
    const started = await startServer(respond);
    servers.push(started);
    return started;
  }

  it("delivers exactly one signed POST with the body, and the signature verifies", async () => {
    const target = await server((_req, res) => res.writeHead(204).end());
    const secret = generateWebhookSecret();
    const nowMs = 1_700_000_000_123;
    const outcome = await deliverCallback(`http://127.0.0.1:${target.port}/hooks/vrp?x=1#frag`, BODY, {
      allowLoopback: true,
      secret,
      messageId: "msg_test1",
      now: () => nowMs,
    });

    expect(outcome.outcome).to.equal("delivered");
    expect(outcome).to.include({ status: 204 });
    expect(target.received).to.have.length(1);
    const [request] = target.received;
    expect(request?.method).to.equal("POST");
    expect(request?.url).to.equal("/hooks/vrp?x=1");
    expect(request?.body).to.equal(BODY);
    const headers = flatHeaders(request?.headers ?? {});
    expect(headers).to.include({
      "content-type": "application/json",
      "user-agent": "vrp-solve-service/1",
      "webhook-id": "msg_test1",
      "webhook-timestamp": "1700000000",
      host: `127.0.0.1:${target.port}`,
    });
    expect(verifyWebhook(secret, headers, request?.body ?? "", 300, 1_700_000_000)).to.equal(true);
    expect(verifyWebhook(secret, headers, BODY.replace("12.5", "1.5"), 300, 1_700_000_000)).to.equal(false);
  });

  it("sends id and timestamp but no signature without a secret, with a fresh msg_ id", async () => {
    const target = await server((_req, res) => res.writeHead(200).end("ok"));
    const outcome = await deliverCallback(`http://127.0.0.1:${target.port}/`, BODY, { allowLoopback: true, secret: null });
    expect(outcome.outcome).to.equal("delivered");
    const headers = target.received[0]?.headers ?? {};
    expect(headers["webhook-id"]).to.match(/^msg_[A-Za-z0-9_-]+$/);
    expect(headers["webhook-timestamp"]).to.match(/^\d+$/);
    expect(headers).to.not.have.property("webhook-signature");
  });

  it("does not follow a 302 and reports it as http_error", async () => {
    const target = await server((req, res) => {
      if (req.url === "/start") res.writeHead(302, { location: "/elsewhere" }).end();
      else res.writeHead(200).end();
    });
    const outcome = await deliverCallback(`http://127.0.0.1:${target.port}/start`, BODY, { allowLoopback: true, secret: null });
    expect(outcome).to.include({ outcome: "http_error", status: 302 });
    expect(target.received.map((r) => r.url)).to.deep.equal(["/start"]);
  });

  it("reports a 500 as http_error without retrying", async () => {
    const target = await server((_req, res) => res.writeHead(500).end("boom"));
    const outcome = await deliverCallback(`http://127.0.0.1:${target.port}/`, BODY, { allowLoopback: true, secret: null });
    expect(outcome).to.include({ outcome: "http_error", status: 500 });
    expect(target.received).to.have.length(1);
  });

  it("gives timeout when the server never answers", async () => {
    const target = await server(() => {
      /* never respond */
    });
    const outcome = await deliverCallback(`http://127.0.0.1:${target.port}/slow`, BODY, {
      allowLoopback: true,
      secret: null,
      timeoutMs: 300,
    });
    expect(outcome.outcome).to.equal("timeout");
    // Generous slack: only proves the 300 ms budget, not the 10 s default, ended the attempt.
    expect((outcome as { ms: number }).ms).to.be.below(5000);
    expect(target.received).to.have.length(1);
  });

  it("gives error for a port where nothing listens", async () => {
    const closed = await startServer(() => undefined);
    const port = closed.port;
    await closed.close();
    const outcome = await deliverCallback(`http://127.0.0.1:${port}/`, BODY, { allowLoopback: true, secret: null });
    expect(outcome.outcome).to.equal("error");
    expect((outcome as { reason: string }).reason).to.match(/ECONNREFUSED/);
  });

  it("refuses 127.0.0.1 and localhost without the loopback allowance and sends nothing", async () => {
    const target = await server((_req, res) => res.writeHead(200).end());
    for (const url of [
      `http://127.0.0.1:${target.port}/`,
      `http://localhost:${target.port}/`,
      `http://[::ffff:127.0.0.1]:${target.port}/`,
    ]) {
      const outcome = await deliverCallback(url, BODY, { allowLoopback: false, secret: null });
      expect(outcome.outcome, url).to.equal("refused");
    }
    expect(target.received).to.have.length(0);
  });

  it("refuses a name resolving to a mix of public and private addresses before connecting", async () => {
    const { lookup, calls } = countingLookup([
      [
        { address: "127.0.0.1", family: 4 },
        { address: "192.168.1.20", family: 4 },
      ],
    ]);
    const outcome = await deliverCallback("http://mixed.test:8080/", BODY, { allowLoopback: true, secret: null, lookup });
    expect(outcome).to.deep.equal({ outcome: "refused", reason: REASONS.resolvesPrivate });
    expect(calls).to.deep.equal(["mixed.test"]);
  });

  it("looks the name up once and connects to the checked address (DNS rebinding)", async () => {
    const target = await server((_req, res) => res.writeHead(200).end());
    // First answer is acceptable (loopback, admitted in tests); any second answer would be private.
    const { lookup, calls } = countingLookup([[{ address: "127.0.0.1", family: 4 }], [{ address: "10.0.0.1", family: 4 }]]);
    const outcome = await deliverCallback(`http://rebind.test:${target.port}/cb`, BODY, { allowLoopback: true, secret: null, lookup });
    expect(outcome.outcome).to.equal("delivered");
    expect(calls).to.deep.equal(["rebind.test"]);
    expect(target.received).to.have.length(1);
    expect(target.received[0]?.headers.host).to.equal(`rebind.test:${target.port}`);
  });

  it("reports an unresolvable name as error and counts the failed lookup once", async () => {
    const calls: string[] = [];
    const lookup: HostLookup = async (hostname) => {
      calls.push(hostname);
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const outcome = await deliverCallback("https://gone.test/", BODY, { allowLoopback: true, secret: null, lookup });
    expect(outcome).to.include({ outcome: "error", reason: `${REASONS.unresolvable} (ENOTFOUND)` });
    expect(calls).to.deep.equal(["gone.test"]);
  });

  it("counts a lookup that outlives the budget as timeout", async () => {
    const lookup: HostLookup = () => new Promise(() => undefined);
    const outcome = await deliverCallback("https://hang.test/", BODY, { allowLoopback: true, secret: null, lookup, timeoutMs: 100 });
    expect(outcome.outcome).to.equal("timeout");
  });

  it("over https, connects to the checked address with the original name as SNI and verifies the certificate", async () => {
    const fixtures = new URL("./fixtures/", import.meta.url);
    const seenServerNames: string[] = [];
    const tlsServer = createHttpsServer({
      key: readFileSync(new URL("callback-test.key.pem", fixtures)),
      cert: readFileSync(new URL("callback-test.cert.pem", fixtures)),
      // Called with the ClientHello's server name, before any certificate decision.
      SNICallback: (servername, done) => {
        seenServerNames.push(servername);
        done(null, undefined);
      },
    });
    tlsServer.on("tlsClientError", () => undefined);
    // The certificate is self-signed, so the client must refuse it: that proves the TLS
    // handshake verifies against the original name and that nothing disables verification.
    const port = await listen(tlsServer);
    try {
      const { lookup, calls } = countingLookup([[{ address: "127.0.0.1", family: 4 }]]);
      const outcome = await deliverCallback(`https://callback.test.:${port}/cb`, BODY, { allowLoopback: true, secret: null, lookup });
      expect(outcome.outcome).to.equal("error");
      expect((outcome as { reason: string }).reason).to.match(/self[- ]signed|SELF_SIGNED/i);
      expect(calls).to.deep.equal(["callback.test."]);
    } finally {
      tlsServer.closeAllConnections();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
    expect(seenServerNames).to.deep.equal(["callback.test"]);
  });
});
