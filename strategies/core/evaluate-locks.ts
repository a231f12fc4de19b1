import type { CompiledProblem } from "./problem.js";

/**
 * The evaluator's part for locked stops (vehicle_locked_stops): vehicle v's route must begin with
 * its locked stops, in their order. With every customer visited at most once (checked with the
 * whole solution) that also keeps each locked stop off every other route. True without locks.
 */
export function keepsLocks(p: CompiledProblem, v: number, route: ArrayLike<number>, len = route.length): boolean {
  const head = p.locks?.stops[v];
  if (!head || head.length === 0) return true;
  if (len < head.length) return false;
  for (let k = 0; k < head.length; k++) if (route[k] !== head[k]) return false;
  return true;
}
