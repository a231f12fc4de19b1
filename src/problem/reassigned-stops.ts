import type { components } from "../../generated/api.js";
import type { AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { withoutDust } from "./message-numbers.js";

type ReassignedStop = components["schemas"]["ReassignedStop"];

/**
 * The result's re-planning fields for a request with a reassignment cost: the stops the answer
 * serves on another vehicle than the given plan did, ascending by node, and what they cost (the
 * evaluator's rule, so the total matches the routes' costs). Nothing without that cost.
 */
export function reassignmentFields(
  p: CompiledProblem,
  answer: AnswerEvaluation,
): { reassigned_stops: ReassignedStop[]; reassignment_cost_total: number } | Record<string, never> {
  const r = p.reassignment;
  if (!r) return {};
  const stops: ReassignedStop[] = answer.routes.flatMap(({ vehicle, reassigned }) =>
    reassigned.map(({ node, previousVehicle }) => ({ node, previous_vehicle: previousVehicle, vehicle })),
  );
  stops.sort((a, b) => a.node - b.node);
  return { reassigned_stops: stops, reassignment_cost_total: withoutDust(r.price * stops.length) };
}
