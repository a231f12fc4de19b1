import type { components } from "../../generated/api.js";
import type { AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { vehicleLabel, withoutDust } from "./message-numbers.js";

export type LoadResultField = "loads_on_board" | "extra_loads_on_board";
type SolvedResult = components["schemas"]["SolvedResult"];

/**
 * The result's `loads_on_board` (and `extra_loads_on_board` when there are extra dimensions),
 * read off the evaluated schedule of each used vehicle (keyed by label, like `loads`); nothing
 * at all for a request without load rules, whose result stays exactly what it was before.
 */
export function loadResultFields(p: CompiledProblem, answer: AnswerEvaluation): Pick<SolvedResult, LoadResultField> {
  if (!p.loads) return {};
  const onBoard: Record<string, number[]> = {};
  const extra: Record<string, number[][]> = {};
  for (const { vehicle, route, schedule } of answer.routes) {
    if (route.length === 0) continue;
    const label = vehicleLabel(vehicle);
    onBoard[label] = (schedule.onBoard ?? []).map(withoutDust);
    extra[label] = (schedule.extraOnBoard ?? []).map((row) => row.map(withoutDust));
  }
  return p.loads.extraDims > 0 ? { loads_on_board: onBoard, extra_loads_on_board: extra } : { loads_on_board: onBoard };
}
