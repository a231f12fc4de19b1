import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileRequest } from "../../src/problem/compile-request.js";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { findStrategy } from "../../strategies/registry.js";
import type { WindowsMethod } from "../../strategies/settings.js";

/** Solomon's C101 is the stored case of the genetic search under windows, no longer hgs's own method there. */
const WINDOWS_METHOD: Record<string, WindowsMethod> = { C101: "genetic" };

/** Digests of hgs's routes stored on main before the constraint and load fields existed (bench/same-routes.ts --write). */
export const STORED_ROUTES = JSON.parse(readFileSync(join(REPO_ROOT, "bench", "same-routes-main.json"), "utf8")) as Record<
  string,
  { digest: string; cost: number }
>;

/**
 * hgs pinned, seed 1, a fixed iteration budget: the digest of its routes and its cost, as
 * bench/same-routes.ts computes them for case `name` (its method under windows included).
 */
export function hgsRoutes(
  name: string,
  request: SolveRequestInput,
  iterations: number,
): { problem: CompiledProblem; digest: string; cost: number } {
  const { problem } = compileRequest(request);
  const method = WINDOWS_METHOD[name];
  const overrides = method ? { hgs: { windowsMethod: method } } : {};
  const solution = findStrategy("hgs").solve(problem, Budget.forSeconds(3600, 1, iterations, undefined, overrides));
  const digest = createHash("sha256").update(JSON.stringify(solution.routes)).digest("hex").slice(0, 16);
  return { problem, digest, cost: Number(evaluateSolution(problem, solution).cost.toFixed(6)) };
}
