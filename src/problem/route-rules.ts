import { evaluateAnswer, type AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { SolutionScore } from "../../strategies/core/evaluator.js";
import { unservedNodes } from "../../strategies/core/evaluate-rules.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { mayBeUnassigned } from "./service-diagnostics.js";

export interface Judgement {
  /** A plan the service may return as solved. */
  feasible: boolean;
  /** Customers on no route, ascending. */
  unserved: number[];
  /** Of those, the ones that must be served (they fail the task). */
  unservedRequired: number[];
}

/**
 * Whether an answer may be returned: every route acceptable (the evaluator finds it feasible and
 * it breaks no skill, shift or route limit), every customer at most once and only depots left out
 * of routes, and every unserved customer one that may be left out (an optional one, or any under
 * allow_unassigned). Without the constraint fields exactly the evaluator's verdict (every customer served).
 */
export function judgeAnswer(p: CompiledProblem, answer: AnswerEvaluation): Judgement {
  const { solution: s, score, unserved } = answer;
  if (!p.rules) return { feasible: score.feasible, unserved, unservedRequired: unserved };
  const unservedRequired = unserved.filter((c) => !mayBeUnassigned(p, c));
  let feasible = s.routes.length === p.vehicleCount && score.duplicated.length === 0 && unservedRequired.length === 0;
  for (let v = 0; feasible && v < p.vehicleCount; v++) {
    const route = answer.routes[v]!;
    if (route.foreignNodes.length > 0 || !route.acceptable) feasible = false;
  }
  if (answer.groups.length > 0) feasible = false;
  return { feasible, unserved, unservedRequired };
}

/** judgeAnswer for a caller that holds a solution and its score only: the solution is evaluated once here. */
export function judgeSolution(p: CompiledProblem, s: Solution, score: SolutionScore): Judgement {
  return judgeAnswer(p, { ...evaluateAnswer(p, s), score });
}

/** Sum of the skip penalties of the unserved optional customers (required ones add nothing). */
export function skipPenaltyTotal(p: CompiledProblem, unserved: readonly number[]): number {
  let total = 0;
  const penalty = p.rules?.skipPenalty;
  if (!penalty) return 0;
  for (const c of unserved) if (Number.isFinite(penalty[c]!)) total += penalty[c]!;
  return total;
}

/** The customers on no route of `s`, optional and required, ascending (a plan still being completed). */
export function unservedCustomers(p: CompiledProblem, s: Solution): number[] {
  const { skipped, required } = unservedNodes(p, s);
  return [...skipped, ...required].sort((a, b) => a - b);
}
