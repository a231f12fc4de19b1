import { expect } from "chai";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import { main as vrpSolveMain } from "../../src/cli/vrp-solve.js";
import { runMainHere } from "../helpers/cli-here.js";

const run = promisify(execFile);

/** vrp-solve's answer to a pinned strategy: the registry's names, and a strategy's own refusal. */
async function vrpSolve(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/vrp-solve.mjs", ...args], { cwd: REPO_ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The same answer from vrp-solve's entry point in this process (test/helpers/cli-here.ts). Not for
 * the list of names: a test file run before this one in the same mocha worker may have registered
 * strategies of its own.
 */
const vrpSolveHere = (args: string[]) => runMainHere(vrpSolveMain, args);
const example = join(REPO_ROOT, "examples/small-cvrp.json");

describe("vrp-solve --strategy", function () {
  this.timeout(60_000);

  it("refuses an unknown name with the validation envelope listing the available names", async () => {
    const { code, stdout } = await vrpSolve(["examples/small-cvrp.json", "--strategy", "nearest-neighbour"]);
    expect(code).to.equal(1);
    const envelope = JSON.parse(stdout) as { code: string; detail: { loc: string[]; msg: string }[] };
    expect(envelope.code).to.equal("validation_failed");
    expect(envelope.detail).to.deep.equal([
      {
        loc: ["body", "strategy"],
        msg: "unknown strategy 'nearest-neighbour'; available: clarke-wright, sweep, alns, hgs, large, exact",
        type: "unknown_strategy",
      },
    ]);
  });

  it("answers strategy_declined with the strategy's reason when the pinned strategy does not take the problem", async () => {
    // small-cvrp gives a distance matrix only; sweep needs node_positions.
    const { code, stdout } = await vrpSolveHere([example, "--strategy", "sweep"]);
    expect(code).to.equal(1);
    expect(JSON.parse(stdout)).to.include({
      success: false,
      code: "strategy_declined",
      error: "Strategy 'sweep' declined this request: the sweep strategy needs node_positions (coordinates)",
    });
  });

  it("stops with the module's error when a STRATEGY_MODULES entry cannot be loaded", async () => {
    const { code, stderr } = await vrpSolve(["examples/small-cvrp.json"], { ...process.env, STRATEGY_MODULES: "./no/such/strategy" });
    expect(code).to.equal(2);
    expect(stderr).to.match(/^vrp-solve: strategy module '.\/no\/such\/strategy': no such file or folder/);
  });
});
