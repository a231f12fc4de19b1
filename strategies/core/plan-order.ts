import type { CompiledProblem, Solution } from "./problem.js";

/** What a plan is ranked by: vehicles used (counted only under min_vehicles), then cost. */
export interface PlanRank {
  vehicles: number;
  cost: number;
}

/** Vehicles with at least one stop on their route. */
export function usedVehicles(routes: readonly (readonly number[])[]): number {
  let used = 0;
  for (const route of routes) if (route.length > 0) used++;
  return used;
}

/** The rank of a plan of cost `cost` on problem p. */
export function planRank(p: CompiledProblem, plan: Solution, cost: number): PlanRank {
  return { vehicles: p.minVehicles ? usedVehicles(plan.routes) : 0, cost };
}

/**
 * The one comparison of two plans: negative when `a` is better. Under min_vehicles the fewer
 * vehicles win whatever the cost (the hierarchical objective); otherwise, and at equal vehicles,
 * the lower cost.
 */
export function comparePlans(a: PlanRank, b: PlanRank): number {
  if (a.vehicles !== b.vehicles) return a.vehicles - b.vehicles;
  return a.cost - b.cost;
}

/** Whether `a` is strictly better than `b`. */
export function betterPlan(a: PlanRank, b: PlanRank): boolean {
  return comparePlans(a, b) < 0;
}
