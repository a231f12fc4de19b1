import type { LocalSearch } from "../search/local-search.js";
import type { PenaltyManager } from "../search/penalty-manager.js";
import type { PriceAdaptation } from "./ils-parts.js";

/**
 * The search's prices of infeasibility (search/penalty-manager.ts), set on the local search once a
 * segment of outcomes is in. A local search whose runs are not fresh then forgets the moves it
 * found not to improve, since their prices changed. `beforeRestart`: see PriceAdaptation.
 */
export class AdaptivePrices implements PriceAdaptation {
  constructor(
    readonly manager: PenaltyManager,
    private readonly ls: LocalSearch,
    readonly beforeRestart: boolean,
  ) {}

  adaptWhenDue(): boolean {
    if (!this.manager.adapt()) return false;
    const ls = this.ls;
    ls.penalties = this.manager.current;
    ls.reprice();
    if (!ls.settings.freshRuns) ls.forget();
    return true;
  }
}
