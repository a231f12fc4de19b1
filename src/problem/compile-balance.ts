import type { Balance } from "../../strategies/core/problem.js";
import type { SolveRequestInput } from "./request-types.js";

/**
 * The request's balance as the problem's balance term, or null without it (a request without it
 * compiles exactly as before). Working minutes need the time dimension: validation refuses
 * `duration` without it, and a caller that skipped validation gets no term rather than a zero one.
 */
export function compileBalance(req: Pick<SolveRequestInput, "balance">, timed: boolean): Balance | null {
  const b = req.balance;
  if (!b || !(b.cost_per_unit > 0)) return null;
  if (b.measure === "duration" && !timed) return null;
  return { measure: b.measure, costPerUnit: b.cost_per_unit };
}
