import type { components } from "../../generated/api.js";
import type { RouteSchedule } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";

export type LoadResultField = "loads_on_board" | "extra_loads_on_board";
type SolvedResult = components["schemas"]["SolvedResult"];

/** Rounds away floating-point dust (e.g. 70.00000000000001) without changing real values. */
function clean(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/**
 * The result's `loads_on_board` (and `extra_loads_on_board` when there are extra dimensions),
 * read off the evaluator's schedule of each used vehicle (keyed by label, like `loads`); nothing
 * at all for a request without load rules, whose result stays exactly what it was before.
 */
export function loadResultFields(p: CompiledProblem, schedules: ReadonlyMap<string, RouteSchedule>): Pick<SolvedResult, LoadResultField> {
  if (!p.loads) return {};
  const onBoard: Record<string, number[]> = {};
  const extra: Record<string, number[][]> = {};
  for (const [label, schedule] of schedules) {
    onBoard[label] = (schedule.onBoard ?? []).map(clean);
    extra[label] = (schedule.extraOnBoard ?? []).map((row) => row.map(clean));
  }
  return p.loads.extraDims > 0 ? { loads_on_board: onBoard, extra_loads_on_board: extra } : { loads_on_board: onBoard };
}
