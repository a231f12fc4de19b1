import type { LocalSearch } from "../search/local-search.js";
import type { Routes } from "../search/routes.js";
import type { PriceAdaptation } from "./ils-parts.js";
import type { MovedStopsFront } from "./moved-stops-front.js";

/** Feasible outcomes between two changes of the price. */
const SEGMENT = 50;
/** The share of feasible outcomes within the allowance that the price aims at, and the band around it left alone. */
const TARGET = 0.5;
const BAND = 0.1;
/** The price's change per segment, and its bounds as multiples of the default price. */
const STEP = 1.2;
const LOWEST = 0.1;
const HIGHEST = 10;

/**
 * Under the service's default reassignment price, the search's price per moved stop adapts as the
 * prices of infeasibility do: raised while most feasible outcomes move more stops than the front's
 * allowance (moved-stops-front.ts), lowered while most move fewer. So the search walks along the
 * allowance, where the front's answer lies, on instances where moving pays much and where it pays
 * little alike. The prices of infeasibility adapt as before (`inner`).
 */
export class MovesPrice implements PriceAdaptation {
  readonly beforeRestart: boolean;
  private price: number;
  constructor(
    private readonly inner: PriceAdaptation,
    private readonly front: MovedStopsFront,
    private readonly rs: Routes,
    private readonly ls: LocalSearch,
    private readonly defaultPrice: number,
  ) {
    this.beforeRestart = inner.beforeRestart;
    this.price = defaultPrice;
  }

  adaptWhenDue(): boolean {
    const changed = this.inner.adaptWhenDue();
    const counts = this.front.takeCounts(SEGMENT);
    if (!counts) return changed;
    const share = counts.within / counts.feasible;
    const next =
      share > TARGET + BAND
        ? Math.max(LOWEST * this.defaultPrice, this.price / STEP)
        : share < TARGET - BAND
          ? Math.min(HIGHEST * this.defaultPrice, this.price * STEP)
          : this.price;
    if (next === this.price) return changed;
    this.price = next;
    this.rs.setReassignmentPrice(next);
    if (!this.ls.settings.freshRuns) this.ls.forget();
    return true;
  }
}
