import { evaluateAnswer, type AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { SolutionScore } from "../../strategies/core/evaluator.js";
import type { components } from "../../generated/api.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { loadViolationReasons } from "./load-violations.js";
import { ruleViolationReasons } from "./rule-violations.js";
import { visitViolationReasons } from "./visit-violations.js";
import { amountNumber, listedItems } from "./message-numbers.js";

type Infeasibility = components["schemas"]["Infeasibility"];

/**
 * What the best solution found still violates, rule by rule and with the amounts: only the
 * rules actually broken (a problem without windows never hears of windows). The failure message
 * of a search that ended infeasible. With the constraint fields (`rules`), the solution and the
 * pre-check's proofs name the reason of a required customer left out, and the route limits broken.
 * With load rules (pickups, shipments, extra dimensions) the capacity rule is the one on board,
 * read off the evaluation's load breaches by loadViolationReasons.
 */
export function violationReasons(
  p: CompiledProblem,
  score: SolutionScore,
  context?: {
    solution: Solution;
    proven: readonly Infeasibility[];
    /** A given plan (plan-violations.ts), which names its missing customers and late stops itself. */
    given?: boolean;
  },
): string[] {
  if (!context) return reasonsOf(p, score);
  // A caller that holds a solution and its score only: the solution is evaluated once here.
  return reasonsOf(p, score, { answer: evaluateAnswer(p, context.solution), proven: context.proven, given: context.given === true });
}

/** violationReasons of an evaluated answer, the pre-check's proofs naming the reasons of required customers left out. */
export function answerViolationReasons(p: CompiledProblem, answer: AnswerEvaluation, proven: readonly Infeasibility[]): string[] {
  return reasonsOf(p, answer.score, { answer, proven, given: false });
}

/** The reasons from the plan's score, and with an evaluated answer its rule and load breaches too. */
export function reasonsOf(
  p: CompiledProblem,
  score: SolutionScore,
  context?: { answer: AnswerEvaluation; proven: readonly Infeasibility[]; given: boolean },
): string[] {
  const answer = context?.answer;
  const given = context?.given === true;
  const why: string[] = p.rules && context ? ruleViolationReasons(p, context.answer, context.proven, given) : [];
  if (score.missing.length > 0 && !(p.rules && context) && !given) {
    why.push(
      `${score.missing.length} customer(s) could not be placed on any route under the hard constraints (e.g. node ${score.missing[0]})`,
    );
  }
  if (score.duplicated.length > 0)
    why.push(`${score.duplicated.length} customer(s) visited more than once (e.g. node ${score.duplicated[0]})`);
  const overloaded: string[] = [];
  let excess = 0;
  const late: string[] = [];
  let lateMinutes = 0;
  const overtime: string[] = [];
  let overtimeMinutes = 0;
  const hardWindows = p.time !== null && p.time.latePenaltyPerMin <= 0;
  score.routes.forEach((r, v) => {
    if (r.capacityExcess > 1e-9 && !(p.loads && answer)) {
      overloaded.push(`vehicle ${v} carries ${amountNumber(r.load)} against its capacity ${amountNumber(p.capacity[v]!)}`);
      excess += r.capacityExcess;
    }
    if (hardWindows && r.lateMinutes > 1e-7 && !given) {
      late.push(`vehicle ${v} ${amountNumber(r.lateMinutes)} min late`);
      lateMinutes += r.lateMinutes;
    }
    // With rules the caps are per vehicle, and ruleViolationReasons names them.
    if (!p.rules && r.durationExcessMin > 1e-7) {
      overtime.push(`vehicle ${v} works ${amountNumber(r.durationMin)} min`);
      overtimeMinutes += r.durationExcessMin;
    }
  });
  if (overloaded.length > 0)
    why.push(`capacity exceeded on ${overloaded.length} route(s) by ${amountNumber(excess)} in total (${listedItems(overloaded)})`);
  if (late.length > 0)
    why.push(`hard time windows missed on ${late.length} route(s) by ${amountNumber(lateMinutes)} min in total (${listedItems(late)})`);
  if (overtime.length > 0) {
    why.push(
      `working-hours cap of ${amountNumber(p.time!.maxRouteMin)} min exceeded on ` +
        `${overtime.length} route(s) by ${amountNumber(overtimeMinutes)} min in total ` +
        `(${listedItems(overtime)})`,
    );
  }
  if (answer) why.push(...loadViolationReasons(p, answer));
  if (answer) why.push(...visitViolationReasons(p, answer));
  // Driver breaks (vehicle_breaks) that found no place inside their windows on the route.
  const missed = score.routes.flatMap((r, v) => ((r.missedBreaks ?? 0) > 0 ? [`vehicle ${v} misses ${r.missedBreaks}`] : []));
  if (missed.length > 0) why.push(`breaks not taken within their windows on ${missed.length} route(s) (${listedItems(missed)})`);
  if (why.length === 0) why.push("the answer is not a valid solution (one route per vehicle, customers only)");
  return why;
}
