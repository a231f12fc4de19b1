import type { Solution } from "./problem.js";
import { Rng } from "./rng.js";
import { solverNow } from "./clock.js";
import type { SettingsOverride } from "../settings.js";
import type { Helpers } from "./helpers.js";

/**
 * Told of each new best feasible solution a strategy finds, while it searches: the worker turns
 * these into progress reports, the best-so-far answer and the result of a cancelled solve. It runs
 * on the solver's thread, so it must stay cheap (store the solution; report on its own clock).
 */
export type ImprovementListener = (best: Solution) => void;

/**
 * When to stop: a deadline (solverNow() clock), an external abort flag, and an optional
 * iteration cap that makes a seeded run repeatable whatever the machine's speed. It also carries
 * the run's settings override (strategies/settings.ts), empty but in benchmarks that compare
 * settings, to every search the run starts.
 */
export class Budget {
  readonly rng: Rng;
  private iterations = 0;
  private improvements = 0;
  private listener: ImprovementListener | null = null;
  /** solverNow() when the budget was made: the origin of `progress` for the checkpoint. */
  private readonly startedMs = solverNow();
  private checkpoint: number | null = null;
  private checkpointHit = false;
  private onCheckpoint: () => boolean = () => true;
  /** Other workers' help, set by the caller for a cooperative strategy's own budget only (never a sub-search's). */
  helpers: Helpers | null = null;
  constructor(
    readonly deadlineMs: number,
    seed: number,
    private readonly maxIterations = Number.POSITIVE_INFINITY,
    private readonly shouldAbort: () => boolean = () => false,
    readonly overrides: SettingsOverride = {},
  ) {
    this.rng = new Rng(seed);
  }

  static forSeconds(seconds: number, seed = 1, maxIterations?: number, shouldAbort?: () => boolean, overrides?: SettingsOverride): Budget {
    return new Budget(solverNow() + seconds * 1000, seed, maxIterations, shouldAbort, overrides);
  }

  /** Counts one iteration and says whether to stop. */
  tick(): boolean {
    this.iterations++;
    return this.exhausted();
  }

  exhausted(): boolean {
    if (this.iterations >= this.maxIterations) return true;
    // With a fixed iteration budget the deadline is a safety net only, so results repeat.
    if (solverNow() >= this.deadlineMs) return true;
    if (this.checkpoint !== null && this.improvements === 0 && this.progress(this.startedMs) >= this.checkpoint) {
      const reached = this.onCheckpoint;
      this.checkpoint = null;
      // The callback may set the next checkpoint.
      if (reached()) this.checkpointHit = true;
    }
    if (this.checkpointHit) return true;
    return this.shouldAbort();
  }

  /**
   * With a fraction: once that share of the budget is used while no feasible solution has been
   * reported, `reached` is called (once) and says whether the search should stop there (the
   * budget then counts as exhausted until the checkpoint is lifted); the feasibility phase
   * (core/feasibility.ts) runs from there. null lifts it, and the rest of the budget is available
   * again.
   */
  setFeasibilityCheckpoint(fraction: number | null, reached: () => boolean = () => true): void {
    this.checkpoint = fraction;
    this.onCheckpoint = reached;
    this.checkpointHit = false;
  }

  /**
   * Runs `search` with a checkpoint of its own at `fraction`: stopped there when no feasible
   * solution has been reported by then (`stopped`), so that the caller may start again otherwise.
   * The caller's checkpoint (solveFeasibly's) holds again afterwards.
   */
  searchUntilFeasible<T>(fraction: number, search: () => T): { result: T; stopped: boolean } {
    const saved = { checkpoint: this.checkpoint, onCheckpoint: this.onCheckpoint, hit: this.checkpointHit };
    this.setFeasibilityCheckpoint(fraction);
    try {
      const result = search();
      return { result, stopped: this.checkpointHit };
    } finally {
      this.checkpoint = saved.checkpoint;
      this.onCheckpoint = saved.onCheckpoint;
      this.checkpointHit = saved.hit;
    }
  }

  /** Whether the last search was stopped by the feasibility checkpoint. */
  get checkpointReached(): boolean {
    return this.checkpointHit;
  }

  /**
   * Fraction of the budget used, in [0, 1]; drives annealing schedules. With an iteration budget
   * it counts iterations only, so that the search does not depend on the machine's speed.
   */
  progress(startedMs: number): number {
    if (Number.isFinite(this.maxIterations)) return Math.min(1, this.iterations / this.maxIterations);
    const byTime = (solverNow() - startedMs) / Math.max(1, this.deadlineMs - startedMs);
    return Math.min(1, byTime);
  }

  /**
   * The seconds this budget was given, or null under an iteration cap: there a search must not
   * choose its method by the clock, so that seeded runs repeat on any machine.
   */
  get givenSeconds(): number | null {
    if (Number.isFinite(this.maxIterations)) return null;
    return Math.max(0, this.deadlineMs - this.startedMs) / 1000;
  }

  get iterationCount(): number {
    return this.iterations;
  }

  /**
   * Makes the listener hear `map(best)` instead of `best` until the returned function is called: a
   * strategy that searches a reformulated problem (search/trip-copies.ts) reports in the caller's nodes.
   */
  mapImprovements(map: (best: Solution) => Solution): () => void {
    const listener = this.listener;
    if (listener) this.listener = (best) => listener(map(best));
    return () => {
      this.listener = listener;
    };
  }

  /** Subscribes the single listener for new best feasible solutions (see ImprovementListener). */
  onImprovement(listener: ImprovementListener): void {
    this.listener = listener;
  }

  /**
   * Strategies call this with every new best *feasible* solution, as a fresh copy they will not
   * mutate afterwards (the listener may keep it).
   */
  improved(best: Solution): void {
    this.improvements++;
    this.listener?.(best);
  }

  get improvementCount(): number {
    return this.improvements;
  }

  /**
   * A budget for one phase of a run: `share` of what is left of this one's time (and iterations,
   * when capped), this one's abort flag, its overrides unless others are given, a seed drawn from its rng. Call `spent`
   * when the phase ends so that its iterations count here too.
   */
  phase(share: number, overrides: SettingsOverride = this.overrides): Budget {
    const now = solverNow();
    const iterations = Number.isFinite(this.maxIterations)
      ? Math.max(1, Math.floor(share * (this.maxIterations - this.iterations)))
      : Number.POSITIVE_INFINITY;
    const seed = 1 + this.rng.int(2 ** 30);
    return new Budget(now + share * Math.max(0, this.deadlineMs - now), seed, iterations, this.shouldAbort, overrides);
  }

  /** Counts a finished phase's iterations (see `phase`). */
  spent(phase: Budget): void {
    this.iterations += phase.iterationCount;
  }
}

/** Problems this small have their optimum found long before any deadline. */
const TINY_PROBLEM_CUSTOMERS = 12;

/**
 * Iterations without a new best after which a search stops early on a tiny problem (null: never
 * stop early), so that a partner's four-stop request does not wait for the whole time limit.
 * `iterationWeight` scales it down for searches whose one iteration does more work (a genetic
 * search educates a whole offspring where ALNS destroys and repairs a few customers).
 */
export function tinyProblemPatience(customers: number, iterationWeight = 1): number | null {
  if (customers > TINY_PROBLEM_CUSTOMERS) return null;
  return Math.ceil(Math.max(2000, 300 * customers) / iterationWeight);
}
