import { windowsBindAgainst, type CompiledProblem } from "../core/problem.js";
import { textbookMismatch } from "../search/textbook-model.js";

/**
 * Whether the decomposition grows its groups on time-aware neighbour links
 * (decomposition/window-near.ts) instead of spatial ones. Off unless LARGE_WINDOW_GROUPS=1, an
 * internal switch for measurement like settings.ts's: time-aware groups did not beat the spatial
 * ones (BENCHMARKS.md). Even then only for textbook problems (one depot, identical vehicles)
 * with binding hard windows; the others keep their spatial groups.
 */
export function windowAwareGroups(p: CompiledProblem): boolean {
  if (process.env.LARGE_WINDOW_GROUPS !== "1") return false;
  if (!p.time || textbookMismatch(p) !== null || p.loads) return false;
  return windowsBindAgainst(p, p.startNode[0]!);
}
