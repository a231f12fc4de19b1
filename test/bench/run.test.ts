import { expect } from "chai";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";

const run = promisify(execFile);

/** `npm run bench` itself: one instance of each kind of manifest entry, with a tiny time limit. */
async function bench(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/run.ts", ...args], { cwd: REPO_ROOT });
  return stdout;
}

describe("the solver benchmark runner", function () {
  this.timeout(60_000);

  it("solves a shared set's ready request and prints its row and the set's summary", async () => {
    const out = await bench("--set", "HFVRP", "--limit", "1", "--time", "0.5");
    expect(out).to.match(/\| X101-FSMFD \| +100 \| +35170\.24 \| +\d+\.\d\d \|/);
    expect(out).to.match(/set HFVRP: feasible 1\/1, mean gap -?\d+\.\d\d%/);
  });

  it("converts a local hold-out instance from its raw file", async () => {
    const out = await bench("--set", "X-large", "--limit", "1", "--time", "0.5");
    expect(out).to.match(/set X-large: feasible 1\/1/);
  });
});
