import type { components } from "../../generated/api.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { fullRoute, loadProfile } from "./load-profile.js";

export type LoadResultField = "loads_on_board" | "extra_loads_on_board";
type SolvedResult = components["schemas"]["SolvedResult"];

/** Rounds away floating-point dust (e.g. 70.00000000000001) without changing real values. */
function clean(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/**
 * The result's `loads_on_board` (and `extra_loads_on_board` when there are extra dimensions),
 * per used vehicle; nothing at all for a request without load rules, whose result stays exactly
 * what it was before these fields existed.
 */
export function loadResultFields(p: CompiledProblem, solution: Solution): Pick<SolvedResult, LoadResultField> {
  const rules = p.loads;
  if (!rules) return {};
  const onBoard: Record<string, number[]> = {};
  const extra: Record<string, number[][]> = {};
  solution.routes.forEach((customers, v) => {
    if (customers.length === 0) return;
    const profile = loadProfile(p, rules, fullRoute(p, v, customers));
    onBoard[`Vehicle ${v}`] = profile.onBoard.map(clean);
    extra[`Vehicle ${v}`] = profile.extraOnBoard.map((row) => row.map(clean));
  });
  return rules.extraDims > 0 ? { loads_on_board: onBoard, extra_loads_on_board: extra } : { loads_on_board: onBoard };
}
