import { expect } from "chai";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { cvrpRequest } from "../helpers/requests.js";

const run = promisify(execFile);

/**
 * A benchmark directory in the shared layout (manifest.json plus ready requests under
 * requests/), so the runner is tested the same wherever the clone sits: `../shared/` is beside
 * the repository in CI, not beside a clone made with mktemp.
 */
function sharedLayoutFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "bench-fixture-"));
  mkdirSync(join(dir, "requests", "Tiny"), { recursive: true });
  const request = cvrpRequest({ customers: 12, vehicles: 3, capacity: 40 });
  writeFileSync(join(dir, "requests", "Tiny", "tiny-12.json"), JSON.stringify(request));
  const entry = { name: "tiny-12", set: "Tiny", n_customers: 12, bks: 1000, request: "requests/Tiny/tiny-12.json" };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify([entry]));
  return dir;
}

describe("the solver benchmark runner", function () {
  this.timeout(60_000);
  let benchDir = "";
  before(() => {
    benchDir = sharedLayoutFixture();
  });
  after(() => rmSync(benchDir, { recursive: true, force: true }));

  /** `npm run bench` itself, on the fixture's shared entries and the repository's local ones, with a tiny time limit. */
  async function bench(...args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/run.ts", ...args], { cwd: REPO_ROOT, env: { ...process.env, BENCH_DIR: benchDir } });
    return stdout;
  }

  it("solves a shared set's ready request and prints its row and the set's summary", async () => {
    const out = await bench("--set", "Tiny", "--time", "0.5");
    expect(out).to.match(/\| tiny-12 \| +12 \| +1000 \| +\d+\.\d\d \|/);
    expect(out).to.match(/set Tiny: feasible 1\/1, mean gap -?\d+\.\d\d%/);
  });

  it("converts a local hold-out instance from its raw file", async () => {
    const out = await bench("--set", "X-large", "--limit", "1", "--time", "0.5");
    expect(out).to.match(/set X-large: feasible 1\/1/);
  });
});
