import type { Penalties } from "../search/penalties.js";
import type { PenaltyManager } from "../search/penalty-manager.js";
import { excessPrice, rulePrice } from "../search/cost-evaluator.js";
import type { Routes } from "../search/routes.js";

const FEASIBLE_EPS = 1e-9;

/**
 * A copy of the general search's routes with their summed objective and excesses (per-vehicle-parts.ts):
 * what the search keeps as its current and best solutions, and how it prices and judges them.
 */
export interface Snapshot {
  routes: number[][];
  objective: number;
  loadExcess: number;
  timeWarp: number;
  durationExcess: number;
  /** Problems with rules: excess over distance and stop caps, and the skip prices of unserved customers. */
  distanceExcess: number;
  stopsExcess: number;
  unserved: number;
  /** Stops away from their vehicle in the given plan (0 without a reassignment cost). */
  away: number;
}

export function snapshot(rs: Routes): Snapshot {
  let objective = 0;
  let loadExcess = 0;
  let timeWarp = 0;
  let durationExcess = 0;
  let distanceExcess = 0;
  let stopsExcess = 0;
  for (let r = 0; r < rs.m.routes; r++) {
    objective += rs.objective[r]!;
    loadExcess += rs.loadExcess[r]!;
    timeWarp += rs.timeWarp[r]!;
    durationExcess += rs.durationExcess[r]!;
    distanceExcess += rs.distanceExcess[r]!;
    stopsExcess += rs.stopsExcess[r]!;
  }
  // The balance term is the plan's, in no route's objective.
  if (rs.balance) objective += rs.balance.term();
  const unserved = unservedPrice(rs);
  const away = rs.reassignment ? rs.reassignment.awayTotal() : 0;
  return { routes: rs.routes(), objective, loadExcess, timeWarp, durationExcess, distanceExcess, stopsExcess, unserved, away };
}

/** The search's price of the customers on no route (0 without rules; see fleet-rules.ts skipPrice). */
function unservedPrice(rs: Routes): number {
  const rules = rs.m.rules;
  if (!rules) return 0;
  let total = 0;
  for (const c of rs.m.customers) if (rs.routeOf[c]! < 0) total += rules.skipPrice[c]!;
  return total;
}

export function penalised(s: Snapshot, pen: Penalties): number {
  const cost = excessPrice(pen, s.objective, s.loadExcess, s.timeWarp, s.durationExcess);
  return s.unserved === 0 && s.distanceExcess === 0 && s.stopsExcess === 0
    ? cost
    : cost + s.unserved + rulePrice(pen, s.distanceExcess, s.stopsExcess);
}

export function looksFeasible(s: Snapshot): boolean {
  return (
    s.loadExcess <= FEASIBLE_EPS &&
    s.timeWarp <= FEASIBLE_EPS &&
    s.durationExcess <= FEASIBLE_EPS &&
    s.distanceExcess <= FEASIBLE_EPS &&
    s.stopsExcess === 0
  );
}

/** Tells the penalty manager which constraints the outcome `s` kept. */
export function recordOutcome(penalties: PenaltyManager, s: Snapshot): void {
  penalties.record({
    load: s.loadExcess <= FEASIBLE_EPS,
    duration: s.durationExcess <= FEASIBLE_EPS,
    timeWarp: s.timeWarp <= FEASIBLE_EPS,
    distance: s.distanceExcess <= FEASIBLE_EPS,
    stops: s.stopsExcess === 0,
  });
}
