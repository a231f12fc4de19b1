import { Budget } from "../../strategies/core/budget.js";
import { solverNow } from "../../strategies/core/clock.js";
import { findStrategy } from "../../strategies/registry.js";
import { decodeProblem, startSolution, type HelpItemMessage } from "../queue/help-items.js";

/** What a helper's solver thread needs of an item. */
export type HelpWork = Pick<HelpItemMessage, "strategy" | "seed" | "seconds" | "problem" | "start">;

/** The solver thread's answer to a help job: the routes found, or why there are none. */
export type HelpReply = { ok: true; routes: number[][] } | { ok: false; error: string };

/** Longest search an item may ask for, whatever it says. */
const MAX_ITEM_SECONDS = 5;

/**
 * Searches one item on the helper's solver thread with the strategy it names, from the routes it
 * carries, for its seconds (stopped early by `shouldAbort`: a task arrived for this worker).
 */
export function solveHelpItem(work: HelpWork, shouldAbort: () => boolean): HelpReply {
  try {
    const problem = decodeProblem(work.problem);
    const strategy = findStrategy(work.strategy);
    const support = strategy.supports(problem);
    if (!support.ok) return { ok: false, error: support.reason };
    const seconds = Math.min(MAX_ITEM_SECONDS, Math.max(0, work.seconds));
    const budget = new Budget(solverNow() + seconds * 1000, work.seed, Number.POSITIVE_INFINITY, shouldAbort);
    const found = strategy.solve(problem, budget, startSolution(work.start));
    return { ok: true, routes: found.routes };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
