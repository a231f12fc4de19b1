import { expect } from "chai";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { parseSample, sampleMismatches, shellBlockAfter, walkThroughSteps } from "../helpers/readme-samples.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);
const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const README_BASE_URL = "http://127.0.0.1:8080";

/**
 * The README's "Reproducible runs" example, taken from README.md and run as it stands (with its
 * `wait_result` helper) with the real curl and jq against a started service: both runs print the
 * line the README shows.
 */
describe("the README's reproducible-runs example", function () {
  this.timeout(180_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1 });
  });
  after(async () => stack?.stop());

  it("prints the README's line twice: same routes, cost, seed, iterations and strategy", async () => {
    const helper = shellBlockAfter(README, "## The solve lifecycle beyond v1 (extensions)");
    expect(helper).to.match(/^wait_result\(\) \{/);
    const block = shellBlockAfter(README, "### Reproducible runs");
    const steps = walkThroughSteps(block);
    const samples = steps.filter((s) => s.kind === "sample").map((s) => parseSample(s.text));
    expect(samples).to.have.length(1);
    const demo = await stack.account("demo", "pro");
    const script = `${helper}\n${block}`.replaceAll(README_BASE_URL, stack.baseUrl);
    const { stdout } = await run("bash", ["-c", script], { cwd: REPO_ROOT, env: { ...process.env, VRP_USER: demo.user, VRP_KEY: demo.key } });
    const lines = stdout.trim().split("\n");
    expect(lines, stdout).to.have.length(2);
    expect(lines[1], "the two runs differ").to.equal(lines[0]);
    const actual = JSON.parse(lines[0]!) as unknown;
    expect(sampleMismatches(samples[0], actual), `the README's sample and the service disagree; the service said ${lines[0]}`).to.deep.equal([]);
  });
});
