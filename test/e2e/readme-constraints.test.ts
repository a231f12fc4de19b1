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
const HEADING = "## Optional stops, skills, shifts and route limits (extensions)";

/**
 * The README's examples of optional stops, skills, shifts and route limits, taken from README.md
 * and run as they stand (with its `wait_result` helper) with the real curl and jq against a
 * started service: every line printed is the line the README shows under its command.
 */
describe("the README's optional stops, skills, shifts and route limits", function () {
  this.timeout(180_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1 });
  });
  after(async () => stack?.stop());

  it("prints, for every curl example, the README's line", async () => {
    const helper = shellBlockAfter(README, "## The solve lifecycle beyond v1 (extensions)");
    expect(helper).to.match(/^wait_result\(\) \{/);
    const block = shellBlockAfter(README, HEADING);
    const samples = walkThroughSteps(block).filter((s) => s.kind === "sample");
    expect(samples, "one sample per example").to.have.length(7);
    const demo = await stack.account("demo", "pro");
    const script = `${helper}\n${block}`.replaceAll(README_BASE_URL, stack.baseUrl);
    const { stdout } = await run("bash", ["-c", script], { cwd: REPO_ROOT, env: { ...process.env, VRP_USER: demo.user, VRP_KEY: demo.key } });
    const lines = stdout.trim().split("\n");
    expect(lines, stdout).to.have.length(samples.length);
    samples.forEach((sample, i) => {
      const actual = JSON.parse(lines[i]!) as unknown;
      expect(sampleMismatches(parseSample(sample.text), actual), `example ${i + 1}: the README's sample and the service disagree; the service said ${lines[i]}`).to.deep.equal([]);
    });
  });
});
