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

export interface DecompositionSettings {
  customers: number;
  /** hgs seconds for a group of `customers` customers. */
  seconds: number;
  /** Whether group seeds go round the solution (decomposition/rotation.ts) or are drawn at random. */
  rotation: boolean;
}

/**
 * The settings, which benchmarks may override to compare them on the same problems with the
 * environment variables LARGE_SUB_CUSTOMERS, LARGE_SUB_SECONDS and LARGE_ROTATION (0: random
 * seeds): internal switches for measurement, not part of the API.
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
  };
}
