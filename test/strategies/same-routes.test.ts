import { expect } from "chai";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../src/infra/service-process.js";

const run = promisify(execFile);

/**
 * A request without the load fields (constraints.md, second table) solves exactly as before they
 * existed: same seed and iteration budget, same routes (bench/same-routes.ts digests against
 * bench/same-routes-main.json, written on main before the load rules). The quick cases of every
 * kind of search the load rules touched: the general iterated local search (route model, moves,
 * ruin and recreate) on two mixed fleets, and the genetic search with windows and with a duration cap.
 */
describe("requests without the load fields solve exactly as before (bench/same-routes.ts)", function () {
  this.timeout(300_000);

  it("gives the stored routes on C101, CMT13, X110-HD and X101-FSMFD", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench", "same-routes.ts"), "--check", join(REPO_ROOT, "bench", "same-routes-main.json"), "--only", "C101,CMT13,X110-HD,X101-FSMFD"], { cwd: REPO_ROOT });
    expect(stdout).to.include("same routes on every instance");
    expect(stdout.split("\n").filter((l) => / it {2}[0-9a-f]{16} {2}cost /.test(l))).to.have.length(4);
  });
});
