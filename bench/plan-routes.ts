import type { SolveRequestInput } from "../src/problem/request-types.js";
import type { CompiledSolver } from "./compiled-solver.js";

/** A solved plan as the fewest-vehicles benches compare it: its non-empty routes, customers only. */
export interface SolvedPlan {
  routes: number[][];
  vehicles: number;
  distance: number;
}

/**
 * Solves `request` with the compiled solver; null when it is not solved. `onImprovement`, when
 * given, hears every new best plan's non-empty routes during the search.
 */
export function solvePlan(
  solver: CompiledSolver,
  request: SolveRequestInput,
  seconds: number,
  seed: number,
  onImprovement?: (routes: number[][]) => void,
): SolvedPlan | null {
  const observer = onImprovement
    ? {
        searchStarted: (budget: { onImprovement(l: (s: { routes: number[][] }) => void): void }) =>
          budget.onImprovement((s) => onImprovement(s.routes.filter((r) => r.length > 0))),
      }
    : undefined;
  const outcome = solver.solveRequest(request, { requestId: request.name ?? "bench", timeLimitSeconds: seconds, seed, observer });
  if (outcome.status !== "solved") return null;
  const depots = new Set([...request.start_nodes, ...request.end_nodes]);
  const routes = Object.values(outcome.result.routes as Record<string, number[]>)
    .map((r) => r.filter((c) => !depots.has(c)))
    .filter((r) => r.length > 0);
  return { routes, vehicles: routes.length, distance: outcome.result.total_distance as number };
}
