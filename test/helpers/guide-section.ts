import { expect } from "chai";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { parseSample, sampleMismatches, shellBlockAfter, walkThroughSteps } from "./readme-samples.js";
import { startStack, type Stack } from "./stack.js";

const run = promisify(execFile);
/** The extensions' examples: docs/api-extensions.md, which the README links to. */
const GUIDE = readFileSync(join(REPO_ROOT, "docs/api-extensions.md"), "utf8");
/** The address the examples show (make run's default). */
const GUIDE_BASE_URL = "http://127.0.0.1:8080";
/** The guide's `wait_result` helper, which the examples call. */
const HELPER_HEADING = "## The solve lifecycle beyond v1 (extensions)";

export interface GuideSection {
  /** The describe block's title. */
  title: string;
  /** The guide's heading whose first shell block is run. */
  heading: string;
  /** How many samples the block shows. */
  samples: number;
  /** "step" for a walk-through whose commands build on each other (stops at the first failure), else "example". */
  unit: "step" | "example";
}

/**
 * One section of docs/api-extensions.md run as it stands (with its `wait_result` helper) with the
 * real curl and jq against a started service: every line printed is the line the guide shows
 * under its command.
 */
export function describeGuideSection(section: GuideSection): void {
  describe(section.title, function () {
    this.timeout(180_000);
    let stack: Stack;
    before(async () => {
      stack = await startStack({ workers: 1 });
    });
    after(async () => stack?.stop());

    it(`prints, for every ${section.unit === "step" ? "step" : "curl example"}, the guide's line`, async () => {
      const helper = shellBlockAfter(GUIDE, HELPER_HEADING);
      expect(helper).to.match(/^wait_result\(\) \{/);
      const block = shellBlockAfter(GUIDE, section.heading);
      const samples = walkThroughSteps(block).filter((s) => s.kind === "sample");
      expect(samples, `one sample per ${section.unit}`).to.have.length(section.samples);
      const demo = await stack.account("demo", "pro");
      const prefix = section.unit === "step" ? "set -e\n" : "";
      const script = `${prefix}${helper}\n${block}`.replaceAll(GUIDE_BASE_URL, stack.baseUrl);
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
          `${section.unit} ${i + 1}: the guide's sample and the service disagree; the service said ${lines[i]}`,
        ).to.deep.equal([]);
      });
    });
  });
}
