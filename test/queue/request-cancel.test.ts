import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, errors, type NatsConnection } from "@nats-io/transport-node";
import { RequestError, RequestOne } from "@nats-io/transport-node/lib/nats-base-client.js";
import { startNatsServer, type NatsServerProcess } from "../../src/infra/nats-server.js";
import { shareCancelledError } from "../../src/queue/request-cancel.js";

/** A request as RequestOne.cancel sees it, recording what it does. */
function fakeRequest() {
  const seen = { timerCancelled: 0, muxCancelled: 0, rejected: [] as unknown[] };
  const request = {
    timer: { cancel: () => void seen.timerCancelled++ },
    mux: { cancel: () => void seen.muxCancelled++ },
    deferred: { reject: (err: unknown) => void seen.rejected.push(err) },
  };
  return { request, seen };
}

describe("answered NATS requests build no error", function () {
  this.timeout(30_000);
  let server: NatsServerProcess;
  let dir: string;
  let nc: NatsConnection;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "vrp-request-cancel-"));
    server = await startNatsServer({ storeDir: dir });
    nc = await connect({ servers: server.url, noAsyncTraces: true });
    nc.subscribe("echo", { callback: (_err, m) => void m.respond(m.data) });
    await nc.flush();
  });
  after(async () => {
    await nc?.close();
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers requests as before, and their failures keep their own errors", async () => {
    expect(shareCancelledError()).to.equal(true);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => nc.request("echo", String(i), { timeout: 5_000 })));
    expect(answers.map((m) => m.string())).to.deep.equal(["0", "1", "2", "3", "4"]);
    const noOne = await nc.request("nobody.listens", "x", { timeout: 5_000 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(noOne).to.be.instanceOf(RequestError);
    expect((noOne as RequestError).isNoResponders(), "no responders, as before").to.equal(true);
    nc.subscribe("silent", { callback: () => undefined });
    const late = await nc.request("silent", "x", { timeout: 50 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(late, "a timeout, as before").to.be.instanceOf(errors.TimeoutError);
  });

  it("cancels an answered request without building an error: one shared error, the cause kept when there is one", () => {
    expect(shareCancelledError()).to.equal(true);
    const cancel = (RequestOne.prototype as unknown as { cancel(this: unknown, err?: Error): void }).cancel;
    const { request, seen } = fakeRequest();
    cancel.call(request);
    cancel.call(request);
    const cause = new Error("connection closed");
    cancel.call(request, cause);
    expect(seen.timerCancelled).to.equal(3);
    expect(seen.muxCancelled).to.equal(3);
    expect(seen.rejected[0]).to.be.instanceOf(RequestError);
    expect((seen.rejected[0] as Error).message).to.equal("cancelled");
    expect(seen.rejected[1], "the same error, not a new one per request").to.equal(seen.rejected[0]);
    expect(seen.rejected[2]).to.equal(cause);
  });
});
