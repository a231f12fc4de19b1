import type { CompiledProblem } from "../core/problem.js";
import { textbookMismatch } from "../search/textbook-model.js";

/**
 * The decomposition's two settings, by the method hgs uses on the sub-problems: customers per
 * sub-problem (a group of whole routes grows until it holds this many, and at least three
 * routes), and the hgs time a group of that size gets (a group of long routes that overshoots
 * the target gets proportionally more).
 *
 * The sizes follow the sub-problem search's cost per iteration. With the genetic search, small
 * groups given little time win, because a generation costs a lot. hgs runs its textbook iterated
 * local search above 300 customers (ils/textbook-ils.ts), whose ruin-and-recreate iterations cost
 * milliseconds, and with it larger groups given more time win (BENCHMARKS.md, XXL).
 */
export const SUB_PROBLEM_CUSTOMERS = 500;
export const SUB_SECONDS = 0.65;
/**
 * Problems that hgs searches with its general iterated local search (several depots, mixed
 * fleets, speeds, soft windows; ils/general-ils.ts, slower per iteration than the textbook one):
 * small groups given little time stay ahead there, as they did with the genetic search
 * (BENCHMARKS.md, bench/rich-xxl.ts).
 */
export const GENERAL_SUB_PROBLEM_CUSTOMERS = 50;
export const GENERAL_SUB_SECONDS = 0.01;

/**
 * The first round of groups (every route once, decomposition/rotation.ts) mostly harvests the
 * local search's easy gains on the savings routes, which a short sub-search already finds; the
 * later rounds need the full SUB_SECONDS. When the budget allows only a few rounds (tens of
 * thousands of customers), a full-length first round would spend a third of the run on it, so a
 * short one wins there; when there are many rounds, the full one is better (BENCHMARKS.md, XXL).
 * So a group's first-round share is the expected number of rounds over FULL_FIRST_ROUND_AT,
 * between MIN_FIRST_ROUND_SHARE and 1.
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
