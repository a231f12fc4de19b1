import { expect } from "chai";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);
const QUICKSTART = "clients/typescript/examples/quickstart.ts";

/** The SDK's README program: shown whole in the README, under 20 lines, and it solves a problem. */
describe("the TypeScript SDK's quick-start program", function () {
  this.timeout(120_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1 });
  });
  after(async () => stack?.stop());

  it("is the program the READMEs show, in under 20 lines", () => {
    const program = readFileSync(join(REPO_ROOT, QUICKSTART), "utf8");
    expect(program.trimEnd().split("\n").length).to.be.lessThan(20);
    for (const readme of ["README.md", "clients/typescript/README.md"]) {
      expect(readFileSync(join(REPO_ROOT, readme), "utf8"), readme).to.include("```ts\n" + program.trimEnd() + "\n```");
    }
  });

  it("compiled by the SDK's build, solves examples/small-cvrp.json against a started service", async () => {
    const alice = await stack.account("alice");
    const { stdout } = await run(process.execPath, ["clients/typescript/dist/examples/quickstart.js", "examples/small-cvrp.json"], {
      cwd: REPO_ROOT,
      env: { ...process.env, VRP_URL: stack.baseUrl, VRP_USER: alice.user, VRP_KEY: alice.key },
    });
    expect(stdout).to.match(/^total cost \d+(\.\d+)? \{/);
    expect(stdout).to.include("'Vehicle 0': [");
  });
});
