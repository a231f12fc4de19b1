import { balanceRefusal } from "./evaluate-balance.js";
import { rulesRefusal } from "./evaluate-rules.js";
import { loadRulesRefusal, lockedStopsRefusal, tripRulesRefusal, visitRulesRefusal, type CompiledProblem } from "./problem.js";
import type { StrategyFeature } from "./strategy.js";
import { travelRefusal } from "./travel.js";

/**
 * The refusal of a strategy that prices only the base rules (capacities, windows, depots, fleets):
 * the first further rule the problem uses, in the order partners most often meet them; null when
 * the problem uses none. Construction heuristics and the older searches share it, so a rule added
 * to the general search is refused by all of them in one place.
 */
export function baseRulesRefusal(p: CompiledProblem, strategy: string, claimed: readonly StrategyFeature[]): string | null {
  return (
    rulesRefusal(p, strategy) ??
    loadRulesRefusal(p, strategy) ??
    lockedStopsRefusal(p, strategy) ??
    balanceRefusal(p, strategy) ??
    tripRulesRefusal(p, strategy) ??
    visitRulesRefusal(p, strategy) ??
    travelRefusal(p, strategy, claimed)
  );
}
