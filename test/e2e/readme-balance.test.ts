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
const HEADING = "## Balanced workloads (extensions)";

/**
 * The guide's balanced workloads example (one van for all stops, then two vans of two stops each
 * under a price per stop of the busiest van), taken from docs/api-extensions.md and run as it
 * stands with the real curl and jq against a started service: every line printed is the line the
 * guide shows under its command.
 */
describe("the guide's balanced workloads example", function () {
  this.timeout(180_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1 });
  });
  after(async () => stack?.stop());

  it("prints, for every step, the guide's line", async () => {
    const helper = shellBlockAfter(GUIDE, "## The solve lifecycle beyond v1 (extensions)");
    expect(helper).to.match(/^wait_result\(\) \{/);
    const block = shellBlockAfter(GUIDE, HEADING);
    const samples = walkThroughSteps(block).filter((s) => s.kind === "sample");
    expect(samples, "one sample per step").to.have.length(2);
    const demo = await stack.account("demo", "pro");
    const script = `set -e\n${helper}\n${block}`.replaceAll(GUIDE_BASE_URL, stack.baseUrl);
    const { stdout } = await run("bash", ["-c", script], {
      cwd: REPO_ROOT,
      env: { ...process.env, VRP_USER: demo.user, VRP_KEY: demo.key },
    });
    const lines = stdout.trim().split("\n");
    expect(lines, stdout).to.have.length(samples.length);
    samples.forEach((sample, i) => {
      const actual = JSON.parse(lines[i]!) as unknown;
      expect(
        sampleMismatches(parseSample(sample.text), actual),
        `step ${i + 1}: the guide's sample and the service disagree; the service said ${lines[i]}`,
      ).to.deep.equal([]);
    });
  });
});
