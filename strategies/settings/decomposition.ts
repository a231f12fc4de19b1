import { windowsBindAgainst, type CompiledProblem } from "../core/problem.js";

/** The decomposition of large problems (strategies/large): group sizes, their time, rotation and squeeze. */

/** What a benchmark may change in the decomposition. */
export interface DecompositionOverride {
  decomposition?: Partial<DecompositionSettings>;
}

/**
 * Identical-vehicles problems: hgs searches their sub-problems with its fast identical-vehicles iterated local search,
 * whose iterations cost milliseconds, so large groups with generous time win.
 */
export const SUB_PROBLEM_CUSTOMERS = 500;
export const SUB_SECONDS = 0.65;
/**
 * Everything else goes to hgs's general search, slower per iteration: small groups with a short
 * search each stay ahead there.
 */
export const GENERAL_SUB_PROBLEM_CUSTOMERS = 50;
export const GENERAL_SUB_SECONDS = 0.01;
/** Share of the budget the first solution may take beyond its first savings variant (large/start.ts). */
export const START_SHARE = 0.1;

export interface DecompositionSettings {
  /** Customers per sub-problem: a group of whole routes grows until it holds this many (and at least three routes). */
  customers: number;
  /** hgs seconds for a group of `customers` customers (a larger group gets proportionally more). */
  seconds: number;
  /** Whether group seeds go round the solution (decomposition/rotation.ts) or are drawn at random. */
  rotation: boolean;
  /**
   * Share of `seconds` a group gets during the first round of the rotation; 0: by the expected
   * number of rounds (large/settings.ts firstRoundShare). General sub-problems get their full,
   * already short, time from the first round on.
   */
  firstRoundShare: number;
  /** Whether the loop tries to eliminate routes (large/squeeze.ts). */
  squeeze: boolean;
  /**
   * Whether groups grow on time-aware neighbour links (decomposition/window-near.ts) instead of
   * spatial ones; off by default, since it was not better, and only ever on for identical-vehicles problems
   * with binding hard windows and no load rules.
   */
  windowGroups: boolean;
  /** Share of the budget the first solution's savings variants may take (large/start.ts). */
  startShare: number;
}

/**
 * The decomposition's settings for `p`, by the method hgs uses on its sub-problems: `identical-vehicles`
 * when the identical-vehicles model fits it (search/identical-vehicles-model.ts identicalVehiclesMismatch is null).
 */
export function decompositionSettings(
  p: CompiledProblem,
  identicalVehicles: boolean,
  override: DecompositionOverride = {},
): DecompositionSettings {
  const { windowGroups, ...chosen } = override.decomposition ?? {};
  return {
    customers: identicalVehicles ? SUB_PROBLEM_CUSTOMERS : GENERAL_SUB_PROBLEM_CUSTOMERS,
    seconds: identicalVehicles ? SUB_SECONDS : GENERAL_SUB_SECONDS,
    rotation: true,
    firstRoundShare: identicalVehicles ? 0 : 1,
    squeeze: true,
    startShare: START_SHARE,
    ...chosen,
    windowGroups: windowGroups === true && identicalVehicles && windowGroupsFit(p),
  };
}

/** Binding hard windows and no load rules (on an identical-vehicles problem: one depot, identical vehicles). */
function windowGroupsFit(p: CompiledProblem): boolean {
  if (!p.time || p.loads) return false;
  return windowsBindAgainst(p, p.startNode[0]!);
}
