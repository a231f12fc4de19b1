import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { startNatsServer, type NatsServerProcess } from "../../src/infra/nats-server.js";
import { coalesceWrites } from "../../src/queue/coalesced-writes.js";

/** Counts the socket writes of a connection (its transport's sends). */
function countSends(nc: NatsConnection): () => number {
  const transport = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol.transport;
  const send = transport.send.bind(transport);
  let sends = 0;
  transport.send = (frame) => {
    sends++;
    send(frame);
  };
  return () => sends;
}

/**
 * Publishes `count` messages to `prefix.<i>`, each from its own callback of one turn of the loop
 * (as from separate I/O events); resolves on the turn after.
 */
function publishFromSeparateCallbacks(nc: NatsConnection, prefix: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    for (let i = 0; i < count; i++) setImmediate(() => nc.publish(`${prefix}.${i}`, String(i)));
    setImmediate(() => setImmediate(resolve));
  });
}

describe("NATS writes coalesced per turn of the event loop", function () {
  this.timeout(30_000);
  let server: NatsServerProcess;
  let dir: string;
  const connections: NatsConnection[] = [];
  const open = async () => {
    const nc = await connect({ servers: server.url });
    connections.push(nc);
    return nc;
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "vrp-coalesce-"));
    server = await startNatsServer({ storeDir: dir });
  });
  after(async () => {
    await Promise.all(connections.map((nc) => nc.close().catch(() => undefined)));
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends messages queued by separate callbacks in one write, in order, where the client alone sends one each", async () => {
    const receiver = await open();
    const got: string[] = [];
    receiver.subscribe("c.>", { callback: (_err, m) => void got.push(m.subject) });
    await receiver.flush();

    const plain = await open();
    const plainSends = countSends(plain);
    await publishFromSeparateCallbacks(plain, "c.plain", 20);
    expect(plainSends(), "the client's own behaviour: a write per callback").to.equal(20);

    const coalesced = await open();
    expect(coalesceWrites(coalesced)).to.equal(true);
    const sends = countSends(coalesced);
    await publishFromSeparateCallbacks(coalesced, "c.coalesced", 20);
    expect(sends(), "one write for the turn").to.equal(1);

    await Promise.all([plain.flush(), coalesced.flush()]);
    await receiver.flush();
    const subjects = (prefix: string) => got.filter((s) => s.startsWith(prefix));
    const expected = (prefix: string) => Array.from({ length: 20 }, (_, i) => `${prefix}.${i}`);
    expect(subjects("c.coalesced."), "every message arrives, in the order sent").to.deep.equal(expected("c.coalesced"));
    expect(subjects("c.plain.")).to.deep.equal(expected("c.plain"));
  });

  it("answers requests and flushes as before", async () => {
    const responder = await open();
    responder.subscribe("echo", { callback: (_err, m) => void m.respond(m.data) });
    await responder.flush();
    const nc = await open();
    expect(coalesceWrites(nc)).to.equal(true);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => nc.request("echo", String(i), { timeout: 5_000 })));
    expect(answers.map((m) => m.string())).to.deep.equal(Array.from({ length: 10 }, (_, i) => String(i)));
    await nc.flush();
  });

  it("leaves a connection alone when the client's internals are not the expected ones", () => {
    const unlike = { protocol: { sendCommand: () => undefined } } as unknown as NatsConnection;
    expect(coalesceWrites(unlike)).to.equal(false);
  });
});
