import { expect } from "chai";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { deliverCallback } from "../../src/callbacks/deliver.js";
import { generateWebhookSecret, signWebhook, verifyWebhook } from "../../src/callbacks/signature.js";
import { checkCallbackUrl, resolveCallbackTarget } from "../../src/callbacks/target-guard.js";

const strict = { allowLoopback: false };
const dev = { allowLoopback: true };

describe("callback target guard", () => {
  const refused = [
    "http://localhost/hook", "http://LOCALHOST./hook", "http://api.localhost/hook", "http://127.0.0.1/", "http://127.1/", "http://0177.0.0.1/",
    "http://0x7f.0.0.1/", "http://0x7f000001/", "http://2130706433/", "http://127.0.0.1./", "http://[::1]/", "http://[::]/", "http://0.0.0.0/",
    "http://10.0.0.1/", "http://10.255.255.255/", "http://172.16.0.1/", "http://172.31.255.1/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/", "http://100.127.255.254/", "http://224.0.0.1/", "http://239.255.255.250/", "http://240.0.0.1/", "http://255.255.255.255/",
    "http://198.18.0.1/", "http://192.0.2.1/", "http://198.51.100.7/", "http://203.0.113.9/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
    "http://[::ffff:10.0.0.1]/", "http://[fc00::1]/", "http://[fd12:3456::1]/", "http://[fe80::1]/", "http://[fec0::1]/", "http://[ff02::1]/",
    "http://[2001:db8::1]/", "http://[64:ff9b::a00:1]/", "http://[2002:7f00:1::]/", "http://[::127.0.0.1]/",
    "ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "http://user:pw@example.com/", "http://user@example.com/",
    "not a url", `https://example.com/${"a".repeat(2048)}`,
  ];
  const accepted = ["https://example.com/hooks/vrp", "http://93.184.216.34/cb", "https://[2606:2800:220:1::]/cb", "HTTPS://Partner.Example.COM:8443/x?y=1", "http://8.8.8.8./"];

  for (const url of refused) it(`refuses ${url.slice(0, 60)}`, () => expect(checkCallbackUrl(url, strict)).to.be.a("string"));
  for (const url of accepted) it(`accepts ${url}`, () => expect(checkCallbackUrl(url, strict)).to.equal(null));

  it("admits loopback only with the development allowlist, and never private ranges", () => {
    expect(checkCallbackUrl("http://127.0.0.1:9/x", dev)).to.equal(null);
    expect(checkCallbackUrl("http://localhost:9/x", dev)).to.equal(null);
    expect(checkCallbackUrl("http://[::1]:9/x", dev)).to.equal(null);
    expect(checkCallbackUrl("http://10.0.0.1/x", dev)).to.be.a("string");
  });

  it("refuses a name when any of its addresses is not public, after one lookup only", async () => {
    let lookups = 0;
    const lookup = async () => {
      lookups++;
      return [{ address: "93.184.216.34", family: 4 }, { address: "10.1.2.3", family: 4 }];
    };
    const result = await resolveCallbackTarget("https://rebind.example/cb", { ...strict, lookup });
    expect(result.ok).to.equal(false);
    expect(lookups).to.equal(1);
    const single = await resolveCallbackTarget("https://fine.example/cb", { ...strict, lookup: async () => [{ address: "93.184.216.34", family: 4 }] });
    expect(single).to.include({ ok: true, address: "93.184.216.34", family: 4 });
  });
});

describe("callback delivery", function () {
  this.timeout(20_000);
  let server: Server;
  let port: number;
  const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
  let mode: "ok" | "redirect" | "hang" | "error" = "ok";

  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        if (mode === "ok") res.writeHead(204).end();
        else if (mode === "redirect") res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
        else if (mode === "error") res.writeHead(500).end("boom");
        // "hang": never answer
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("delivers once with a Standard Webhooks signature that verifies", async () => {
    received.length = 0;
    mode = "ok";
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ success: true, request_id: "r" });
    const outcome = await deliverCallback(`http://127.0.0.1:${port}/hook`, body, { ...dev, secret });
    expect(outcome).to.include({ outcome: "delivered", status: 204 });
    expect(received).to.have.length(1);
    const h = received[0]!.headers as Record<string, string>;
    expect(received[0]!.body).to.equal(body);
    expect(h["webhook-signature"]).to.match(/^v1,/);
    expect(verifyWebhook(secret, h, body)).to.equal(true);
    expect(verifyWebhook(secret, h, body + " ")).to.equal(false);
    expect(verifyWebhook(generateWebhookSecret(), h, body)).to.equal(false);
    expect(verifyWebhook(secret, h, body, 300, Number(h["webhook-timestamp"]) + 301)).to.equal(false);
  });

  it("signs '<id>.<timestamp>.<body>' with the base64-decoded key (Standard Webhooks test vector)", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const sig = signWebhook(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(sig).to.equal("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("does not follow redirects, reports HTTP errors, timeouts and refused connections", async () => {
    mode = "redirect";
    received.length = 0;
    expect(await deliverCallback(`http://127.0.0.1:${port}/r`, "{}", { ...dev, secret: null })).to.include({ outcome: "http_error", status: 302 });
    expect(received).to.have.length(1);
    mode = "error";
    expect(await deliverCallback(`http://127.0.0.1:${port}/e`, "{}", { ...dev, secret: null })).to.include({ outcome: "http_error", status: 500 });
    mode = "hang";
    expect((await deliverCallback(`http://127.0.0.1:${port}/h`, "{}", { ...dev, secret: null, timeoutMs: 300 })).outcome).to.equal("timeout");
    const closed = await deliverCallback("http://127.0.0.1:1/x", "{}", { ...dev, secret: null });
    expect(closed.outcome).to.equal("error");
  });

  it("refuses loopback without the allowlist, before any connection", async () => {
    received.length = 0;
    mode = "ok";
    const outcome = await deliverCallback(`http://127.0.0.1:${port}/hook`, "{}", { ...strict, secret: null });
    expect(outcome.outcome).to.equal("refused");
    expect(received).to.have.length(0);
  });

  it("connects to the checked address, never resolving the name a second time", async () => {
    received.length = 0;
    mode = "ok";
    let lookups = 0;
    const lookup = async () => {
      lookups++;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const outcome = await deliverCallback(`http://partner.test:${port}/hook`, "{}", { ...dev, secret: null, lookup });
    expect(outcome.outcome).to.equal("delivered");
    expect(lookups).to.equal(1);
    expect(received[0]!.headers.host).to.equal(`partner.test:${port}`);
  });
});
