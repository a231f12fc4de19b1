import { Budget } from "../core/budget.js";
import { evaluateSolution } from "../core/evaluator.js";
import { nearestNeighbours } from "../core/neighbours.js";
import { cloneSolution, loadRulesRefusal, type CompiledProblem, type Solution } from "../core/problem.js";
import type { Strategy } from "../core/strategy.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { hgs } from "../hgs/index.js";
import { pickRouteGroup } from "../decomposition/group.js";
import { extractSubProblem, liftRoutes } from "../decomposition/subproblem.js";

/**
 * Customers per sub-problem, and the hgs time for each: measured on XXL Leuven1 and Ghent1
 * (40 s, side by side on the two cores; BENCHMARKS.md): many small groups, each given to hgs for
 * 10 ms (it educates the group's current routes and a few random ones, and breeds from them),
 * beat fewer larger groups with seconds of genetic search each: gap 1.13% / 1.58% with 50
 * customers and 10 ms, 1.48% / 1.73% with 100, 2.28% / 2.72% with 200 customers and about a
 * second each, 2.9% / 3.4% with 200 and four seconds; 25 customers was worse (1.83% / 2.02%), and
 * so was 50 with 0.1 s each (1.32% / 2.20%). One hgs iteration instead of 10 ms (only the local
 * search of the current routes) improved far less often (Leuven1 at 15 s: 91 improvements in
 * 14,771 groups, 2.42%, against 224 in 1,099 groups, 1.41%).
 */
export const SUB_PROBLEM_CUSTOMERS = 50;
const SUB_SECONDS = 0.01;
/** Up to this size the whole problem goes to hgs at once (it has the matrix there). */
const WHOLE_PROBLEM_CUSTOMERS = 300;

/** Why the large strategy cannot take a problem, or null: its sub-problems must suit hgs. */
function refusal(p: CompiledProblem): string | null {
  if (p.customers.length < 2) return "it needs at least two customers";
  if (p.time) return "it solves capacity-only problems (no time windows, service times or working hours)";
  const depot = p.startNode[0]!;
  for (let v = 0; v < p.vehicleCount; v++) {
    if (p.startNode[v] !== depot || p.endNode[v] !== depot) return "it needs every vehicle to start and end at one depot";
    if (p.capacity[v] !== p.capacity[0] || p.fixedCost[v] !== p.fixedCost[0] || p.unitCost[v] !== p.unitCost[0]) {
      return "it needs identical vehicles (same capacity and costs)";
    }
  }
  return null;
}

/**
 * Large problems (thousands of customers): a savings construction on granular lists (a feasible
 * solution within seconds even at 30,000 customers), then improvement by decomposition: a group
 * of neighbouring routes with about SUB_PROBLEM_CUSTOMERS customers (and at least three routes)
 * becomes a small problem with its own dense matrix, hgs searches it for SUB_SECONDS from the
 * group's current routes, and the result replaces the group when it is cheaper. It works without
 * the full matrix (distances from coordinates).
 */
export const large: Strategy = {
  name: "large",
  supports(p) {
    const reason = refusal(p) ?? loadRulesRefusal(p, "large");
    return reason ? { ok: false, reason: `the large strategy cannot take this request: ${reason}` } : { ok: true };
  },
  solve(p: CompiledProblem, budget: Budget): Solution {
    // A problem that one sub-problem would cover is hgs's own (it also stops early on tiny ones).
    if (p.customers.length <= WHOLE_PROBLEM_CUSTOMERS && hgs.supports(p).ok) return hgs.solve(p, budget);
    const current = clarkeWrightSolution(p);
    const score = evaluateSolution(p, current);
    if (score.feasible) budget.improved(cloneSolution(current));
    if (!score.feasible) {
      // Decomposition only reshuffles routes; it cannot place customers the savings left out (a
      // fleet too small for its routes). hgs can, searching through overloaded routes, when it
      // has the matrix; without it the savings' answer goes back (and fails as infeasible).
      return hgs.supports(p).ok ? hgs.solve(p, budget) : current;
    }

    // hgs through its Strategy interface only: a black box on each small dense sub-problem.
    const subSolver: Strategy = hgs;
    const near = nearestNeighbours(p, 20);
    const routeOf = new Int32Array(p.nodeCount).fill(-1);
    current.routes.forEach((r, v) => r.forEach((c) => (routeOf[c] = v)));
    const target = Math.min(SUB_PROBLEM_CUSTOMERS, p.customers.length);

    while (!budget.tick()) {
      const group = pickRouteGroup(current.routes, routeOf, near, target, budget.rng);
      // One empty vehicle, when the fleet has one, lets the group open a route.
      const spare = current.routes.findIndex((r) => r.length === 0);
      const vehicles = spare >= 0 ? [...group, spare] : group;
      const sub = extractSubProblem(p, vehicles, vehicles.map((v) => current.routes[v]!));
      if (sub.problem.customers.length < 2) continue;
      const before = evaluateSolution(sub.problem, sub.start).cost;
      const subBudget = new Budget(Math.min(budget.deadlineMs, performance.now() + SUB_SECONDS * 1000), budget.rng.int(2 ** 31), Number.POSITIVE_INFINITY, () => budget.exhausted());
      const found = subSolver.solve(sub.problem, subBudget, sub.start);
      const after = evaluateSolution(sub.problem, found);
      if (!after.feasible || after.cost >= before - 1e-7) continue;
      liftRoutes(sub, found).forEach((route, k) => {
        const v = vehicles[k]!;
        current.routes[v] = route;
        for (const c of route) routeOf[c] = v;
      });
      // The group's routes are feasible (checked above) and no other route changed.
      budget.improved(cloneSolution(current));
    }
    return current;
  },
};
