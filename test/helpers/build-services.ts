/**
 * Mocha global setup: the end-to-end tests start the compiled API and workers (dist/, as in
 * production) and use the SDK (clients/typescript), so a run of a single test file after a
 * change must not use a stale build. Make rebuilds only what changed (a no-op right after
 * `make test` has built).
 */
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../../src/infra/repo-root.js";

export function mochaGlobalSetup(): void {
  execFileSync("make", ["-s", "build", "sdk-build"], { cwd: REPO_ROOT, stdio: "inherit" });
}
