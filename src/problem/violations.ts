import type { SolutionScore } from "../../strategies/core/evaluator.js";
import type { components } from "../../generated/api.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { loadViolationReasons } from "./load-violations.js";

/** Routes named per rule before the rest are summed up as "and N more". */
const NAMED_ROUTES = 3;

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : Math.abs(x) >= 1e6 || Math.abs(x) < 0.01 ? x.toPrecision(4) : x.toFixed(2);
}

function listed(items: string[]): string {
  const named = items.slice(0, NAMED_ROUTES).join(", ");
  return items.length > NAMED_ROUTES ? `${named} and ${items.length - NAMED_ROUTES} more` : named;
}

/**
 * What the best solution found still violates, rule by rule and with the amounts: only the
 * rules actually broken (a problem without windows never hears of windows). The failure message
 * of a search that ended infeasible. With load rules (pickups, shipments, extra dimensions) the
 * capacity rule is the one on board, told from the solution by loadViolationReasons. (`context`
 * has the shape issue 21's rules use too: the solution and the pre-check's proofs.)
 */
export function violationReasons(p: CompiledProblem, score: SolutionScore, context?: { solution: Solution; proven: readonly components["schemas"]["Infeasibility"][] }): string[] {
  const solution = context?.solution;
  const why: string[] = [];
  if (score.missing.length > 0) {
    why.push(`${score.missing.length} customer(s) could not be placed on any route under the hard constraints (e.g. node ${score.missing[0]})`);
  }
  if (score.duplicated.length > 0) why.push(`${score.duplicated.length} customer(s) visited more than once (e.g. node ${score.duplicated[0]})`);
  const overloaded: string[] = [];
  let excess = 0;
  const late: string[] = [];
  let lateMinutes = 0;
  const overtime: string[] = [];
  let overtimeMinutes = 0;
  const hardWindows = p.time !== null && p.time.latePenaltyPerMin <= 0;
  score.routes.forEach((r, v) => {
    if (r.capacityExcess > 1e-9 && !(p.loads && solution)) {
      overloaded.push(`vehicle ${v} carries ${fmt(r.load)} against its capacity ${fmt(p.capacity[v]!)}`);
      excess += r.capacityExcess;
    }
    if (hardWindows && r.lateMinutes > 1e-7) {
      late.push(`vehicle ${v} ${fmt(r.lateMinutes)} min late`);
      lateMinutes += r.lateMinutes;
    }
    if (r.durationExcessMin > 1e-7) {
      overtime.push(`vehicle ${v} works ${fmt(r.durationMin)} min`);
      overtimeMinutes += r.durationExcessMin;
    }
  });
  if (overloaded.length > 0) why.push(`capacity exceeded on ${overloaded.length} route(s) by ${fmt(excess)} in total (${listed(overloaded)})`);
  if (late.length > 0) why.push(`hard time windows missed on ${late.length} route(s) by ${fmt(lateMinutes)} min in total (${listed(late)})`);
  if (overtime.length > 0) {
    why.push(`working-hours cap of ${fmt(p.time!.maxRouteMin)} min exceeded on ${overtime.length} route(s) by ${fmt(overtimeMinutes)} min in total (${listed(overtime)})`);
  }
  if (solution) why.push(...loadViolationReasons(p, solution));
  if (why.length === 0) why.push("the answer is not a valid solution (one route per vehicle, customers only)");
  return why;
}
