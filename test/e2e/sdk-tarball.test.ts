import { expect } from "chai";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { shellBlockAfter } from "../helpers/readme-samples.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);
const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const SDK_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "clients/typescript/package.json"), "utf8")) as { version: string }).version;
const TARBALL = join(REPO_ROOT, "dist/sdk", `vrp-solve-client-${SDK_VERSION}.tgz`);

/**
 * The SDK as a partner gets it: the tarball `make sdk` packs, installed with the README's npm
 * commands into an empty project outside this repository, the README's quick-start compiled
 * there under strict TypeScript and run against a started service. npm takes what it can from
 * its cache (the tarball's dependency and TypeScript are the project's own) and asks only the
 * npm registry for the rest.
 */
describe("the SDK tarball in a partner's empty project", function () {
  this.timeout(300_000);
  let stack: Stack;
  let project: string;

  before(async () => {
    execFileSync("make", ["-s", "sdk-pack"], { cwd: REPO_ROOT, stdio: "inherit" });
    project = mkdtempSync(join(tmpdir(), "vrp-partner-"));
    stack = await startStack({ workers: 1 });
  });
  after(async () => {
    await stack?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it("is versioned and holds the compiled SDK, its types and README, nothing else", async () => {
    expect(existsSync(TARBALL), TARBALL).to.equal(true);
    const { stdout } = await run("tar", ["-tzf", TARBALL]);
    const files = stdout.trim().split("\n");
    for (const f of ["package/package.json", "package/README.md", "package/dist/src/index.js", "package/dist/src/index.d.ts"])
      expect(files).to.include(f);
    expect(files.filter((f) => !/^package\/(package\.json|README\.md|dist\/src\/.+)$/.test(f))).to.deep.equal([]);
  });

  it("installs with the README's commands, compiles the quick-start under strict TypeScript and solves a problem", async () => {
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "partner-app", version: "1.0.0", private: true, type: "module" }, null, 2),
    );
    const block = shellBlockAfter(
      README,
      "**In a partner's project.** The package is not on a public registry: a partner gets the tarball",
    );
    const installs = block.split("\n").filter((l) => l.startsWith("npm install"));
    expect(installs, block).to.have.length(2);
    const npmEnv = {
      ...process.env,
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    };
    for (const line of installs) {
      await run("bash", ["-c", line.replace(`/path/to/vrp-solve-client-${SDK_VERSION}.tgz`, TARBALL)], { cwd: project, env: npmEnv });
    }
    const installed = JSON.parse(readFileSync(join(project, "node_modules/vrp-solve-client/package.json"), "utf8")) as { version: string };
    expect(installed.version).to.equal(SDK_VERSION);

    copyFileSync(join(REPO_ROOT, "clients/typescript/examples/quickstart.ts"), join(project, "quickstart.ts"));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          target: "ES2022",
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          types: ["node"],
        },
        files: ["quickstart.ts"],
      }),
    );
    await run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: project });

    const alice = await stack.account("partner");
    const { stdout } = await run(process.execPath, ["quickstart.js", join(REPO_ROOT, "examples/small-cvrp.json")], {
      cwd: project,
      env: { ...process.env, VRP_URL: stack.baseUrl, VRP_USER: alice.user, VRP_KEY: alice.key },
    });
    expect(stdout).to.match(/^total cost \d+(\.\d+)? \{/);
    expect(stdout).to.include("'Vehicle 0': [");
  });

  it("is described in the README in the order that works: make sdk before running the quick-start", () => {
    const makeSdk = README.indexOf("`make sdk` installs, generates, compiles");
    const runLine = README.indexOf("node clients/typescript/dist/examples/quickstart.js");
    expect(makeSdk).to.be.greaterThan(0);
    expect(runLine, "the run command comes after make sdk").to.be.greaterThan(makeSdk);
    expect(README).to.include(`dist/sdk/vrp-solve-client-${SDK_VERSION}.tgz`);
  });
});
