/**
 * Mocha global setup: the end-to-end tests start the compiled API and workers (dist/, as in
 * production), so a run of a single test file after a source change must not start a stale
 * build. `make build` rebuilds only what changed (a no-op when `make test` has just built).
 */
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../../src/infra/repo-root.js";

export function mochaGlobalSetup(): void {
  execFileSync("make", ["-s", "build"], { cwd: REPO_ROOT, stdio: "inherit" });
}
