import type { Rng } from "../core/rng.js";
import type { Solution } from "../core/problem.js";
import type { Acceptance, InfeasibleCandidates } from "./acceptance.js";

/** An educated solution as the loop judges it: its penalised cost at the current prices and whether it looks feasible. */
export interface Candidate {
  readonly cost: number;
  readonly feasible: boolean;
}

/** The current solution: where each perturbation starts, and how a rejected candidate is undone. */
export interface CurrentSolution<C extends Candidate> {
  /** Before the perturbation: the search holds the current solution, ready to be perturbed. */
  beginCandidate(): void;
  /** Penalised cost of the current solution at the current prices. */
  cost(): number;
  /** The candidate becomes current. */
  keep(candidate: C): void;
  /** The candidate is rejected. */
  undo(): void;
  /** The prices changed: a cost kept for the current solution is priced again. */
  repriced(): void;
  /** Back to the best solution after a long stagnation. */
  backToBest(best: Solution): void;
  /** The current solution, returned when no feasible one was ever found. */
  solution(): Solution;
}

/** Ruins part of the solution the search holds and recreates it. */
export interface Perturbation {
  perturb(rng: Rng): void;
  /** After the education: whether the candidate came back at the current solution's cost (the perturbation was undone). */
  outcome?(cameBack: boolean): void;
}

/**
 * Descends from the perturbed solution, repairs an infeasible outcome now and then, and tells the
 * price adaptation which constraints the outcome kept.
 */
export interface Education<C extends Candidate> {
  educate(bestKnown: boolean): C;
}

/** Share of infeasible outcomes that get a repair attempt once a feasible solution is known, as in HGS. */
const REPAIR_PROBABILITY = 0.5;

/**
 * Whether an infeasible outcome gets a repair attempt: always before a feasible solution is known
 * (or with `always`), otherwise with REPAIR_PROBABILITY.
 */
export function attemptsRepair(rng: Rng, bestKnown: boolean, always = false): boolean {
  return !bestKnown || always || rng.next() < REPAIR_PROBABILITY;
}

/** The best feasible solution found, each new one checked by the shared evaluator and handed to the budget. */
export interface BestSolution<C extends Candidate> {
  /** The best on the searched cost: where restarts go back to. */
  readonly solution: Solution | null;
  /** Whether the candidate is a new best. */
  consider(candidate: C): boolean;
  /** The answer, when it is chosen otherwise than as `solution` (per-vehicle-parts.ts PerVehicleBest). */
  answer?(): Solution | null;
}

/**
 * Prices of infeasibility that adapt so that about half the outcomes respect each constraint.
 * `beforeRestart`: whether new prices come before a restart in the same iteration (a restart that
 * descends from the best must do so at the new prices) or after it (a restart that only reloads the
 * best gives the acceptance its new start on the new prices).
 */
export interface PriceAdaptation {
  readonly beforeRestart: boolean;
  /** Sets new prices on the search once a segment of outcomes is in; returns whether they changed. */
  adaptWhenDue(): boolean;
}

/** When the search goes back to the best, and when it gives up. */
export interface RestartPolicy {
  /** Whether the acceptance starts afresh from the restarted solution. */
  readonly freshAcceptance: boolean;
  /** Called once per iteration with the iterations since the last new best (0: one now). */
  due(sinceBest: number, bestKnown: boolean, progress: () => number): boolean;
  /** Whether to stop before the budget is used (a tiny problem that stopped improving). */
  givesUp(sinceBest: number): boolean;
}

/** A step beside the perturbations (set partitioning over pooled routes); returns whether it found a new best. */
export interface Recombination {
  step(): boolean;
}

/** What a family of problems chooses once at the start; the loop (iterated-local-search.ts) is the same for all. */
export interface IlsParts<C extends Candidate> {
  current: CurrentSolution<C>;
  perturbation: Perturbation;
  education: Education<C>;
  best: BestSolution<C>;
  acceptance: Acceptance;
  /** null: an infeasible candidate is judged as any other. */
  infeasible: InfeasibleCandidates | null;
  prices: PriceAdaptation;
  restarts: RestartPolicy;
  recombination: Recombination | null;
}
