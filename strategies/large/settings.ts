import type { DecompositionSettings } from "../settings.js";

/**
 * The first round of groups (every route once, decomposition/rotation.ts) mostly harvests the
 * local search's easy gains on the savings routes, which a short sub-search already finds; the
 * later rounds need the full seconds of a group. When the budget allows only a few rounds (tens of
 * thousands of customers), a full-length first round spends a third of the run on it, while with
 * about ten rounds a short first round falls behind. So a group's first-round share is the
 * expected number of rounds over FULL_FIRST_ROUND_AT, between MIN_FIRST_ROUND_SHARE and 1.
 */
export const FULL_FIRST_ROUND_AT = 10;
export const MIN_FIRST_ROUND_SHARE = 0.3;

/** The first round's share of a group's seconds, when the rest of the budget makes `rounds` full rounds. */
export function firstRoundShare(settings: DecompositionSettings, rounds: number): number {
  if (settings.firstRoundShare > 0) return settings.firstRoundShare;
  return Math.min(1, Math.max(MIN_FIRST_ROUND_SHARE, rounds / FULL_FIRST_ROUND_AT));
}
