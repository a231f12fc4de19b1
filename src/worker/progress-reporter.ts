import type { Budget } from "../../strategies/core/budget.js";
import type { Solution } from "../../strategies/core/problem.js";
import type { SolveObserver, SolvedResultObject } from "../problem/solve-request.js";

/** What the solver thread tells the worker's main thread about a running search. */
export interface ProgressReport {
  elapsedSeconds: number;
  feasible: boolean;
  bestCost: number | null;
  improvements: number;
  iterations: number;
  strategy: string;
  /** The best solution so far, only when it changed since the previous report. */
  best?: SolvedResultObject;
}

/** The message the solver thread posts for a report, told apart from the final reply by `kind`. */
export interface ProgressMessage {
  kind: "progress";
  report: ProgressReport;
}

export function isProgressMessage(message: unknown): message is ProgressMessage {
  return typeof message === "object" && message !== null && (message as { kind?: unknown }).kind === "progress";
}

/**
 * Runs in the solver thread. A synchronous search leaves no room for timers, so the report is
 * checked from the budget's abort probe, which every strategy calls between iterations: at most
 * one report per `intervalMs`, and the best solution is formatted only when it changed.
 */
export class ThreadProgressReporter implements SolveObserver {
  private budget: Budget | null = null;
  private strategy = "";
  private toResult: ((s: Solution) => SolvedResultObject | null) | null = null;
  private best: Solution | null = null;
  private bestChanged = false;
  private bestCost: number | null = null;
  private lastReportMs = 0;

  constructor(
    private readonly startedMs: number,
    private readonly post: (message: ProgressMessage) => void,
    private readonly intervalMs = 1000,
  ) {}

  searchStarted(budget: Budget, strategy: string, toResult: (s: Solution) => SolvedResultObject | null): void {
    this.budget = budget;
    this.strategy = strategy;
    this.toResult = toResult;
    this.lastReportMs = performance.now();
    budget.onImprovement((best) => {
      this.best = best;
      this.bestChanged = true;
    });
  }

  /** Called between iterations; cheap unless a report is due. */
  tick(): void {
    if (!this.budget) return;
    const now = performance.now();
    if (now - this.lastReportMs < this.intervalMs) return;
    this.lastReportMs = now;
    let best: SolvedResultObject | undefined;
    if (this.bestChanged && this.best && this.toResult) {
      best = this.toResult(this.best) ?? undefined;
      if (best) this.bestCost = best.total_cost;
      this.bestChanged = false;
    }
    const report: ProgressReport = {
      elapsedSeconds: Math.round(now - this.startedMs) / 1000,
      feasible: this.bestCost !== null,
      bestCost: this.bestCost,
      improvements: this.budget.improvementCount,
      iterations: this.budget.iterationCount,
      strategy: this.strategy,
      ...(best ? { best } : {}),
    };
    this.post({ kind: "progress", report });
  }
}
