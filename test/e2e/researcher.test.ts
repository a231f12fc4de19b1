import { expect } from "chai";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);
const NAME = "nearest-neighbour";

/**
 * A researcher's path, as README and docs/strategies.md tell it: copy the strategy template out of
 * the repository, install and test it there, point STRATEGY_MODULES at it, and the service, the
 * CLI, the conformance kit and the bench all run it. Nothing inside the repository is edited.
 */
describe("a researcher plugs in a strategy from a copy of the template", function () {
  this.timeout(180_000);
  let copy: string;
  let stack: Stack;
  let client: ApiClient;
  const env = () => ({ ...process.env, STRATEGY_MODULES: copy });

  before(async () => {
    copy = join(mkdtempSync(join(tmpdir(), "researcher-")), "my-strategy");
    cpSync(join(REPO_ROOT, "examples/strategy-template"), copy, { recursive: true, filter: (src) => !src.includes("node_modules") });
  });
  after(async () => {
    await stack?.stop();
    if (copy) rmSync(join(copy, ".."), { recursive: true, force: true });
  });

  it("installs and passes its own tests outside the repository (npm install, npm test)", async () => {
    // No dependencies: npm install must not need the registry.
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund"], { cwd: copy });
    const { stdout } = await run("npm", ["test"], { cwd: copy });
    expect(stdout)
      .to.match(/\bfail 0\b/)
      .and.match(/\bpass [1-9]/);
  });

  it("is listed by GET /api/v1/strategies and solves a request pinned to it", async () => {
    stack = await startStack({ workers: 1, env: { STRATEGY_MODULES: copy } });
    client = apiClient(stack.baseUrl, (await stack.account("researcher")).headers);
    const { data } = await client.GET("/api/v1/strategies");
    expect(data!.result).to.deep.include({
      name: NAME,
      kind: "construction",
      supports: ["capacities", "distance_matrix", "multiple_depots", "mixed_fleet", "min_vehicles"],
    });
    const request = { ...cvrpRequest({ customers: 12, vehicles: 3, capacity: 30, seed: 5 }), strategy: NAME, time_limit_seconds: 2 };
    const submitted = await client.POST("/api/v1/solve", { body: request as never });
    const solved = await pollUntil(client, submitted.data!.request_id, isFinished);
    expect(solved.success, JSON.stringify(solved)).to.equal(true);
    expect((solved.result as { strategy: string }).strategy).to.equal(NAME);
    checkDistanceResult(request, solved.result as Parameters<typeof checkDistanceResult>[1]);
  });

  it("declines through the service what it does not claim, with its own reason", async () => {
    const request = { ...cvrpRequest({ customers: 4, vehicles: 2, capacity: 30 }), strategy: NAME, time_limit_seconds: 2 };
    Object.assign(request, {
      node_time_windows: Array.from({ length: 5 }, () => [0, 500]),
      node_service_time: [0, 5, 5, 5, 5],
      vehicle_speeds: [1, 1],
    });
    const submitted = await client.POST("/api/v1/solve", { body: request as never });
    const failed = await pollUntil(client, submitted.data!.request_id, isFinished);
    expect(failed).to.deep.include({
      success: false,
      code: "strategy_declined",
      error: `Strategy '${NAME}' declined this request: nearest-neighbour ignores time windows`,
    });
  });

  it("solves with vrp-solve FILE --strategy NAME", async () => {
    const { stdout } = await run(
      process.execPath,
      ["bin/vrp-solve.mjs", "examples/small-cvrp.json", "--strategy", NAME, "--time-limit", "1"],
      { cwd: REPO_ROOT, env: env() },
    );
    const result = JSON.parse(stdout) as { success: boolean; strategy: string };
    expect(result).to.include({ success: true, strategy: NAME });
    const request = JSON.parse(readFileSync(join(REPO_ROOT, "examples/small-cvrp.json"), "utf8")) as Parameters<
      typeof checkDistanceResult
    >[0];
    checkDistanceResult(request, result as unknown as Parameters<typeof checkDistanceResult>[1]);
  });

  it("passes the conformance kit (npm run conformance -- FOLDER)", async () => {
    const { stdout } = await run("npm", ["run", "-s", "conformance", "--", copy], { cwd: REPO_ROOT });
    expect(stdout).to.include(`${NAME} (construction; claims capacities, distance_matrix, multiple_depots, mixed_fleet, min_vehicles)`);
    expect(stdout).to.match(/\n {2}PASS {2}feature capacities /);
    expect(stdout.trim().split("\n").pop()).to.equal("conformance: every check passed");
  });

  it("runs side by side with hgs in the bench (npm run bench -- --set A --strategies hgs,NAME --time 1)", async function () {
    this.timeout(240_000);
    // The bench's --strategies option comes with the bench's own work; until it is there this
    // step is reported as pending, never passed.
    if (!readFileSync(join(REPO_ROOT, "bench/run.ts"), "utf8").includes("--strategies")) this.skip();
    // Set A lives in the benchmark folder, which a fresh clone does not have: then this optional
    // step is pending, and says why.
    const benchDir = process.env.BENCH_DIR ?? join(REPO_ROOT, "../shared/benchmarks");
    if (!existsSync(join(benchDir, "manifest.json"))) {
      console.log(`      (skipped: no benchmark folder at ${benchDir}; set BENCH_DIR to run the bench step)`);
      this.skip();
    }
    // The researcher's command, on the set's first three instances to keep the suite short.
    const args = ["run", "-s", "bench", "--", "--set", "A", "--strategies", `hgs,${NAME}`, "--time", "1", "--limit", "3"];
    const { stdout } = await run("npm", args, { cwd: REPO_ROOT, env: { ...env(), BENCH_DIR: benchDir }, maxBuffer: 16 << 20 });
    // One table, a gap column per strategy.
    expect(stdout).to.include("hgs gap %").and.include(`${NAME} gap %`);
  });
});
