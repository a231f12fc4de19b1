import type { components } from "../../generated/api.js";
import type { AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { amountNumber, listedItems } from "./message-numbers.js";
import { mayBeUnassigned } from "./service-diagnostics.js";
import { reasonsOf } from "./violations.js";

/** Nodes named in a message before the rest are counted as "and N more". */
const NAMED_NODES = 20;
const EPS_MIN = 1e-7;

/** Node indices, the first NAMED_NODES of them, then "and N more". */
function nodeList(nodes: readonly number[]): string {
  const named = nodes.slice(0, NAMED_NODES).join(", ");
  return nodes.length > NAMED_NODES ? `${named} and ${nodes.length - NAMED_NODES} more` : named;
}

/**
 * Every rule a given plan (initial_routes under max_iterations 0) breaks, with its amount: the
 * required customers it leaves out and the customers it visits twice, by node; each stop reached
 * after its hard window closes, by node and vehicle with the minutes; then capacity, working hours,
 * shifts, skills, caps and load rules as a failed solve names them (violations.ts).
 */
export function planViolationReasons(
  p: CompiledProblem,
  answer: AnswerEvaluation,
  proven: readonly components["schemas"]["Infeasibility"][],
): string[] {
  const score = answer.score;
  const why: string[] = [];
  const missing = score.missing.filter((c) => !mayBeUnassigned(p, c));
  if (missing.length > 0)
    why.push(
      `${missing.length} customer(s) that must be served are not in the plan (node${missing.length > 1 ? "s" : ""} ${nodeList(missing)})`,
    );
  const late = lateStops(p, answer);
  if (late.items.length > 0)
    why.push(
      `hard time windows missed at ${late.items.length} stop(s) by ${amountNumber(late.total)} min in total (${listedItems(late.items)})`,
    );
  const rest = reasonsOf(p, { ...score, missing: [] }, { answer, proven, given: true });
  if (!(why.length > 0 && rest.length === 1 && rest[0]!.startsWith("the answer is not a valid solution"))) why.push(...rest);
  return why;
}

/** Stops reached after their hard window closes (and late returns to the end node), with the minutes. */
function lateStops(p: CompiledProblem, answer: AnswerEvaluation): { items: string[]; total: number } {
  const t = p.time;
  const items: string[] = [];
  let total = 0;
  if (!t || t.latePenaltyPerMin > 0) return { items, total };
  for (const { vehicle: v, stops } of answer.routes) {
    stops.forEach(({ node, lateBy }, i) => {
      if (lateBy <= EPS_MIN) return;
      total += lateBy;
      items.push(
        i === stops.length - 1
          ? `vehicle ${v} returns to its end node ${node} ${amountNumber(lateBy)} min late`
          : `node ${node} on vehicle ${v} ${amountNumber(lateBy)} min late`,
      );
    });
  }
  return { items, total };
}
