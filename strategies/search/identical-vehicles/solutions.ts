import type { CompiledProblem, Solution } from "../../core/problem.js";
import type { ProblemData } from "../problem-data.js";

/**
 * The construction's routes, one per route slot, with every customer it left out (savings that
 * did not fit the fleet) placed where it adds the least excess load, then the least distance, so
 * that the local search starts from overloads spread thin over the routes with room rather than
 * piled on one route. Under an order rule or several load dimensions (backhauls, shipments), which
 * this placement does not price, a left-out customer goes to the end of the last route instead.
 */
export function completeRoutes(m: ProblemData, routes: number[][]): number[][] {
  const seen = new Uint8Array(m.nodeCount);
  // With more vehicles than routes in the model, keep the construction's non-empty routes.
  const used = routes.length > m.routes ? routes.filter((r) => r.length > 0) : routes;
  const out = Array.from({ length: m.routes }, (_, r) => (used[r] ?? []).filter((c) => !seen[c] && (seen[c] = 1)));
  const missing = Array.from(m.customers).filter((c) => !seen[c]);
  if (m.order !== null || m.richLoads) {
    for (const c of missing) out[m.routes - 1]!.push(c);
    return out;
  }
  const loads = out.map((route) => route.reduce((sum, c) => sum + m.demand[c]!, 0));
  // The largest first: they have the fewest places with room.
  missing.sort((a, b) => m.demand[b]! - m.demand[a]! || a - b);
  for (const c of missing) {
    const place = leastExcessPlace(m, out, loads, c);
    out[place.route]!.splice(place.position, 0, c);
    loads[place.route]! += m.demand[c]!;
  }
  return out;
}

/** Where customer c adds the least excess load over its route's capacity, ties broken by the distance added. */
function leastExcessPlace(m: ProblemData, routes: number[][], loads: number[], c: number): { route: number; position: number } {
  const n = m.nodeCount;
  let best = { route: m.routes - 1, position: routes[m.routes - 1]!.length };
  let bestExcess = Number.POSITIVE_INFINITY;
  let bestDetour = Number.POSITIVE_INFINITY;
  for (let r = 0; r < m.routes; r++) {
    const route = routes[r]!;
    const excess = Math.max(0, loads[r]! + m.demand[c]! - m.capacity[r]!) - Math.max(0, loads[r]! - m.capacity[r]!);
    if (excess > bestExcess) continue;
    for (let i = 0; i <= route.length; i++) {
      const before = i === 0 ? m.start[r]! : route[i - 1]!;
      const after = i === route.length ? m.end[r]! : route[i]!;
      const detour = m.dist[before * n + c]! + m.dist[c * n + after]! - m.dist[before * n + after]!;
      if (excess < bestExcess || detour < bestDetour) {
        best = { route: r, position: i };
        bestExcess = excess;
        bestDetour = detour;
      }
    }
  }
  return best;
}

/** One list per vehicle of the request: the non-empty routes first. */
export function toSolution(p: CompiledProblem, routes: number[][]): Solution {
  const out: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  let v = 0;
  for (const route of routes) if (route.length > 0) out[v++] = route.slice();
  return { routes: out };
}
