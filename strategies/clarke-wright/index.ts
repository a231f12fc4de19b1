import { baseRulesRefusal } from "../core/base-rules-refusal.js";
import type { Budget } from "../core/budget.js";
import { evaluateRoute } from "../core/evaluator.js";
import { nearestNeighbours } from "../core/neighbours.js";
import { distanceBetween, type CompiledProblem, type Solution } from "../core/problem.js";
import { regretInsertion } from "../core/repair.js";
import type { Strategy } from "../core/strategy.js";
import { Workspace } from "../core/workspace.js";

/**
 * Parallel Clarke-Wright savings, adapted: savings against the first vehicle's depot on a
 * granular pair list; merges checked for capacity (largest vehicle) and, with a time dimension,
 * schedule feasibility on that vehicle; then routes are matched to the cheapest fitting vehicles
 * (heterogeneous fleet, several depots) and anything left over is inserted by regret.
 */
export function clarkeWrightSolution(p: CompiledProblem, lambda = 1): Solution {
  const n = p.nodeCount;
  const customers = Array.from(p.customers);
  let reference = 0;
  for (let v = 1; v < p.vehicleCount; v++) if (p.capacity[v]! > p.capacity[reference]!) reference = v;
  const depot = p.startNode[reference]!;
  const back = p.endNode[reference]!;
  const maxCapacity = p.capacity[reference]!;
  const fixedBonus = p.fixedCost[reference]!;

  const near = nearestNeighbours(p, Math.min(60, customers.length));
  const pairs: { i: number; j: number; saving: number }[] = [];
  for (const i of customers) {
    for (const j of near[i]!) {
      const saving =
        p.unitCost[reference]! * (distanceBetween(p, i, back) + distanceBetween(p, depot, j) - lambda * distanceBetween(p, i, j)) +
        fixedBonus;
      if (saving > 0) pairs.push({ i, j, saving });
    }
  }
  pairs.sort((a, b) => b.saving - a.saving);

  const routeOf = new Int32Array(n).fill(-1);
  const routes: (number[] | null)[] = customers.map((c, k) => {
    routeOf[c] = k;
    return [c];
  });
  const loads = customers.map((c) => p.demand[c]!);
  for (const { i, j } of pairs) {
    const a = routeOf[i]!;
    const b = routeOf[j]!;
    if (a === b || a < 0 || b < 0) continue;
    const ra = routes[a]!;
    const rb = routes[b]!;
    if (ra[ra.length - 1] !== i || rb[0] !== j) continue;
    if (loads[a]! + loads[b]! > maxCapacity + 1e-9) continue;
    const merged = ra.concat(rb);
    if (p.time && !evaluateRoute(p, reference, merged).feasible) continue;
    routes[a] = merged;
    loads[a] = loads[a]! + loads[b]!;
    routes[b] = null;
    for (const c of rb) routeOf[c] = a;
  }

  const ws = new Workspace(p);
  const built = routes.filter((r): r is number[] => r !== null).sort((x, y) => loadOf(p, y) - loadOf(p, x));
  const free = new Set<number>(Array.from({ length: p.vehicleCount }, (_, v) => v));
  for (const route of built) {
    let bestV = -1;
    let bestCost = Number.POSITIVE_INFINITY;
    for (const v of free) {
      const score = evaluateRoute(p, v, route);
      if (score.feasible && score.cost < bestCost) {
        bestCost = score.cost;
        bestV = v;
      }
    }
    if (bestV < 0) continue;
    free.delete(bestV);
    for (const c of route) ws.insert(c, bestV, ws.routes[bestV]!.length);
  }
  regretInsertion(ws, 2);
  return ws.solution();
}

function loadOf(p: CompiledProblem, route: number[]): number {
  let load = 0;
  for (const c of route) load += p.demand[c]!;
  return load;
}

export const clarkeWright: Strategy = {
  name: "clarke-wright",
  kind: "construction",
  features: ["capacities", "distance_matrix", "time_windows", "multiple_depots", "mixed_fleet", "min_vehicles"],
  // Also the selection's last resort (select.ts), which calls it whatever supports says.
  supports: (p) => {
    const refusal = baseRulesRefusal(p, "clarke-wright", clarkeWright.features);
    return refusal ? { ok: false, reason: refusal } : { ok: true };
  },
  solve(p: CompiledProblem, budget: Budget): Solution {
    // A few shape parameters (the classic lambda variants) while time allows; keep the best.
    let best: Solution | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    for (const lambda of [1, 0.8, 1.2, 1.5, 0.6]) {
      const candidate = clarkeWrightSolution(p, lambda);
      const ws = new Workspace(p, candidate);
      if (ws.cost() < bestCost) {
        bestCost = ws.cost();
        best = candidate;
      }
      if (budget.tick()) break;
    }
    return best!;
  },
};
