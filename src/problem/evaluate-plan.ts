import { evaluateAnswer, type AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { judgeAnswer } from "./route-rules.js";
import { comparePlans, planRank, type PlanRank } from "../../strategies/core/plan-order.js";

/** The name a plan answered without search reports as its `strategy`. */
export const EVALUATE_ONLY = "evaluate";

/**
 * A given plan evaluated by the trusted evaluator, as every solve's answer is: its evaluation,
 * and whether the service may answer it as solved (every hard rule kept, every customer it must
 * serve on a route). Customers the plan leaves out stay unserved.
 */
export function judgePlan(p: CompiledProblem, plan: Solution): { answer: AnswerEvaluation; feasible: boolean } {
  const answer = evaluateAnswer(p, plan);
  return { answer, feasible: judgeAnswer(p, answer).feasible };
}

/**
 * The answer of a solve that started from a given plan: the search's answer unless the plan,
 * feasible, ranks better (plan-order.ts: fewer vehicles under min_vehicles, else costs less):
 * the promise of initial_routes, kept here for every strategy, plugins included. `search` (the
 * answer's vehicles and cost) is null when the search's answer is not feasible.
 */
export function keepCheaperPlan(p: CompiledProblem, plan: Solution | null, search: PlanRank | null): AnswerEvaluation | null {
  if (!plan) return null;
  const judged = judgePlan(p, plan);
  if (!judged.feasible) return null;
  if (search !== null && comparePlans(search, planRank(p, plan, judged.answer.score.cost)) <= 0) return null;
  return judged.answer;
}
