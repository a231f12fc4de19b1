import type { Reassignment } from "./problem.js";

/** The evaluator's part for reassignment_cost: how many stops of the route had another vehicle in the given plan. */
export function reassignedCount(r: Reassignment, v: number, route: ArrayLike<number>, len = route.length): number {
  let count = 0;
  for (let k = 0; k < len; k++) {
    const home = r.home[route[k]!]!;
    if (home >= 0 && home !== v) count++;
  }
  return count;
}
