import type { CompiledProblem, Solution } from "../../core/problem.js";
import type { ProblemData } from "../problem-data.js";

/** Customers missing from a construction go to the end of the last route, so that LS repairs them. */
export function completeRoutes(m: ProblemData, routes: number[][]): number[][] {
  const seen = new Uint8Array(m.nodeCount);
  // With more vehicles than routes in the model, keep the construction's non-empty routes.
  const used = routes.length > m.routes ? routes.filter((r) => r.length > 0) : routes;
  const out = Array.from({ length: m.routes }, (_, r) => (used[r] ?? []).filter((c) => !seen[c] && (seen[c] = 1)));
  for (const c of m.customers) if (!seen[c]) out[m.routes - 1]!.push(c);
  return out;
}

/** One list per vehicle of the request: the non-empty routes first. */
export function toSolution(p: CompiledProblem, routes: number[][]): Solution {
  const out: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  let v = 0;
  for (const route of routes) if (route.length > 0) out[v++] = route.slice();
  return { routes: out };
}
