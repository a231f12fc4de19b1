import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT as ROOT } from "../infra/repo-root.js";

/** The code that decides the routes: the strategies and the request -> problem -> result pipeline. */
const SOLVER_DIRS = ["strategies", "src/problem"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/**
 * The package version plus a digest of the solver's source, e.g. `0.1.0+3f2a9c1b0d4e`: two
 * workers give identical routes for the same request, seed and iteration budget only when this
 * is equal, and the digest changes with any change to the solver even without a version bump.
 */
function computeSolverVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const hash = createHash("sha256");
  const files = SOLVER_DIRS.flatMap((d) => sourceFiles(join(ROOT, d)))
    .map((f) => relative(ROOT, f).split("\\").join("/"))
    .sort();
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(ROOT, file)))
      .update("\0");
  return `${pkg.version}+${hash.digest("hex").slice(0, 12)}`;
}

let cached: string | null = null;

export function solverVersion(): string {
  cached ??= computeSolverVersion();
  return cached;
}
