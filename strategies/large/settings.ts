import type { CompiledProblem } from "../core/problem.js";
import { textbookMismatch } from "../search/textbook-model.js";

/**
 * The decomposition's two settings, by the method hgs uses on the sub-problems: customers per
 * sub-problem (a group of whole routes grows until it holds this many, and at least three
 * routes), and the hgs time a group of that size gets (a group of long routes that overshoots
 * the target gets proportionally more).
 *
 * Issue 16 measured small groups with the genetic search: 50 customers and 10 ms each beat 100
 * or 200 customers with up to seconds of genetic search (Leuven1 / Ghent1 at 40 s: 1.13% / 1.58%
 * against 2.28% / 2.72% with 200 customers and a second each). Since then hgs runs its textbook
 * iterated local search above 300 customers (ils/textbook-ils.ts), whose ruin-and-recreate
 * iterations cost milliseconds on a sub-problem where a generation of the genetic search costs far
 * more; with it, larger groups win (issue 20, step 5; XXL at 60 s, seed 1, pinned core, load 7-10,
 * one run each, BENCHMARKS.md): Leuven1 1.42% (50 customers, 10 ms) against 0.95% (400, 0.5 s),
 * 1.08% (700, 1 s) and 2.22% (200, 0.2 s: the genetic search again); Leuven2, whose routes hold
 * about 90 customers so that the three routes of a 50-customer group make 270, 7.24% against
 * 4.95-5.02% (400, 0.5 s), 4.35% (700, 1 s), 5.29% (1,000, 1.5 s) and 5.84% (1,000, 3 s);
 * Antwerp1 1.47% against 1.46% (700, 1 s).
 */
export const SUB_PROBLEM_CUSTOMERS = 500;
export const SUB_SECONDS = 0.65;
/**
 * Problems that hgs searches with its general iterated local search (several depots, mixed
 * fleets, speeds, soft windows; ils/general-ils.ts, slower per iteration than the textbook one):
 * issue 16's small groups stay ahead there (bench/rich-xxl.ts, 30 s, seed 1, one pinned core,
 * load 12-22, BENCHMARKS.md): cost relative to the previous selection (ALNS up to 3,000
 * customers, the savings alone above) 0.8925 / 0.8786 / 0.8425 / 0.8401 / 0.6900 / 0.8296 with
 * 50 customers and 10 ms against 0.9148 / 0.9654 / 0.8391 / 0.8561 / 0.7430 / 0.8783 with 500 and
 * 0.65 s, on the rich instances of 1,200 / 2,000 / 2,500 / 2,900 / 3,500 / 5,000 customers.
 */
export const GENERAL_SUB_PROBLEM_CUSTOMERS = 50;
export const GENERAL_SUB_SECONDS = 0.01;

/**
 * The first round of groups (every route once, decomposition/rotation.ts) mostly harvests the
 * local search's easy gains on the savings routes, which a short sub-search already finds; the
 * later rounds need the full SUB_SECONDS. When the budget allows only a few rounds (tens of
 * thousands of customers), a full-length first round spends a third of the run on it: Flanders2
 * (30,000 customers, 120 s, about 2.8 rounds) was at 4.98% after 54 CPU seconds with first-round
 * groups at 0.3 of SUB_SECONDS against 5.62% with full ones (and 4.93% only at 76 s), while on
 * Leuven2 (4,000 customers, about 10 rounds in 60 s) the short first round was behind at 39 s
 * (4.34% against 4.00%; issue 20 step 5, BENCHMARKS.md). So a group's first-round share is the
 * expected number of rounds over FULL_FIRST_ROUND_AT, between MIN_FIRST_ROUND_SHARE and 1.
 */
export const FULL_FIRST_ROUND_AT = 10;
export const MIN_FIRST_ROUND_SHARE = 0.3;

/** The first round's share of a group's seconds, when the rest of the budget makes `rounds` full rounds. */
export function firstRoundShare(settings: DecompositionSettings, rounds: number): number {
  if (settings.firstRoundShare > 0) return settings.firstRoundShare;
  return Math.min(1, Math.max(MIN_FIRST_ROUND_SHARE, rounds / FULL_FIRST_ROUND_AT));
}

export interface DecompositionSettings {
  customers: number;
  /** hgs seconds for a group of `customers` customers. */
  seconds: number;
  /** Whether group seeds go round the solution (decomposition/rotation.ts) or are drawn at random. */
  rotation: boolean;
  /**
   * Share of `seconds` a group gets during the first round of the rotation; 0: by the expected
   * number of rounds (firstRoundShare).
   */
  firstRoundShare: number;
  /** Whether the loop tries to eliminate routes (squeeze.ts; LARGE_SQUEEZE=0 turns it off). */
  squeeze: boolean;
}

/**
 * The settings, which benchmarks may override to compare them on the same problems with the
 * environment variables LARGE_SUB_CUSTOMERS, LARGE_SUB_SECONDS, LARGE_ROTATION (0: random
 * seeds) and LARGE_FIRST_ROUND (a fixed first-round share): internal switches for measurement, not part of the API.
 */
export function decompositionSettings(p: CompiledProblem): DecompositionSettings {
  const textbook = textbookMismatch(p) === null;
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name]);
    return process.env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    customers: Math.round(number("LARGE_SUB_CUSTOMERS", textbook ? SUB_PROBLEM_CUSTOMERS : GENERAL_SUB_PROBLEM_CUSTOMERS)),
    seconds: number("LARGE_SUB_SECONDS", textbook ? SUB_SECONDS : GENERAL_SUB_SECONDS),
    rotation: process.env.LARGE_ROTATION !== "0",
    firstRoundShare: number("LARGE_FIRST_ROUND", textbook ? 0 : 1),
    squeeze: process.env.LARGE_SQUEEZE !== "0",
  };
}
