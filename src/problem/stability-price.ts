import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { compileReassignment, initialSolution } from "./compile-plan.js";
import type { SolveRequestInput } from "./request-types.js";

/**
 * A re-plan during the day (initial_routes with locked stops) that names no reassignment_cost is
 * searched as if a stop moved to another vehicle cost, at first, this share of the given plan's
 * cost per stop: the dispatcher wants a better plan, not a new one that moves every driver.
 * Reported costs leave it out. The trade-off of cost against moved stops behind the shares is in
 * BENCHMARKS.md (Re-planning).
 */
export const DEFAULT_REASSIGNMENT_SHARE = 0.06;

/**
 * With that default price the answer moves at most this share of the unlocked stops, whenever a
 * feasible plan the search met does, and is the cheapest such plan without the price; the search's
 * price adapts to keep it near that share (strategies/ils/moved-stops-front.ts, moves-price.ts).
 */
export const DEFAULT_MOVED_SHARE = 0.1;

/**
 * The problem the search solves: `problem` itself, or, for a re-plan with locked stops and no
 * reassignment_cost of its own, `problem` with the default reassignment price and moved share.
 * Answers are still scored and formatted on `problem`, so the price only steers the search.
 */
export function searchedProblem(
  problem: CompiledProblem,
  request: SolveRequestInput,
  plan: Solution | null = initialSolution(request, problem.vehicleCount),
): CompiledProblem {
  const price = defaultReassignmentCost(problem, request, plan);
  if (price === null) return problem;
  const reassignment = compileReassignment({ ...request, reassignment_cost: price }, problem.nodeCount, problem.isDepot);
  return reassignment ? { ...problem, reassignment: { ...reassignment, movedShare: DEFAULT_MOVED_SHARE } } : problem;
}

/**
 * The default price of a stop moved to another vehicle for this request, or null when none
 * applies. `plan`: the request's initial_routes as a solution, when the caller has it already.
 */
export function defaultReassignmentCost(
  problem: CompiledProblem,
  request: SolveRequestInput,
  plan: Solution | null = initialSolution(request, problem.vehicleCount),
): number | null {
  if (request.reassignment_cost !== undefined || !problem.locks || problem.reassignment || !plan) return null;
  let stops = 0;
  for (const route of plan.routes) for (const c of route) if (!problem.isDepot[c]) stops++;
  const cost = evaluateSolution(problem, plan).cost;
  if (stops === 0 || !(cost > 0)) return null;
  return (DEFAULT_REASSIGNMENT_SHARE * cost) / stops;
}
