import type { AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { withoutDust } from "./message-numbers.js";

/**
 * The result's balance term for a request with balance: the price of the largest workload, apart
 * from the routes' costs (the evaluator's term, so that total_cost matches). Nothing without it.
 */
export function balanceFields(p: CompiledProblem, answer: AnswerEvaluation): { balance_cost: number } | Record<string, never> {
  if (!p.balance) return {};
  return { balance_cost: withoutDust(answer.score.balance?.cost ?? 0) };
}

/** Vehicle v's workload in the request's balance measure, for its route_details; undefined without balance. */
export function balanceMeasureOf(p: CompiledProblem, answer: AnswerEvaluation, v: number): number | undefined {
  if (!p.balance) return undefined;
  return withoutDust(answer.score.balance?.workloads[v] ?? 0);
}
