import { expect } from "chai";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { parseSample, sampleMismatches, shellBlockAfter, walkThroughSteps } from "../helpers/readme-samples.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);
/** The extensions' examples: docs/api-extensions.md, which the README links to. */
const GUIDE = readFileSync(join(REPO_ROOT, "docs/api-extensions.md"), "utf8");
/** The address the examples show (make run's default). */
const GUIDE_BASE_URL = "http://127.0.0.1:8080";

/**
 * The guide's "Reproducible runs" example, taken from docs/api-extensions.md and run as it stands
 * (with its `wait_result` helper) with the real curl and jq against a started service: both runs
 * print the line the guide shows.
 */
describe("the guide's reproducible-runs example", function () {
  this.timeout(180_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1 });
  });
  after(async () => stack?.stop());

  it("prints the guide's line twice: same routes, cost, seed, iterations and strategy", async () => {
    const helper = shellBlockAfter(GUIDE, "## The solve lifecycle beyond v1 (extensions)");
    expect(helper).to.match(/^wait_result\(\) \{/);
    const block = shellBlockAfter(GUIDE, "### Reproducible runs");
    const steps = walkThroughSteps(block);
    const samples = steps.filter((s) => s.kind === "sample").map((s) => parseSample(s.text));
    expect(samples).to.have.length(1);
    const demo = await stack.account("demo", "pro");
    const script = `${helper}\n${block}`.replaceAll(GUIDE_BASE_URL, stack.baseUrl);
    const { stdout } = await run("bash", ["-c", script], {
      cwd: REPO_ROOT,
      env: { ...process.env, VRP_USER: demo.user, VRP_KEY: demo.key },
    });
    const lines = stdout.trim().split("\n");
    expect(lines, stdout).to.have.length(2);
    expect(lines[1], "the two runs differ").to.equal(lines[0]);
    const actual = JSON.parse(lines[0]!) as unknown;
    expect(sampleMismatches(samples[0], actual), `the guide's sample and the service disagree; the service said ${lines[0]}`).to.deep.equal(
      [],
    );
  });
});
