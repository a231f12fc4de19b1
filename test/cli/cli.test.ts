import { expect } from "chai";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { API_KEY_PATTERN } from "../../src/store/api-keys.js";
import { withNats } from "../helpers/nats.js";

const run = promisify(execFile);

async function vrpctl(natsUrl: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/vrpctl.mjs", ...args], { cwd: REPO_ROOT, env: { ...process.env, NATS_URL: natsUrl } });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

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
    expect((await vrpctl(nats.server.url, "account", "create", "zoe", "--plan", "pro")).stdout).to.include("created account 'zoe' on plan 'pro'");
    const created = await vrpctl(nats.server.url, "key", "create", "zoe");
    expect(created.code).to.equal(0);
    const lines = created.stdout.trimEnd().split("\n");
    const key = lines[lines.length - 1]!;
    expect(key).to.match(API_KEY_PATTERN);
    const listed = await vrpctl(nats.server.url, "key", "list", "zoe");
    expect(listed.stdout).to.match(/fingerprint\s+created\s+expires\s+state/);
    expect(listed.stdout).to.include("active");
    expect(listed.stdout).not.to.include(key);
    const fingerprint = listed.stdout.split("\n")[1]!.split(/\s+/)[0]!;
    expect((await vrpctl(nats.server.url, "key", "revoke", "zoe", fingerprint)).stdout).to.include("is now revoked");
  });

  it("vrpctl refuses unknown plans and commands with a usage error", async () => {
    const bad = await vrpctl(nats.server.url, "account", "create", "yan", "--plan", "platinum");
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include("unknown plan 'platinum'");
    const plans = await vrpctl(nats.server.url, "plans");
    expect(plans.stdout).to.match(/free\s+false/);
  });

  it("vrp-solve solves a request file offline and fails cleanly on a bad one", async () => {
    const { stdout } = await run(process.execPath, ["bin/vrp-solve.mjs", "examples/small-cvrp.json", "--time-limit", "1", "--seed", "3"], { cwd: REPO_ROOT });
    const result = JSON.parse(stdout) as { success: boolean; routes: Record<string, number[]>; strategy: string };
    expect(result.success).to.equal(true);
    expect(Object.values(result.routes).flat().filter((n) => n !== 0).sort()).to.deep.equal([1, 2, 3, 4]);
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
});
