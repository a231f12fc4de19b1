import { expect } from "chai";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/repo-root.js";

const run = promisify(execFile);
const PROJECT_NODE = join(REPO_ROOT, "tools", "node", "node_modules", ".bin", "node");

/**
 * A copy of the repository's layout around bin/vrp-solve.mjs: the launcher, the project's Node
 * (linked) unless `withNode` is false, and with `withCli` a stand-in compiled CLI that prints the
 * runtime it runs on, so the test sees which Node and which file the launcher chose.
 */
function layout(withNode: boolean, withCli: boolean): string {
  const root = mkdtempSync(join(tmpdir(), "vrp-solve-layout-"));
  mkdirSync(join(root, "bin"));
  copyFileSync(join(REPO_ROOT, "bin", "vrp-solve.mjs"), join(root, "bin", "vrp-solve.mjs"));
  if (withNode) {
    mkdirSync(join(root, "tools", "node"), { recursive: true });
    symlinkSync(join(REPO_ROOT, "tools", "node", "node_modules"), join(root, "tools", "node", "node_modules"));
  }
  if (withCli) {
    mkdirSync(join(root, "dist", "src", "cli"), { recursive: true });
    writeFileSync(
      join(root, "dist", "src", "cli", "vrp-solve.js"),
      "export async function main() { console.log(JSON.stringify({ version: process.version, args: process.argv.slice(2) })); }\n",
    );
  }
  return root;
}

async function launch(node: string, root: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return run(node, [join(root, "bin", "vrp-solve.mjs"), ...args]).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (e: { stdout: string; stderr: string; code: number }) => ({ stdout: e.stdout, stderr: e.stderr, code: e.code }),
  );
}

describe("vrp-solve runs the compiled build on the project's Node", function () {
  this.timeout(30_000);
  const roots: string[] = [];
  const made = (withNode: boolean, withCli: boolean) => {
    const root = layout(withNode, withCli);
    roots.push(root);
    return root;
  };
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it("runs dist/src/cli/vrp-solve.js with the arguments given", async () => {
    const root = made(true, true);
    const { stdout, code } = await launch(PROJECT_NODE, root, "request.json", "--seed", "3");
    expect(code).to.equal(0);
    const version = execFileSync(PROJECT_NODE, ["--version"], { encoding: "utf8" }).trim();
    expect(JSON.parse(stdout)).to.deep.equal({ version, args: ["request.json", "--seed", "3"] });
  });

  it("started by another Node, runs itself again on the project's", async function () {
    const projectVersion = execFileSync(PROJECT_NODE, ["--version"], { encoding: "utf8" }).trim();
    const versionOf = (node: string) => execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    const other = ["/usr/bin/node", "/usr/local/bin/node"].find((n) => existsSync(n) && versionOf(n) !== projectVersion);
    if (!other) {
      console.log(`      (skipped: no Node other than the project's ${projectVersion} on this machine to start vrp-solve with)`);
      this.skip();
    }
    const { stdout, code } = await launch(other, made(true, true), "-", "--time-limit", "1");
    expect(code).to.equal(0);
    expect(JSON.parse(stdout)).to.deep.equal({ version: projectVersion, args: ["-", "--time-limit", "1"] });
  });

  it("says to run make build, with exit code 2, when the compiled build or the project's Node is missing", async () => {
    const noCli = await launch(PROJECT_NODE, made(true, false), "x.json");
    expect(noCli.code).to.equal(2);
    expect(noCli.stderr).to.match(/^vrp-solve: the compiled CLI \(.*dist\/src\/cli\/vrp-solve\.js\) is missing: run make build/);
    const noNode = await launch(process.execPath, made(false, true), "x.json");
    expect(noNode.code).to.equal(2);
    const nodeMissing = /^vrp-solve: the project's Node \(.*tools\/node\/node_modules\/\.bin\/node\) is missing: run make build/;
    expect(noNode.stderr).to.match(nodeMissing);
  });
});
