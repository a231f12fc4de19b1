import type { FleetModel } from "../search/fleet-model.js";

/**
 * Which parts of PyVRP's ILS design the general iterated local search (general-ils.ts) uses on a
 * problem: each is on for the families where it made the search better (BENCHMARKS.md, HFVRP and
 * MDVRPTW).
 */
export interface GeneralSearchMode {
  /**
   * Localised education: each education examines only the customers whose route neighbours
   * changed (PyVRP's promising clients, search/changed-customers.ts) instead of every customer of
   * every changed route: with long routes nearly every ruin touches most routes.
   */
  focus: boolean;
  /**
   * An infeasible candidate is always repaired and never becomes current once a feasible solution
   * is known, the prices adapt to the education's own outcome before repair, and with fixed costs
   * the load price never falls below its starting value.
   */
  feasibleCurrent: boolean;
  /**
   * Acceptance by the annealed threshold with this starting weight (null: the family's own, see
   * general-ils.ts). Mixed fleets: 0.2, because with late acceptance runs ended at the cost they
   * had after a third of the budget. Several depots with windows: late acceptance, which a
   * threshold did not beat there (BENCHMARKS.md).
   */
  thresholdWeight: number | null;
}

const OFF: GeneralSearchMode = { focus: false, feasibleCurrent: false, thresholdWeight: null };

/**
 * Mixed fleets without windows, rules or load order (HFVRP): all three, threshold 0.2. Windows
 * without rules (several depots, MDVRPTW): the localised education and the feasible current, with
 * the family's late acceptance. Rules (skills, shifts, caps: SDVRPTW) and load order (shipments,
 * backhauls): none, as none of them made those searches better (BENCHMARKS.md).
 * `SOLVER_GENERAL_FOCUS=0` turns all off (the earlier search, for comparisons).
 */
export function generalSearchMode(m: FleetModel): GeneralSearchMode {
  if (process.env.SOLVER_GENERAL_FOCUS === "0" || m.order !== null || m.rules !== null) return OFF;
  if (m.twStart !== null) return { focus: true, feasibleCurrent: true, thresholdWeight: null };
  return m.typeSlots.length > 1 ? { focus: true, feasibleCurrent: true, thresholdWeight: 0.2 } : OFF;
}
