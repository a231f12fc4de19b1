import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/service-process.js";

/**
 * The Makefile's Debian installs, run with stand-ins for apt-get and sudo that record how they
 * were called (a real install would change the machine): every apt-get call waits for the
 * package lock, and the output says what is installed and why.
 */
describe("make's Debian installs", () => {
  let bin: string;
  beforeEach(() => {
    bin = mkdtempSync(join(tmpdir(), "vrp-apt-"));
    const log = join(bin, "calls.log");
    writeFileSync(join(bin, "apt-get"), `#!/bin/sh\necho "apt-get $*" >> ${log}\n`);
    writeFileSync(join(bin, "sudo"), `#!/bin/sh\nexec "$@"\n`);
    chmodSync(join(bin, "apt-get"), 0o755);
    chmodSync(join(bin, "sudo"), 0o755);
  });
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  function install(extraArgs: string[] = []): { output: string; calls: string[] } {
    const rule = "apt-probe: ; @$(call apt_install,fake-package,the test asks for it)";
    const r = spawnSync("make", ["-s", "--no-print-directory", ...extraArgs, "--eval", rule, "apt-probe"], {
      cwd: REPO_ROOT,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).to.equal(0);
    return { output: r.stdout + r.stderr, calls: readFileSync(join(bin, "calls.log"), "utf8").trim().split("\n") };
  }

  it("wait for the dpkg lock on update and install, and say what is installed and why", () => {
    const { output, calls } = install();
    expect(output.trim()).to.equal(
      "installing the Debian package fake-package: the test asks for it (apt waits up to 600 s for the package lock)",
    );
    expect(calls).to.have.length(2);
    expect(calls[0]).to.match(/^apt-get -o DPkg::Lock::Timeout=600 update\b/);
    expect(calls[1]).to.match(/^apt-get -o DPkg::Lock::Timeout=600 install -y -qq fake-package$/);
  });

  it("take the wait from APT_LOCK_TIMEOUT", () => {
    const { calls } = install(["APT_LOCK_TIMEOUT=30"]);
    for (const call of calls) expect(call).to.include("-o DPkg::Lock::Timeout=30 ");
  });

  it("give a reason for every package the Makefile installs", () => {
    const makefile = readFileSync(join(REPO_ROOT, "Makefile"), "utf8");
    const calls = [...makefile.matchAll(/\$\(call apt_install,([^,)]+)(?:,([^)]*))?\)/g)];
    expect(calls.length).to.be.at.least(4);
    for (const [, pkg, why] of calls) expect(why?.trim(), `no reason given for ${pkg}`).to.be.a("string").and.not.equal("");
  });
});
