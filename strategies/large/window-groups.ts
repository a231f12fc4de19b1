import { windowsBindAgainst, type CompiledProblem } from "../core/problem.js";
import { textbookMismatch } from "../search/textbook-model.js";

/**
 * Whether the decomposition grows its groups on time-aware neighbour links
 * (decomposition/window-near.ts) instead of spatial ones: textbook problems (one depot,
 * identical vehicles) with binding hard windows only (issue 20), measured in BENCHMARKS.md;
 * capacity-only problems and several depots or mixed fleets keep their spatial groups.
 * LARGE_WINDOW_GROUPS=0 turns it off, an internal switch for measurement like settings.ts's.
 */
export function windowAwareGroups(p: CompiledProblem): boolean {
  if (process.env.LARGE_WINDOW_GROUPS !== "1") return false;
  if (!p.time || textbookMismatch(p) !== null || p.loads) return false;
  return windowsBindAgainst(p, p.startNode[0]!);
}
