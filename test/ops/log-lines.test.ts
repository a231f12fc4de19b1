import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/infra/free-port.js";
import { spawnService, type ServiceProcess } from "../../src/infra/service-process.js";
import { withNats } from "../helpers/nats.js";

/**
 * The log files `make run` writes (var/log/api.log, worker-N.log) are each process's stdout and
 * stderr, written by the same spawnService: every line must be one JSON object, the ready line
 * the parent waits for included, whatever LOG_LEVEL says.
 */
describe("log files", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let dir: string;
  const started: ServiceProcess[] = [];

  before(async () => {
    nats = await withNats();
    dir = mkdtempSync(join(tmpdir(), "vrp-logs-"));
  });
  after(async () => {
    for (const p of started) p.signal("SIGKILL");
    await Promise.all(started.map((p) => p.exited()));
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("holds one JSON object per line, the ready line included, at any LOG_LEVEL", async () => {
    const env = { ...process.env, NATS_URL: nats.server.url, PORT: String(await freePort()) };
    const api = await spawnService("api", { ...env, LOG_LEVEL: "info" }, join(dir, "api.log"));
    started.push(api);
    const worker = await spawnService("worker", { ...env, LOG_LEVEL: "error" }, join(dir, "worker-1.log"));
    started.push(worker);
    expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
    expect((await fetch(`${api.url}/api/v1/solve`, { method: "POST", body: "{" })).status).to.equal(401);
    for (const p of [api, worker]) {
      p.signal("SIGTERM");
      expect(await p.exited()).to.equal(0);
    }

    for (const [file, service, url] of [
      ["api.log", "vrp-api", api.url],
      ["worker-1.log", "vrp-worker", worker.url],
    ] as const) {
      const lines = readFileSync(join(dir, file), "utf8")
        .split("\n")
        .filter((l) => l !== "");
      expect(lines.length, file).to.be.greaterThan(0);
      const entries = lines.map((line) => {
        let entry: unknown;
        expect(() => (entry = JSON.parse(line)), `${file}: ${line}`).not.to.throw();
        expect(entry, `${file}: ${line}`).to.be.an("object").that.includes.keys("time", "level", "msg", "service");
        return entry as { msg: string; service: string; url?: string };
      });
      expect(
        entries.filter((e) => e.msg === "ready").map((e) => [e.service, e.url]),
        file,
      ).to.deep.equal([[service, url]]);
    }
  });
});
