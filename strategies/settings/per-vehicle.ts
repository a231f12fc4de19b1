import type { ProblemData } from "../search/problem-data.js";
import type { LocalSearchOverride } from "./local-search.js";
import type { RuinStrengthSettings } from "./perturbation.js";

/** The iterated local search on any fleet (ils/per-vehicle-ils.ts): its education, acceptance and recombination by family. */

/** What a benchmark may change in it; `poolFamilies` opts the named families into set partitioning (by default none is). */
export interface PerVehicleOverride {
  perVehicle?: Partial<PerVehicleSettings> & { poolFamilies?: readonly PoolFamily[] };
}

/** Families where set partitioning over the route pool is off by default (see poolFamily). */
export type PoolFamily = "skills" | "types" | "depots";

export interface PerVehicleSettings {
  /**
   * Localised education: each education examines only the customers whose route neighbours
   * changed (search/changed-customers.ts); with long routes nearly every ruin touches most routes.
   */
  focus: boolean;
  /**
   * An infeasible candidate is always repaired and never becomes current once a feasible solution
   * is known, the prices adapt to the education's own outcome before repair, and with fixed costs
   * the load price never falls below its starting value.
   */
  feasibleCurrent: boolean;
  /** Acceptance by the annealed threshold with this starting weight (null: the family's own, per-vehicle-ils.ts). */
  thresholdWeight: number | null;
  /** Set-partitioning recombination of the route pool (ils/pool-recombination.ts). */
  setPartitioning: boolean;
  /**
   * How the nearby ruin's and the strings' sizes grow while the education undoes the perturbations
   * (ils/ruin-strength.ts), applied only while the plan has every vehicle on the road; null, a fixed size.
   */
  ruinStrength: RuinStrengthSettings | null;
}

/**
 * Mixed fleets without windows, rules or load order: all three parts, with the annealed threshold
 * at 0.2, since late acceptance there ends a run at the cost it reached early. Windows without
 * rules or load order (several depots with windows): the localised education and the feasible
 * current, with the family's late acceptance, which a threshold did not beat. Skills: the
 * localised education and the feasible current too (with SWAP*, localSearchSettings), whose
 * iterations, two to three times as many, reached fewer routes on generated skills instances.
 * Other rules (shifts, caps) and load order (shipments, backhauls): none, as the localised
 * education found no better solutions there. Set partitioning:
 * shipments on identical vehicles without rules, where the pool holds the better combinations;
 * re-plans with a reassignment cost, where it found cheaper plans on the larger instances (the
 * pool holds the priced routes of many local optima around the given plan); off for skills, mixed
 * fleets and several depots (unless opted in), where its solves rarely found a cheaper plan and
 * took a large share of the budget.
 */
export function perVehicleSettings(m: ProblemData, override: PerVehicleOverride & LocalSearchOverride = {}): PerVehicleSettings {
  // The empty vehicles' order and SWAP*'s turns belong to the local search (localSearchSettings), not to this mode.
  const { poolFamilies, emptyTypeOrder, swapStarLocalised, ...chosen } = override.perVehicle ?? {};
  const mode = reloadCopies(m)
    ? reloadMode(m)
    : m.order !== null
      ? OFF
      : m.rules !== null
        ? m.rules.allowed !== null
          ? WINDOWS
          : OFF
        : m.twStart !== null
          ? WINDOWS
          : m.typeSlots.length > 1
            ? TYPES
            : OFF;
  return { ...mode, setPartitioning: setPartitioning(m, poolFamilies ?? []), ruinStrength: ruinStrengthOf(m), ...chosen };
}

/**
 * Skills: on a fleet the plan uses whole, most perturbations of a few customers came back at the
 * current cost (the education put them where they were), and the search settled on one plan for the
 * rest of the budget; a ruin that grows while that happens leaves it. With vehicles to spare the
 * small ruin's iterations are worth more, so the growth waits for a full fleet (ils/per-vehicle-parts.ts).
 */
function ruinStrengthOf(m: ProblemData): RuinStrengthSettings | null {
  return m.rules?.allowed != null ? FULL_FLEET_RUIN_STRENGTH : null;
}

const FULL_FLEET_RUIN_STRENGTH: RuinStrengthSettings = { growth: 0.05, max: 3 };

function setPartitioning(m: ProblemData, optedIn: readonly PoolFamily[]): boolean {
  // A set partition sums route prices; the balance term is the plan's largest workload, no sum.
  if (m.p.balance) return false;
  // Re-plans priced by a reassignment cost: each vehicle is its own group of the pool
  // (search/pool/route-pool.ts PoolGroups), so a route keeps its vehicle's price.
  if (m.reassignment !== null) return true;
  if (m.order?.partner != null) return m.typeSlots.length === 1 && m.rules === null;
  const family = poolFamily(m);
  return family !== null && optedIn.includes(family);
}

/** Whether the problem holds reload copies (search/trip-copies.ts), which bring rules of their own. */
const reloadCopies = (m: ProblemData) => m.p.trips?.copyOf !== undefined;
/**
 * Several trips: the copies make rules, but under windows the windows' mode (localised, feasible
 * current) came out ahead on MTVRPTWR at equal iterations, and faster per iteration.
 */
const reloadMode = (m: ProblemData) => (m.twStart !== null ? WINDOWS : OFF);

const OFF = { focus: false, feasibleCurrent: false, thresholdWeight: null };
const WINDOWS = { focus: true, feasibleCurrent: true, thresholdWeight: null };
const TYPES = { focus: true, feasibleCurrent: true, thresholdWeight: 0.2 };

/** The family a problem belongs to for set partitioning (null: none of the opt-in ones). */
export function poolFamily(m: ProblemData): PoolFamily | null {
  if (m.order !== null) return null;
  if (m.rules?.allowed != null) return "skills";
  if (m.rules !== null) return null;
  if (new Set(m.start).size > 1 || new Set(m.end).size > 1) return "depots";
  return m.typeSlots.length > 1 ? "types" : null;
}
