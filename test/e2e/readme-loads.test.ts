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

/** The guide's section on pickups, backhauls, shipments and load dimensions, one block per capability. */
const BLOCKS = ["### Pickups", "### Backhauls", "### Shipments", "### More load dimensions", "### All of them, refused and pre-checked"];

/**
 * Each curl example of the guide's "Pickups, deliveries and more load dimensions" section, taken
 * from docs/api-extensions.md and run as it stands (with its `wait_result` helper) with the real
 * curl and jq against a started service: every line it prints matches the line the guide shows.
 */
describe("the guide's pickup-and-delivery examples", function () {
  this.timeout(180_000);
  let stack: Stack;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    stack = await startStack({ workers: 1 });
    const demo = await stack.account("demo", "pro");
    env = { ...process.env, VRP_USER: demo.user, VRP_KEY: demo.key };
  });
  after(async () => stack?.stop());

  for (const heading of BLOCKS) {
    it(`${heading.slice(4)}: prints what the guide shows`, async () => {
      const helper = shellBlockAfter(GUIDE, "## The solve lifecycle beyond v1 (extensions)");
      expect(helper).to.match(/^wait_result\(\) \{/);
      const block = shellBlockAfter(GUIDE, heading);
      const samples = walkThroughSteps(block)
        .filter((s) => s.kind === "sample")
        .map((s) => parseSample(s.text));
      expect(samples.length, "the block shows its output").to.be.at.least(1);
      const script = `${helper}\n${block}`.replaceAll(GUIDE_BASE_URL, stack.baseUrl);
      const { stdout } = await run("bash", ["-c", script], { cwd: REPO_ROOT, env });
      const lines = stdout.trim().split("\n");
      expect(lines, stdout).to.have.length(samples.length);
      lines.forEach((line, i) => {
        expect(
          sampleMismatches(samples[i], JSON.parse(line) as unknown),
          `the guide's sample and the service disagree; the service said ${line}`,
        ).to.deep.equal([]);
      });
    });
  }
});
