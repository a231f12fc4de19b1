// @ts-check
/** @import { Budget, CompiledProblem, Solution, Strategy } from "./strategy-types.js" */

/**
 * Distance from node i to node j: the matrix when the service built one, else the Euclidean
 * distance between coordinates (the service builds no matrix for very large problems).
 * @param {CompiledProblem} p
 * @param {number} i
 * @param {number} j
 */
function distance(p, i, j) {
  if (p.dist.length > 0) return /** @type {number} */ (p.dist[i * p.nodeCount + j]);
  const c = /** @type {Float64Array} */ (p.coords);
  return Math.hypot(c[2 * i] - c[2 * j], c[2 * i + 1] - c[2 * j + 1]);
}

/**
 * Each vehicle in turn leaves its start node and drives to the nearest customer still waiting
 * whose demand fits what it has left, until none fits. Deterministic: the budget's seed is unused.
 * @param {CompiledProblem} p
 * @param {Budget} budget
 * @returns {Solution}
 */
function solve(p, budget) {
  /** @type {number[][]} */
  const routes = Array.from({ length: p.vehicleCount }, () => []);
  const waiting = new Set(p.customers);
  for (let v = 0; v < p.vehicleCount && waiting.size > 0; v++) {
    let at = p.startNode[v];
    let room = p.capacity[v];
    for (;;) {
      // A cancel or the time limit stops the construction where it is; the service completes it.
      // (A search would call budget.tick() once per iteration instead, and budget.improved(best).)
      if (budget.exhausted()) return { routes };
      let best = -1;
      let bestDistance = Infinity;
      for (const c of waiting) {
        const d = distance(p, at, c);
        if (p.demand[c] <= room && d < bestDistance) [best, bestDistance] = [c, d];
      }
      if (best < 0) break;
      routes[v].push(best);
      waiting.delete(best);
      room -= p.demand[best];
      at = best;
    }
  }
  return { routes };
}

/** @type {Strategy} */
export const nearestNeighbour = {
  name: "nearest-neighbour",
  kind: "construction",
  // The request features this strategy handles; it must decline every other (see supports).
  // min_vehicles needs nothing of it: the service's route elimination runs around its plans.
  features: ["capacities", "distance_matrix", "multiple_depots", "mixed_fleet", "min_vehicles"],
  supports(p) {
    if (p.time) return { ok: false, reason: "nearest-neighbour ignores time windows" };
    if (p.rules) return { ok: false, reason: "nearest-neighbour does not handle optional stops, skills, shifts or route limits" };
    if (p.loads) return { ok: false, reason: "nearest-neighbour does not handle pickups, shipments or extra load dimensions" };
    if (p.locks) return { ok: false, reason: "nearest-neighbour does not keep locked stops" };
    if (p.travel) return { ok: false, reason: "nearest-neighbour does not handle travel profiles or open routes" };
    if (p.trips) return { ok: false, reason: "nearest-neighbour does not plan reload stops" };
    if (p.balance) return { ok: false, reason: "nearest-neighbour does not price balanced workloads" };
    if (p.visits) return { ok: false, reason: "nearest-neighbour does not handle ride times, incompatible goods or same-vehicle groups" };
    return { ok: true };
  },
  solve,
};
