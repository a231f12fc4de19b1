import type { Budget } from "./budget.js";
import type { CompiledProblem, Solution } from "./problem.js";

/**
 * A solver plugin. `solve` is synchronous and anytime: it returns the best solution found when the
 * budget runs out (possibly incomplete: the caller checks it with the evaluator).
 */
export interface Strategy {
  /** kebab-case; also the folder name, result.strategy and the metric label. */
  readonly name: string;
  supports(p: CompiledProblem): { ok: true } | { ok: false; reason: string };
  /**
   * `initial`, when given, is a solution to start from (it may be partial or infeasible): a
   * strategy that can use it seeds its search with it, the others may ignore it.
   */
  solve(p: CompiledProblem, budget: Budget, initial?: Solution): Solution;
}
