import type { RestartPolicy } from "./ils-parts.js";

/** Iterations between two looks at the clock for a restart by share of the budget. */
const RESTART_CHECK = 20;

/**
 * Back to the best after `after` iterations without a new best, or (with `budgetShare`) after that
 * share of the budget without one, looked at every RESTART_CHECK iterations; the restart descends
 * from the best and the acceptance starts afresh from there.
 */
export class StagnationRestart implements RestartPolicy {
  readonly freshAcceptance = true;
  private iteration = 0;
  /** Iterations since the last new best or restart. */
  private stagnant = 0;
  /** Share of the budget used when the current best was found (-1: not read yet). */
  private progressAtBest = -1;
  constructor(
    private readonly after: number,
    private readonly budgetShare: number | null,
  ) {}

  due(sinceBest: number, bestKnown: boolean, progress: () => number): boolean {
    this.iteration++;
    this.stagnant = sinceBest === 0 ? 0 : this.stagnant + 1;
    if (sinceBest === 0) this.progressAtBest = -1;
    let stale = false;
    if (this.budgetShare !== null && bestKnown && this.iteration % RESTART_CHECK === 0) {
      const now = progress();
      if (this.progressAtBest < 0) this.progressAtBest = now;
      stale = now - this.progressAtBest >= this.budgetShare;
    }
    if (!((this.stagnant >= this.after || stale) && bestKnown)) return false;
    this.progressAtBest = -1;
    this.stagnant = 0;
    return true;
  }

  givesUp(): boolean {
    return false;
  }
}

/**
 * Back to the best every `every` iterations without a new best (the acceptance goes on as it
 * was), and on a tiny problem (`stopAfter`, core/budget.ts tinyProblemPatience) a stop once that
 * many iterations found nothing new.
 */
export class PeriodicRestart implements RestartPolicy {
  readonly freshAcceptance = false;
  constructor(
    private readonly every: number,
    private readonly stopAfter: number | null,
  ) {}

  due(sinceBest: number, bestKnown: boolean): boolean {
    return sinceBest > 0 && sinceBest % this.every === 0 && bestKnown;
  }

  givesUp(sinceBest: number): boolean {
    return this.stopAfter !== null && sinceBest >= this.stopAfter;
  }
}
