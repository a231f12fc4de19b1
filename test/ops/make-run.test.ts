import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.js";
import { freePort } from "../../src/infra/free-port.js";
import { startNatsServer } from "../../src/infra/nats-server.js";
import { portIsFree } from "../../src/infra/port-check.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { connectNats } from "../../src/queue/connection.js";
import { AccountStore } from "../../src/store/accounts.js";
import { descendants, freeApiPort, isAlive, killAll, startMakeRun, type MakeRun } from "../helpers/make-run.js";
import { quietLog } from "../helpers/nats.js";

const READY = /VRP solve service ready at (http:\/\/\S+)/;

/**
 * `make run` itself, as a person starts it in a terminal: its own process group, real
 * nats-server, API and workers, a store in a temporary VAR_DIR, free ports.
 */
describe("make run", function () {
  this.timeout(180_000);
  let varDir: string;
  let run: MakeRun | undefined;
  let seen: number[] = [];
  let blocker: Server | undefined;

  beforeEach(() => {
    varDir = mkdtempSync(join(tmpdir(), "vrp-make-run-"));
    rmSync(varDir, { recursive: true }); // make run creates it; a failed start must not
    seen = [];
  });
  afterEach(async () => {
    killAll(run, seen);
    run = undefined;
    blocker?.close();
    blocker = undefined;
    rmSync(varDir, { recursive: true, force: true });
  });

  async function startReady(env: Record<string, string>): Promise<{ out: string; url: string }> {
    run = startMakeRun({ VAR_DIR: varDir, WORKERS: "2", ...env });
    const out = await run.waitFor(READY);
    seen = descendants(run.pgid);
    return { out, url: READY.exec(out)![1]! };
  }

  it("stops nats-server, the API and every worker when its terminal closes (SIGHUP to the process group)", async () => {
    const port = await freeApiPort();
    const natsPort = await freePort();
    await startReady({ PORT: String(port), NATS_PORT: String(natsPort) });
    // make, dev.js, nats-server, the API and two workers.
    expect(seen.length, `processes under make: ${seen.join(", ")}`).to.be.at.least(5);
    for (const p of [port, natsPort, port + 100, port + 101]) expect(await portIsFree(p), `port ${p} in use while running`).to.equal(false);

    process.kill(-run!.pgid, "SIGHUP");
    await run!.exited;
    const deadline = Date.now() + 30_000;
    while (seen.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(seen.filter(isAlive), "processes left running after SIGHUP").to.deep.equal([]);
    for (const p of [port, natsPort, port + 100, port + 101]) expect(await portIsFree(p), `port ${p} still in use`).to.equal(true);
  });

  async function expectRefusedAtOnce(env: Record<string, string>, message: RegExp, portsThatStayFree: number[]): Promise<void> {
    const r = spawnSync("make", ["-s", "run"], {
      cwd: REPO_ROOT,
      env: { ...process.env, VAR_DIR: varDir, ...env },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, r.stderr).to.not.equal(0);
    const ours = r.stderr.split("\n").filter((l) => l.startsWith("make run:"));
    expect(ours, r.stderr).to.have.length(1);
    expect(ours[0]).to.match(message);
    // No stack trace, no nats-server banner, nothing on stdout, nothing created.
    expect(r.stderr).to.not.match(/^\s+at /m);
    expect(r.stderr + r.stdout).to.not.match(/Starting nats-server|\[INF\]|\[FTL\]/);
    expect(r.stdout).to.equal("");
    expect(existsSync(varDir), "make run created its store before finding the taken port").to.equal(false);
    for (const p of portsThatStayFree) expect(await portIsFree(p), `port ${p} left in use`).to.equal(true);
  }

  async function occupy(port: number): Promise<void> {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(port, "127.0.0.1", resolve));
  }

  it("with PORT taken says so in one line and starts nothing", async () => {
    const port = await freeApiPort();
    const natsPort = await freePort();
    await occupy(port);
    await expectRefusedAtOnce(
      { PORT: String(port), NATS_PORT: String(natsPort) },
      new RegExp(`^make run: port ${port} is in use \\(the API\\); set PORT=\\.\\.\\. to use another, e\\.g\\. PORT=\\d+ make run$`),
      [natsPort, port + 100],
    );
  });

  it("with NATS_PORT taken says so in one line and starts nothing", async () => {
    const port = await freeApiPort();
    const natsPort = await freePort();
    await occupy(natsPort);
    await expectRefusedAtOnce(
      { PORT: String(port), NATS_PORT: String(natsPort) },
      new RegExp(
        `^make run: port ${natsPort} is in use \\(nats-server\\); set ` +
          `NATS_PORT=\\.\\.\\. to use another, e\\.g\\. NATS_PORT=\\d+ make run$`,
      ),
      [port, port + 100],
    );
  });

  it("prints a new demo key when the demo account has none that was shown, and says how to get one after", async () => {
    const port = await freeApiPort();
    const natsPort = await freePort();
    // A store left by a start that was stopped between creating the demo key and printing it.
    const nats = await startNatsServer({ storeDir: join(varDir, "nats"), port: natsPort });
    const conn = await connectNats(loadConfig({ ...process.env, NATS_URL: nats.url }), "test", quietLog);
    const accounts = new AccountStore(conn.accounts, conn.apiKeys);
    await accounts.createAccount("demo", "pro");
    await accounts.createKey("demo");
    await conn.close();
    await nats.stop();

    const env = { PORT: String(port), NATS_PORT: String(natsPort) };
    const first = await startReady(env);
    const key = /X-Api-Key: (vrp_\S+)/.exec(first.out)?.[1];
    expect(key, first.out).to.be.a("string");
    expect(first.out).to.include("Account 'demo' has no key that make run has shown");
    const answer = await fetch(`${first.url}/api/v1/history`, { headers: { "X-User-Name": "demo", "X-Api-Key": key! } });
    expect(answer.status, "the printed key works").to.equal(200);
    process.kill(-run!.pgid, "SIGTERM");
    await run!.exited;

    const second = await startReady(env);
    expect(second.out).to.not.include("X-Api-Key");
    expect(second.out).to.include(
      `Demo account 'demo': lost its key? NATS_URL=nats://127.0.0.1:${natsPort} npx vrpctl key create demo prints a new one`,
    );
    process.kill(-run!.pgid, "SIGINT");
    await run!.exited;
  });
});
