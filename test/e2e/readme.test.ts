import { expect } from "chai";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { parseSample, sampleMismatches, shellBlockAfter, walkThroughSteps } from "../helpers/readme-samples.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);
const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
/** The addresses the README shows (make run's defaults) and the id placeholder of its samples. */
const README_BASE_URL = "http://127.0.0.1:8080";
const README_NATS_URL = "nats://127.0.0.1:4222";
const README_TASK_ID = "3f0c…";

/**
 * The README's curl walk-through, taken from README.md itself, run with the real curl against a
 * started service; every answer is compared with the README's sample and with the document.
 */
describe("the README's walk-through", function () {
  this.timeout(120_000);
  let stack: Stack;
  let dir: string;
  let commands: string[] = [];
  let samples: unknown[] = [];
  let submitLine: string | undefined;
  let pollLine: string | undefined;

  before(async () => {
    // Read here, not while mocha collects tests: a README that cannot be read fails this suite only.
    const steps = walkThroughSteps(shellBlockAfter(README, "## Walk-through with curl"));
    commands = steps.filter((s) => s.kind === "command").map((s) => s.text);
    samples = steps.filter((s) => s.kind === "sample").map((s) => parseSample(s.text));
    [submitLine, pollLine] = commands.filter((c) => c.startsWith("curl "));
    // No worker at first, so the first poll finds the task queued, as the README shows it.
    stack = await startStack({ workers: 0 });
    dir = mkdtempSync(join(tmpdir(), "vrp-readme-"));
  });
  after(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function shell(line: string, env: Record<string, string>, taskId = ""): Promise<unknown> {
    const command = line
      .replaceAll(README_BASE_URL, stack.baseUrl)
      .replaceAll(README_NATS_URL, stack.nats.url)
      .replaceAll(README_TASK_ID, taskId);
    const { stdout } = await run("bash", ["-c", command], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
    return JSON.parse(stdout) as unknown;
  }
  function expectLikeSample(actual: unknown, sample: unknown, what: string): void {
    expect(
      sampleMismatches(sample, actual),
      `${what}: the README's sample and the service disagree; the service said ${JSON.stringify(actual)}`,
    ).to.deep.equal([]);
  }
  async function pollToTheEnd(env: Record<string, string>, id: string): Promise<{ result: { status?: string } | null }> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const answer = (await shell(pollLine!, env, id)) as { result: { status?: string } | null };
      await expectMatchesSpec("getSolveResult", 200, answer);
      if (answer.result === null || answer.result.status !== "processing") return answer;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`task ${id} still processing`);
  }

  it("has the steps the test expects: the demo user, a submit and a poll line, four samples", () => {
    expect(commands[0]).to.match(/^export VRP_USER=demo VRP_KEY=/);
    expect(submitLine).to.include("/api/v1/solve ").and.include("--data @examples/small-cvrp.json");
    expect(pollLine).to.include(`/api/v1/solve/result/${README_TASK_ID}`);
    expect(samples).to.have.length(4);
  });

  it("answers the submit, the polls and a failed task as the README shows", async () => {
    const [acknowledged, queued, solved, failed] = samples;
    const demo = await stack.account("demo", "pro");
    const env = { VRP_USER: demo.user, VRP_KEY: demo.key };

    const ack = (await shell(submitLine!, env)) as { request_id: string };
    await expectMatchesSpec("submitSolve", 200, ack);
    expectLikeSample(ack, acknowledged, "submit");
    await new Promise((r) => setTimeout(r, 2000)); // the first of the README's recommended waits
    const first = await shell(pollLine!, env, ack.request_id);
    await expectMatchesSpec("getSolveResult", 200, first);
    expectLikeSample(first, queued, "poll while queued");

    await stack.startWorker();
    expectLikeSample(await pollToTheEnd(env, ack.request_id), solved, "poll when solved");

    // The same submit line with a request no plan can serve (a demand above every capacity).
    const example = JSON.parse(readFileSync(join(REPO_ROOT, "examples/small-cvrp.json"), "utf8")) as { node_demands: number[] };
    writeFileSync(join(dir, "infeasible.json"), JSON.stringify({ ...example, node_demands: [0, 4, 3, 9, 2] }));
    const doomed = (await shell(submitLine!.replace("@examples/small-cvrp.json", `@${join(dir, "infeasible.json")}`), env)) as {
      request_id: string;
    };
    expectLikeSample(await pollToTheEnd(env, doomed.request_id), failed, "poll when failed");
  });

  it("gets a new demo key with the README's command when the printed one is lost", async () => {
    const line = [...README.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((m) => m[1]!.split("\n"))
      .find((l) => l.includes("vrpctl key create demo"));
    expect(line, "the README says how to get a new demo key").to.be.a("string");
    await stack.account("demo", "pro");
    const command = line!.replace(/\s+#.*$/, "").replaceAll(README_NATS_URL, stack.nats.url);
    const { stdout } = await run("bash", ["-c", command], { cwd: REPO_ROOT, env: process.env });
    const key = stdout.trimEnd().split("\n").pop()!;
    const ack = (await shell(submitLine!, { VRP_USER: "demo", VRP_KEY: key })) as { success: boolean };
    await expectMatchesSpec("submitSolve", 200, ack);
    expect(ack.success).to.equal(true);
  });
});
