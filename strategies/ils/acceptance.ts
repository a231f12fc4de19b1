/**
 * Acceptance criteria of the iterated local search (iterated-local-search.ts): given the penalised
 * cost of the current solution and of a new candidate, whether the candidate becomes current.
 */
export interface Acceptance {
  /** `progress`: share of the budget used, in [0, 1]. */
  accept(current: number, candidate: number, progress: number): boolean;
  /** Start afresh from `current` (a restart). */
  reset(current: number): void;
  /** The prices changed: the stored costs are on another scale; start afresh unless the criterion keeps them. */
  pricesChanged(current: number): void;
}

/**
 * Late acceptance (Burke and Bykov 2017): a candidate is accepted when it beats the current one or
 * the current one of `length` iterations ago, by more than `tolerance` (rounding in a running sum).
 * With `keepAcrossPrices` the history outlives a price change: the stored costs differ only on
 * infeasible entries, and refilling it every segment would undo its memory.
 */
export class LateAcceptance implements Acceptance {
  private readonly history: Float64Array;
  private iteration = 0;
  private readonly tolerance: number;
  private readonly keepAcrossPrices: boolean;
  constructor(length: number, current: number, options: { tolerance?: number; keepAcrossPrices?: boolean } = {}) {
    this.history = new Float64Array(length).fill(current);
    this.tolerance = options.tolerance ?? 0;
    this.keepAcrossPrices = options.keepAcrossPrices ?? false;
  }

  accept(current: number, candidate: number, _progress?: number): boolean {
    const slot = this.iteration++ % this.history.length;
    const accepted = candidate < current - this.tolerance || candidate < this.history[slot]! - this.tolerance;
    this.history[slot] = Math.min(this.history[slot]!, accepted ? candidate : current);
    return accepted;
  }

  /** The cost a candidate must be under to be accepted at the next call with `current`. */
  bound(current: number): number {
    return Math.max(current, this.history[this.iteration % this.history.length]!) - this.tolerance;
  }

  reset(current: number): void {
    this.history.fill(current);
  }

  pricesChanged(current: number): void {
    if (!this.keepAcrossPrices) this.reset(current);
  }
}

/**
 * A threshold that anneals to the remaining budget (Máximo and Nascimento 2021's moving best
 * average, as PyVRP's ILS uses it): a candidate is accepted when its cost is at most
 * (1 - w) x best + w x mean of the last `length` candidates' costs, w = w0 x (1 - progress). Early
 * the search walks among solutions around the recent average; near the end it only takes those
 * close to the recent best. Unlike late acceptance the leeway is a share of the spread the search
 * itself produces, so it stays open when every candidate is worse than a deep local optimum.
 * With `keepAcrossPrices` the recent costs outlive a price change (see the per-vehicle family's
 * shipments, per-vehicle-ils.ts).
 */
export class ThresholdAcceptance implements Acceptance {
  private readonly history: Float64Array;
  private count = 0;
  constructor(
    length: number,
    private readonly initialWeight: number,
    private readonly keepAcrossPrices = false,
  ) {
    this.history = new Float64Array(length);
  }

  accept(current: number, candidate: number, progress: number): boolean {
    if (!Number.isFinite(candidate)) return false;
    const n = this.history.length;
    this.history[this.count++ % n] = candidate;
    const seen = Math.min(this.count, n);
    let best = Number.POSITIVE_INFINITY;
    let sum = 0;
    for (let k = 0; k < seen; k++) {
      const cost = this.history[k]!;
      if (cost < best) best = cost;
      sum += cost;
    }
    const weight = this.initialWeight * Math.max(0, 1 - progress);
    return candidate < current || candidate <= (1 - weight) * best + (weight * sum) / seen;
  }

  reset(): void {
    this.count = 0;
  }

  pricesChanged(): void {
    if (!this.keepAcrossPrices) this.reset();
  }
}

/**
 * How an infeasible candidate is judged before the acceptance criterion sees it (null: the
 * criterion decides). `neverOnceFeasibleKnown`: an infeasible candidate never becomes current once
 * a feasible solution is known, as in PyVRP's ILS (taking the penalised-cheaper one let the current
 * drift into ever more overloaded plans on fewer vehicles). `onlyWhenCheaper`: the criterion's
 * leeway is for feasible candidates only (accepted infeasible ones drifted on a fully used fleet).
 */
export class InfeasibleCandidates {
  constructor(
    private readonly neverOnceFeasibleKnown: boolean,
    private readonly onlyWhenCheaper: boolean,
  ) {}

  judge(feasible: boolean, current: number, candidate: number, bestKnown: boolean): boolean | null {
    if (feasible) return null;
    if (this.neverOnceFeasibleKnown && bestKnown) return false;
    if (this.onlyWhenCheaper) return candidate < current;
    return null;
  }
}
