/**
 * Acceptance criteria of the general iterated local search (general-ils.ts): given the penalised
 * cost of the current solution and of a new candidate, whether the candidate becomes current.
 */
export interface Acceptance {
  /** `progress`: share of the budget used, in [0, 1]. */
  accept(current: number, candidate: number, progress: number): boolean;
  /** The prices changed: the stored costs are on another scale; start afresh from `current`. */
  reset(current: number): void;
}

/**
 * Late acceptance (Burke and Bykov 2017): a candidate is accepted when it beats the current one or
 * the current one of `length` iterations ago.
 */
export class LateAcceptance implements Acceptance {
  private readonly history: Float64Array;
  private iteration = 0;
  constructor(length: number, current: number) {
    this.history = new Float64Array(length).fill(current);
  }

  accept(current: number, candidate: number, _progress?: number): boolean {
    const slot = this.iteration++ % this.history.length;
    const accepted = candidate < current || candidate < this.history[slot]!;
    this.history[slot] = Math.min(this.history[slot]!, accepted ? candidate : current);
    return accepted;
  }

  reset(current: number): void {
    this.history.fill(current);
  }
}

/**
 * A threshold that anneals to the remaining budget (Máximo and Nascimento 2021's moving best
 * average, as PyVRP's ILS uses it): a candidate is accepted when its cost is at most
 * (1 - w) x best + w x mean of the last `length` candidates' costs, w = w0 x (1 - progress). Early
 * the search walks among solutions around the recent average; near the end it only takes those
 * close to the recent best. Unlike late acceptance the leeway is a share of the spread the search
 * itself produces, so it stays open when every candidate is worse than a deep local optimum.
 */
export class ThresholdAcceptance implements Acceptance {
  private readonly history: Float64Array;
  private count = 0;
  constructor(
    length: number,
    private readonly initialWeight: number,
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
}
