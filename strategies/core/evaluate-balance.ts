import { isReloadStop } from "./evaluate-trips.js";
import type { Balance, CompiledProblem } from "./problem.js";

/** The score figures a route's workload is read from (evaluator.ts RouteScore). */
interface ScoredRoute {
  distance: number;
  durationMin: number;
}

/**
 * The evaluator's part for balance: vehicle v's workload on this route, in the request's measure.
 * Working minutes are the schedule's (start node to end node, waiting included, as the working
 * hours cap counts them); stops are the customers served, reload stops not counted. 0 when empty.
 */
export function routeWorkload(p: CompiledProblem, b: Balance, v: number, route: ArrayLike<number>, score: ScoredRoute): number {
  if (route.length === 0) return 0;
  if (b.measure === "distance") return score.distance;
  if (b.measure === "duration") return score.durationMin;
  let stops = 0;
  for (let k = 0; k < route.length; k++) if (!(p.trips && isReloadStop(p.trips, v, route[k]!))) stops++;
  return stops;
}

/** The balance term of a plan whose routes have these workloads: the price of the largest (0 for none). */
export function balanceCost(b: Balance, workloads: ArrayLike<number>): number {
  let largest = 0;
  for (let k = 0; k < workloads.length; k++) if (workloads[k]! > largest) largest = workloads[k]!;
  return b.costPerUnit * largest;
}

/** The refusal of a strategy whose search does not price the largest workload, for problems with balance; null without it. */
export function balanceRefusal(p: CompiledProblem, strategy: string): string | null {
  if (!p.balance) return null;
  return `the ${strategy} strategy does not price balance (the largest route workload); use the hgs strategy`;
}
