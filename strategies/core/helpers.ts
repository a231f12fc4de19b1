import type { CompiledProblem, Solution } from "./problem.js";

/**
 * Work a cooperative strategy hands to other workers while it keeps searching itself: a
 * sub-problem, the solution to start from, and how long to search it. The helper runs the named
 * strategy on it with `seed`; its answer is a solution of `problem`, nothing more trusted.
 */
export interface HelpItem {
  problem: CompiledProblem;
  start: Solution;
  strategy: string;
  seed: number;
  seconds: number;
}

/** What an item costs beyond its own search: publish, pull, decode (the matrix), answer; its deadline allows for it. */
export const HELP_ROUND_TRIP_MS = 700;

/** A helper's answer to an offered item; `solution` is null when none came before the item's deadline. */
export interface HelpAnswer {
  ticket: number;
  solution: Solution | null;
}

/** What became of an answered item, for the worker's metrics. */
export type HelpVerdict = "merged" | "stale" | "not_better";

/**
 * The helper API a cooperative strategy finds on its budget (`budget.helpers`). Strategies are
 * synchronous, so it is a mailbox rather than promises: offer items, keep searching, and collect
 * the answers between iterations. Nothing ever waits on a helper: an item without an answer by
 * its deadline comes back from `collect` with a null solution.
 */
export interface Helpers {
  /** Workers that could take an item now; 0 means offer nothing (the search stays one worker's). */
  available(): number;
  /** Offers an item; the answer is due within `seconds` plus a round trip, and never after `deadlineMs` (solverNow clock). */
  offer(item: HelpItem, deadlineMs: number): number;
  /** Answers (and missed deadlines) since the last call. */
  collect(): HelpAnswer[];
  /** Tells the worker what the strategy did with an answer. */
  settled(ticket: number, verdict: HelpVerdict): void;
}
