import type { components } from "../../generated/api.js";
import { reassignedCount } from "../../strategies/core/evaluate-reassignment.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { withoutDust } from "./message-numbers.js";

type ReassignedStop = components["schemas"]["ReassignedStop"];

/**
 * The result's re-planning fields for a request with a reassignment cost: the stops the answer
 * serves on another vehicle than the given plan did, ascending by node, and what they cost (the
 * evaluator's rule, so the total matches the routes' costs). Nothing without that cost.
 */
export function reassignmentFields(
  p: CompiledProblem,
  solution: Solution,
): { reassigned_stops: ReassignedStop[]; reassignment_cost_total: number } | Record<string, never> {
  const r = p.reassignment;
  if (!r) return {};
  const stops: ReassignedStop[] = [];
  solution.routes.forEach((route, v) => {
    for (const node of route) {
      const home = r.home[node] ?? -1;
      if (home >= 0 && home !== v) stops.push({ node, previous_vehicle: home, vehicle: v });
    }
  });
  stops.sort((a, b) => a.node - b.node);
  return { reassigned_stops: stops, reassignment_cost_total: withoutDust(r.price * stops.length) };
}

/** One route's share of the reassignment cost, for its route detail. */
export function routeReassignmentCost(p: CompiledProblem, v: number, route: readonly number[]): number {
  return p.reassignment ? withoutDust(p.reassignment.price * reassignedCount(p.reassignment, v, route)) : 0;
}
