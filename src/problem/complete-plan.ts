import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { unservedCustomers } from "./route-rules.js";
import { mustServe } from "./service-diagnostics.js";
import { allowedVehicles, cheapestInsertion } from "./unassigned.js";

/** Route evaluations (in customers visited) the completion may spend. */
const COMPLETION_BUDGET = 4_000_000;

/**
 * The service's promise on a plan that leaves customers out, kept whatever the strategy did:
 * every unserved required customer with a feasible insertion is inserted (allow_unassigned never
 * trades a required customer against cost), and every optional one whose cheapest feasible
 * insertion costs less than its skip penalty. One greedy pass in node order, each at its cheapest
 * place; a no-op on a plan the search left locally optimal, and on problems without rules.
 * Returns how many customers were inserted.
 */
export function completePlan(p: CompiledProblem, s: Solution): number {
  const rules = p.rules;
  if (!rules) return 0;
  const unserved = unservedCustomers(p, s);
  if (unserved.length === 0) return 0;
  let work = 0;
  for (const route of s.routes) work += (route.length + 2) * (route.length + 3);
  if (work * unserved.length > COMPLETION_BUDGET) return 0;
  const routeCosts = s.routes.map((r, v) => evaluateRoute(p, v, r).cost);
  let inserted = 0;
  // Required customers first: they must be placed wherever they fit, before optional ones take the room.
  const ordered = [...unserved.filter((c) => mustServe(p, c)), ...unserved.filter((c) => !mustServe(p, c))];
  for (const c of ordered) {
    // A stop of a same-vehicle group goes in with its whole group, which only the search places.
    if ((p.visits?.groupOf?.[c] ?? -1) >= 0) continue;
    const best = cheapestInsertion(p, s, c, allowedVehicles(p, c), routeCosts);
    if (!best) continue;
    if (!mustServe(p, c) && !(best.delta < rules.skipPenalty[c]! - 1e-9)) continue;
    s.routes[best.vehicle]!.splice(best.position, 0, c);
    routeCosts[best.vehicle] = evaluateRoute(p, best.vehicle, s.routes[best.vehicle]!).cost;
    inserted++;
  }
  return inserted;
}
