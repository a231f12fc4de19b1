import { expect } from "chai";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { freePort } from "../../src/infra/free-port.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { API_KEY_PATTERN } from "../../src/store/api-keys.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountStore } from "../../src/store/accounts.js";
import { main as vrpctlMain } from "../../src/cli/vrpctl.js";
import { main as vrpSolveMain } from "../../src/cli/vrp-solve.js";
import { runMainHere } from "../helpers/cli-here.js";
import { withNats } from "../helpers/nats.js";

const run = promisify(execFile);
const execFileSyncText = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");

/** bin/vrpctl.mjs in a process of its own, as a person runs it. */
async function vrpctlBinary(natsUrl: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/vrpctl.mjs", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NATS_URL: natsUrl },
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/** vrpctl's entry point in this process (test/helpers/cli-here.ts), as bin/vrpctl.mjs runs it. */
const vrpctlHere = (natsUrl: string, ...args: string[]) => runMainHere(vrpctlMain, args, { NATS_URL: natsUrl });

/** vrp-solve's entry point in this process, as bin/vrp-solve.mjs runs it. */
const vrpSolveHere = (...args: string[]) => runMainHere(vrpSolveMain, args);

describe("command-line tools", function () {
  this.timeout(90_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await nats?.stop();
  });

  it("vrpctl creates an account and prints a new key alone on the last line, then lists it without the key", async () => {
    expect((await vrpctlHere(nats.server.url, "account", "create", "zoe", "--plan", "pro")).stdout).to.include(
      "created account 'zoe' on plan 'pro'",
    );
    const created = await vrpctlBinary(nats.server.url, "key", "create", "zoe");
    expect(created.code).to.equal(0);
    const lines = created.stdout.trimEnd().split("\n");
    const key = lines[lines.length - 1]!;
    expect(key).to.match(API_KEY_PATTERN);
    const listed = await vrpctlHere(nats.server.url, "key", "list", "zoe");
    expect(listed.stdout).to.match(/fingerprint\s+created\s+expires\s+state/);
    expect(listed.stdout).to.include("active");
    expect(listed.stdout).not.to.include(key);
    const fingerprint = listed.stdout.split("\n")[1]!.split(/\s+/)[0]!;
    expect((await vrpctlHere(nats.server.url, "key", "revoke", "zoe", fingerprint)).stdout).to.include("is now revoked");
  });

  it("vrpctl account create without --plan uses the plans file's default plan, says so, and its usage shows --plan optional", async () => {
    const made = await vrpctlHere(nats.server.url, "account", "create", "ida");
    expect(made.code).to.equal(0);
    expect(made.stdout).to.include("created account 'ida' on plan 'starter' (the default plan; choose one with --plan <plan>)");
    const usage = await vrpctlBinary(nats.server.url, "--help");
    expect(usage.stdout).to.include("vrpctl account create <user> [--plan <plan>]");
  });

  it("vrp-solve --help prints the usage on stdout and exits 0; a wrong command line exits 2 with the usage on stderr", async () => {
    for (const flag of ["--help", "-h"]) {
      const { stdout, stderr } = await run(process.execPath, ["bin/vrp-solve.mjs", flag], { cwd: REPO_ROOT });
      expect(stdout).to.match(/^usage: vrp-solve /);
      expect(stderr).to.equal("");
    }
    const wrong = await run(process.execPath, ["bin/vrp-solve.mjs", "--seed"], { cwd: REPO_ROOT }).then(
      () => ({ code: 0, stderr: "" }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(wrong.code).to.equal(2);
    expect(wrong.stderr).to.match(/^vrp-solve: --seed needs a value\nusage: vrp-solve /);
  });

  it("vrpctl refuses unknown plans and commands with a usage error", async () => {
    const bad = await vrpctlBinary(nats.server.url, "account", "create", "yan", "--plan", "platinum");
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include("unknown plan 'platinum'");
    const plans = await vrpctlHere(nats.server.url, "plans");
    expect(plans.stdout).to.match(/free\s+false/);
  });

  it("vrpctl changes plans, disables accounts and keys, sets expiries, shows usage, history and a webhook secret", async () => {
    const url = nats.server.url;
    const conn = await nats.connect();
    const store = new AccountStore(conn.accounts, conn.apiKeys);
    expect((await vrpctlHere(url, "account", "create", "max", "--plan", "starter")).code).to.equal(0);
    const first = (await vrpctlHere(url, "key", "create", "max")).stdout.trimEnd().split("\n").pop()!;
    expect(await store.authenticate("max", first)).to.not.equal(null);

    expect((await vrpctlHere(url, "account", "plan", "max", "enterprise")).code).to.equal(0);
    expect((await store.getAccount("max"))!.plan).to.equal("enterprise");
    expect((await vrpctlHere(url, "account", "plan", "max", "platinum")).code).to.equal(2);

    const expiring = await vrpctlHere(url, "key", "create", "max", "--expires", "30d");
    const second = expiring.stdout.trimEnd().split("\n").pop()!;
    expect(second).to.match(API_KEY_PATTERN);
    const inThirtyDays = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const listed = (await vrpctlHere(url, "key", "list", "max")).stdout;
    expect(listed).to.include(inThirtyDays);
    expect(listed).not.to.include(first);
    expect(listed).not.to.include(second);

    const secondFingerprint = listed
      .split("\n")
      .find((l) => l.includes(inThirtyDays))!
      .split(/\s+/)[0]!;
    expect((await vrpctlHere(url, "key", "disable", "max", secondFingerprint)).stdout).to.include("is now disabled");
    expect(await store.authenticate("max", second)).to.equal(null);
    expect(await store.authenticate("max", first)).to.not.equal(null);

    expect((await vrpctlHere(url, "account", "disable", "max")).stdout).to.include("disabled");
    expect(await store.authenticate("max", first)).to.equal(null);
    expect((await vrpctlHere(url, "account", "enable", "max")).code).to.equal(0);
    expect(await store.authenticate("max", first)).to.not.equal(null);

    const usage = await vrpctlHere(url, "usage", "max");
    expect(usage.stdout).to.match(/this minute: 0 of 1200 submissions/);
    expect(usage.stdout).to.match(/this month: +0 of 2000000 tasks/);
    expect((await vrpctlHere(url, "history", "max")).stdout.trim()).to.equal("(none)");

    const hook = await vrpctlHere(url, "webhook-secret", "max");
    const secret = hook.stdout.trimEnd().split("\n").pop()!;
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect((await store.getAccount("max"))!.webhookSecret).to.equal(secret);
  });

  it("vrpctl fails within seconds, naming the NATS URL it tried and NATS_URL, when NATS cannot be reached", async () => {
    const nowhere = `nats://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    const result = await run(process.execPath, ["bin/vrpctl.mjs", "accounts"], {
      cwd: REPO_ROOT,
      env: { ...process.env, NATS_URL: nowhere },
      timeout: 20_000,
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number | null; stderr: string }) => e,
    );
    expect(Date.now() - started, "seconds, not a wait for ever").to.be.below(10_000);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include(`cannot reach NATS at ${nowhere}`).and.include("NATS_URL=nats://");
  });

  it("vrpctl refuses an expiry in the past and lists expired keys as expired", async () => {
    const url = nats.server.url;
    expect((await vrpctlHere(url, "account", "create", "eve", "--plan", "pro")).code).to.equal(0);
    for (const past of ["2020-01-01", new Date(Date.now() - 60_000).toISOString(), "0d"]) {
      const refused = await vrpctlHere(url, "key", "create", "eve", "--expires", past);
      expect(refused.code, past).to.equal(2);
      expect(refused.stderr, past).to.include("--expires must be in the future");
    }
    expect((await vrpctlHere(url, "key", "list", "eve")).stdout.trim()).to.equal("(none)");
    // A key whose expiry has passed (the store itself does not refuse one, so no wait is needed).
    const conn = await nats.connect();
    const store = new AccountStore(conn.accounts, conn.apiKeys);
    const lapsed = await store.createKey("eve", new Date(Date.now() - 1000));
    expect((await vrpctlHere(url, "key", "create", "eve", "--expires", "7d")).code).to.equal(0);
    const listed = (await vrpctlHere(url, "key", "list", "eve")).stdout.split("\n");
    const stateOf = (fingerprint: string) =>
      listed
        .find((l) => l.startsWith(fingerprint))!
        .split(/\s+/)
        .pop();
    expect(stateOf(lapsed.record.fingerprint)).to.equal("expired");
    expect(listed.filter((l) => / active$/.test(l))).to.have.length(1);
  });

  it("vrp-solve solves a request file offline and fails cleanly on a bad one", async () => {
    const { stdout } = await run(process.execPath, ["bin/vrp-solve.mjs", "examples/small-cvrp.json", "--time-limit", "1", "--seed", "3"], {
      cwd: REPO_ROOT,
    });
    const result = JSON.parse(stdout) as { success: boolean; routes: Record<string, number[]>; strategy: string };
    expect(result.success).to.equal(true);
    expect(
      Object.values(result.routes)
        .flat()
        .filter((n) => n !== 0)
        .sort(),
    ).to.deep.equal([1, 2, 3, 4]);
    const pending = run(process.execPath, ["bin/vrp-solve.mjs", "-"], { cwd: REPO_ROOT });
    pending.child.stdin!.end('{"node_num": 3,');
    const failure = await pending.then(
      () => null,
      (e: { stdout: string; code: number }) => e,
    );
    expect(failure).to.not.equal(null);
    expect(failure!.code).to.equal(1);
    expect(JSON.parse(failure!.stdout)).to.include({ success: false, code: "malformed_json" });
  });

  // Two seeds here; seeds 1-6 go through the service
  // in test/e2e/pipeline.test.ts and through solveRequest's strategy in test/strategies/feasibility.test.ts.
  it("vrp-solve solves examples/small-cvrp.json with every distance x 100,000 (seeds 1 and 6; scale-free prices)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vrp-cli-"));
    try {
      const example = JSON.parse(execFileSyncText("examples/small-cvrp.json")) as { distance_matrix: number[][] };
      const file = join(dir, "scaled.json");
      writeFileSync(
        file,
        JSON.stringify({ ...example, distance_matrix: example.distance_matrix.map((row) => row.map((d) => d * 100_000)) }),
      );
      const costs: number[] = [];
      for (const seed of [1, 6]) {
        const { stdout } = await vrpSolveHere(file, "--time-limit", "2", "--seed", String(seed));
        costs.push((JSON.parse(stdout) as { total_cost: number }).total_cost);
      }
      expect(costs).to.deep.equal([7e6, 7e6]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("vrp-solve honours --strategy, validates like the service, and prints the failure envelope for an infeasible request", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vrp-cli-"));
    try {
      const example = join(REPO_ROOT, "examples/small-cvrp.json");
      const { stdout } = await vrpSolveHere(example, "--time-limit", "1", "--strategy", "clarke-wright");
      expect((JSON.parse(stdout) as { strategy: string }).strategy).to.equal("clarke-wright");

      const request = JSON.parse(execFileSyncText("examples/small-cvrp.json")) as Record<string, unknown> & { node_demands: number[] };
      const outcome = async (body: unknown) => {
        const file = join(dir, "request.json");
        writeFileSync(file, JSON.stringify(body));
        const { code, stdout: answer } = await vrpSolveHere(file, "--time-limit", "1");
        return { code, body: code === 0 ? ({} as Record<string, unknown>) : (JSON.parse(answer) as Record<string, unknown>) };
      };
      for (const [body, msg] of [
        [{ ...request, time_limit_seconds: 0 }, "time_limit_seconds must be a positive integer"],
        [{ ...request, node_demands: [3, 4, 3, 5, 2] }, "Depot/start/end node 0 demand must be 0 (got 3)"],
      ] as const) {
        const invalid = await outcome(body);
        expect(invalid.code).to.equal(1);
        expect(invalid.body).to.include({ success: false, error: "Validation failed" });
        expect((invalid.body.detail as { msg: string }[]).map((d) => d.msg)).to.include(msg);
      }

      const infeasible = await outcome({ ...request, node_demands: [0, 4, 3, 9, 2] });
      expect(infeasible.code).to.equal(1);
      expect(infeasible.body).to.include({ success: false, code: "no_feasible_solution", result: null });
      expect(infeasible.body.error)
        .to.be.a("string")
        .and.match(/[a-z]{3,} /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
