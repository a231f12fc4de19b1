import type { components } from "../../generated/api.js";
import { evaluateRoute, type RouteSchedule, type SolutionScore } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { amountNumber, listedItems } from "./message-numbers.js";
import { mayBeUnassigned } from "./service-diagnostics.js";
import { violationReasons } from "./violations.js";

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
  plan: Solution,
  score: SolutionScore,
  proven: readonly components["schemas"]["Infeasibility"][],
): string[] {
  const why: string[] = [];
  const missing = score.missing.filter((c) => !mayBeUnassigned(p, c));
  if (missing.length > 0)
    why.push(
      `${missing.length} customer(s) that must be served are not in the plan (node${missing.length > 1 ? "s" : ""} ${nodeList(missing)})`,
    );
  const late = lateStops(p, plan);
  if (late.items.length > 0)
    why.push(
      `hard time windows missed at ${late.items.length} stop(s) by ${amountNumber(late.total)} min in total (${listedItems(late.items)})`,
    );
  const rest = violationReasons(p, { ...score, missing: [] }, { solution: plan, proven, given: true });
  if (!(why.length > 0 && rest.length === 1 && rest[0]!.startsWith("the answer is not a valid solution"))) why.push(...rest);
  return why;
}

/** Stops reached after their hard window closes (and late returns to the end node), with the minutes. */
function lateStops(p: CompiledProblem, plan: Solution): { items: string[]; total: number } {
  const t = p.time;
  const items: string[] = [];
  let total = 0;
  if (!t || t.latePenaltyPerMin > 0) return { items, total };
  plan.routes.forEach((route, v) => {
    if (route.length === 0) return;
    const schedule: RouteSchedule = { nodes: [], arrive: [], leave: [], loads: [] };
    evaluateRoute(p, v, route, route.length, schedule);
    const last = schedule.nodes.length - 1;
    for (let k = 1; k <= last; k++) {
      const node = schedule.nodes[k]!;
      const begin = k === last ? schedule.arrive[k]! : schedule.leave[k]! - t.serviceMin[node]!;
      const lateBy = begin - t.twEndMin[node]!;
      if (lateBy <= EPS_MIN) continue;
      total += lateBy;
      items.push(
        k === last
          ? `vehicle ${v} returns to its end node ${node} ${amountNumber(lateBy)} min late`
          : `node ${node} on vehicle ${v} ${amountNumber(lateBy)} min late`,
      );
    }
  });
  return { items, total };
}
