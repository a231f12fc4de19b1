import type { components } from "../../generated/api.js";
import type { AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { capMinutes, mayBeUnassigned } from "./service-diagnostics.js";
import { unassignedEntries } from "./unassigned.js";
import { amountNumber, listedItems } from "./message-numbers.js";

type Infeasibility = components["schemas"]["Infeasibility"];

/**
 * What the best solution found breaks of optional stops, skills, shifts and route limits, rule by
 * rule with the amounts (the failure message of a task whose search ended infeasible): required
 * customers left out, each first one with its reason, then the broken route limits.
 */
export function ruleViolationReasons(
  p: CompiledProblem,
  answer: AnswerEvaluation,
  proven: readonly Infeasibility[],
  /** A given plan: its missing customers are named by plan-violations.ts. */
  given = false,
): string[] {
  if (!p.rules) return [];
  const why: string[] = [];
  const required = given ? [] : answer.unserved.filter((c) => !mayBeUnassigned(p, c));
  if (required.length > 0) {
    const [first] = unassignedEntries(p, answer, required.slice(0, 1), proven);
    why.push(
      `${required.length} customer(s) that must be served could not be placed on any ` +
        `route under the hard constraints (${first!.message}; allow_unassigned would ` +
        `return the rest of the plan)`,
    );
  }
  const skills: string[] = [];
  const early: string[] = [];
  const late: string[] = [];
  const overtime: string[] = [];
  const far: string[] = [];
  const stops: string[] = [];
  answer.solution.routes.forEach((route, v) => {
    const evaluated = answer.routes[v];
    if (!evaluated) return;
    const [r, b] = [evaluated.score, evaluated.rules];
    if (b.skillNodes.length > 0) skills.push(`vehicle ${v} serves node ${b.skillNodes[0]} without its skills`);
    if (b.shiftEarlyMin > 1e-7) early.push(`vehicle ${v} leaves ${amountNumber(b.shiftEarlyMin)} min before its shift starts`);
    if (b.shiftLateMin > 1e-7) late.push(`vehicle ${v} returns ${amountNumber(b.shiftLateMin)} min after its shift ends`);
    if (b.durationOverMin > 1e-7)
      overtime.push(`vehicle ${v} works ${amountNumber(r.durationMin)} min against its cap of ${amountNumber(capMinutes(p, v))} min`);
    if (b.distanceOver > 1e-9)
      far.push(
        `vehicle ${v} drives ${amountNumber(r.distance)} against its vehicle_max_distance ${amountNumber(p.rules!.maxDistance[v]!)}`,
      );
    if (b.stopsOver > 0) stops.push(`vehicle ${v} visits ${route.length} customers against its vehicle_max_stops ${p.rules!.maxStops[v]}`);
  });
  if (skills.length > 0) why.push(`skills missing on ${skills.length} route(s) (${listedItems(skills)})`);
  if (early.length + late.length > 0)
    why.push(`shifts (vehicle_time_windows) broken on ${early.length + late.length} route(s) (${listedItems([...early, ...late])})`);
  if (overtime.length > 0) why.push(`working-hours caps exceeded on ${overtime.length} route(s) (${listedItems(overtime)})`);
  if (far.length > 0) why.push(`distance caps exceeded on ${far.length} route(s) (${listedItems(far)})`);
  if (stops.length > 0) why.push(`stop caps exceeded on ${stops.length} route(s) (${listedItems(stops)})`);
  return why;
}
