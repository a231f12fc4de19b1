import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { distanceBetween, type CompiledProblem, type Solution } from "../core/problem.js";
import { regretInsertion } from "../core/repair.js";
import { Workspace } from "../core/workspace.js";
import { extractSubProblem, liftRoutes } from "../decomposition/subproblem.js";
import { solverNow } from "../core/clock.js";

/**
 * The large strategy's first solution. One start depot: the savings construction on the whole
 * problem. Several: the savings builds every route against one reference depot (its merges are
 * checked on the largest vehicle), which on a multi-depot problem sends most routes from the
 * wrong depot; so each customer goes to the depot nearest to it (out and back), each depot's
 * customers and vehicles become one sub-problem (without a dense matrix when it is large) built
 * by the savings, and whatever a depot's fleet could not take is inserted where it fits best on
 * the whole problem. `lambda` is the savings' shape parameter (clarke-wright/index.ts).
 */
export function largeStart(p: CompiledProblem, lambda = 1): Solution {
  const depots = [...new Set(p.startNode)];
  if (depots.length <= 1) return clarkeWrightSolution(p, lambda);
  const vehiclesOf = new Map<number, number[]>(depots.map((d) => [d, []]));
  for (let v = 0; v < p.vehicleCount; v++) vehiclesOf.get(p.startNode[v]!)!.push(v);
  const customersOf = new Map<number, number[]>(depots.map((d) => [d, []]));
  for (const c of p.customers) {
    let best = depots[0]!;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const d of depots) {
      const distance = distanceBetween(p, d, c) + distanceBetween(p, c, d);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = d;
      }
    }
    customersOf.get(best)!.push(c);
  }
  const routes: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  for (const d of depots) {
    const customers = customersOf.get(d)!;
    if (customers.length === 0) continue;
    const vehicles = vehiclesOf.get(d)!;
    // The depot's customers ride in as its first vehicle's "route": only the node set matters here.
    const sub = extractSubProblem(p, vehicles, [customers]);
    const built = clarkeWrightSolution(sub.problem, lambda);
    liftRoutes(sub, built).forEach((route, k) => (routes[vehicles[k]!] = route));
  }
  const ws = new Workspace(p, { routes });
  regretInsertion(ws, 2);
  return ws.solution();
}

/** The savings' shape parameters, in the order the clarke-wright strategy tries them. */
const LAMBDAS = [1, 0.8, 1.2, 1.5, 0.6];

/**
 * The cheapest of largeStart's variants over LAMBDAS (fewest unassigned customers first, as the
 * savings strategy ranks them) while they take at most START_SHARE of the budget: with vehicle
 * fixed costs or windows the variants differ by several percent, more than the decomposition
 * makes up for in a short run from a worse start.
 */
export function bestLargeStart(p: CompiledProblem, startedMs: number, deadlineMs: number, stop: () => boolean, share: number): Solution {
  let best: Solution | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const lambda of LAMBDAS) {
    const candidate = largeStart(p, lambda);
    const cost = new Workspace(p, candidate).cost();
    if (cost < bestCost) {
      bestCost = cost;
      best = candidate;
    }
    if (stop() || solverNow() - startedMs > share * (deadlineMs - startedMs)) break;
  }
  return best!;
}
