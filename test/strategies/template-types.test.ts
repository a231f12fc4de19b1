import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { Budget } from "../../strategies/core/budget.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import type { Strategy, StrategyFeature } from "../../strategies/core/strategy.js";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import type * as Template from "../../examples/strategy-template/strategy-types.js";

/**
 * The template's strategy-types.d.ts restates the part of the interface a strategy module sees, so
 * it type-checks outside this repository. These assignments compile only while it matches: what
 * the service passes in must satisfy the template's types, and a strategy typed by the template
 * must be a Strategy here. `make test` type-checks this file (tsc -p tsconfig.json).
 */
export const serviceGivesWhatTheTemplateReads = (
  p: CompiledProblem,
  b: Budget,
  s: Solution,
): [Template.CompiledProblem, Template.Budget, Template.Solution] => [p, b, s];
export const templateStrategyIsAStrategy = (t: Template.Strategy): Strategy => t;
export const sameFeatures = (f: StrategyFeature): Template.StrategyFeature => f;
export const sameFeaturesBack = (f: Template.StrategyFeature): StrategyFeature => f;

describe("the strategy template's types", () => {
  it("type-check the template's JavaScript, as an editor would", function () {
    this.timeout(60_000);
    // tsc exits non-zero (and execFileSync throws with its report) on any type error.
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", join(REPO_ROOT, "examples/strategy-template/tsconfig.json")],
      { stdio: "pipe" },
    );
  });
});
