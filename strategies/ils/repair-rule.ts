import type { Rng } from "../core/rng.js";

/** Share of infeasible outcomes repaired when repairs yield new bests at the rate the descents do (HGS's half), and the most. */
const LEVEL_SHARE = 0.5;
/** The least share still repaired, so that a rule that stopped repairing keeps measuring what repairs would pay. */
const FLOOR_SHARE = 0.05;
/** Descents' worth of examined customers that the repairs' yield starts from at the descents' yield. */
const PRIOR_DESCENTS = 20;

/**
 * Which infeasible outcomes get a repair once a feasible plan is known, decided from what repairs
 * have paid in this search: new bests per customer the local search examined in repairs, against
 * new bests per customer examined in the iterations' own descents. A repair is work that an
 * iteration could have spent searching; where repairs find new bests as cheaply as descents do,
 * half the outcomes are repaired, fewer as they pay less. Never more than half: where most
 * feasible outcomes come out of repairs (binding windows), the new bests do too, however many
 * iterations the repairs cost, so their yield would speak for repairs it does not measure.
 * Work is counted in examined customers rather than time, so that a seed gives the same routes on
 * any machine. A search that never goes infeasible only adds up its descents.
 */
export class RepairRule {
  private descentWork = 0;
  private descentBests = 0;
  private descents = 0;
  private repairWork = 0;
  private repairBests = 0;
  /** The current outcome's repair work (-1: it was not repaired), until its verdict. */
  private pendingRepair = -1;
  private counting = false;

  constructor(private readonly rng: Rng) {}

  /** Share of infeasible outcomes to repair now (before a feasible plan is known, every one). */
  share(bestKnown: boolean): number {
    if (!bestKnown) return 1;
    const descentYield = (this.descentBests + 1) / (this.descentWork + 1);
    const prior = (PRIOR_DESCENTS * (this.descentWork + 1)) / (this.descents + 1);
    const repairYield = (this.repairBests + descentYield * prior) / (this.repairWork + prior);
    return Math.min(LEVEL_SHARE, Math.max(FLOOR_SHARE, (LEVEL_SHARE * repairYield) / descentYield));
  }

  /** Whether this infeasible outcome gets a repair attempt. */
  repairs(bestKnown: boolean): boolean {
    return !bestKnown || this.rng.next() < this.share(bestKnown);
  }

  /** The iteration's descent examined `work` customers; counted once a feasible plan is known. */
  descended(work: number, bestKnown: boolean): void {
    this.counting = bestKnown;
    this.pendingRepair = -1;
    if (!bestKnown) return;
    this.descentWork += work;
    this.descents++;
  }

  /** The outcome was repaired, examining `work` customers. */
  repaired(work: number): void {
    if (this.counting) this.pendingRepair = work;
  }

  /** The outcome's verdict: whether it became the new best. */
  outcome(newBest: boolean): void {
    if (!this.counting) return;
    if (this.pendingRepair >= 0) {
      this.repairWork += this.pendingRepair;
      if (newBest) this.repairBests++;
    } else if (newBest) this.descentBests++;
    this.counting = false;
  }
}
