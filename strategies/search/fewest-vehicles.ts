import type { Budget } from "../core/budget.js";
import { solverNow } from "../core/clock.js";
import { evaluateSolution } from "../core/evaluator.js";
import { solveFeasibly, type RoutePolish } from "../core/feasibility.js";
import { fixedFleet } from "../core/fixed-fleet.js";
import { normaliseScale } from "../core/normalise.js";
import { betterPlan, planRank, type PlanRank } from "../core/plan-order.js";
import { cloneSolution, type CompiledProblem, type Solution } from "../core/problem.js";
import { eliminateRoutes } from "./route-elimination.js";
import type { Strategy } from "../core/strategy.js";
import type { SettingsOverride } from "../settings.js";

/** Share of the time for the first plan (the strategy's own search, on the whole fleet). */
const FIRST_PLAN_SHARE = 0.2;
/** Share of the time left after it that the route elimination may take at most. */
const ELIMINATION_SHARE = 0.6;
/** Share of that time that attempts in vain may always take, however fast the routes before went. */
const MIN_VAIN_SHARE = 0.25;
/** Attempts in vain always made after a removal, however long they take (within the share), and at least one a route. */
const MIN_VAIN_ATTEMPTS = 5;

/**
 * Share of the fixed-fleet search's time without a new best after which it goes back to its best.
 * With no vehicle to spare, the current plan can drift into infeasible plans that neither the
 * prices nor the repairs bring back (no route to open), and the search's own patience, counted in
 * iterations, outlasts the time that is left.
 */
const FIXED_FLEET_RESTART_SHARE = 0.1;

/**
 * The search with the fleet fixed: the iterated local search from the plan, whatever the size.
 * The genetic search builds its population anew, which on a fleet the route elimination
 * has made tight starts (and stays) infeasible; a caller's own choice of method is kept.
 */
function fixedFleetSettings(overrides: SettingsOverride): SettingsOverride {
  return {
    ...overrides,
    hgs: { windowsMethod: "iterated", capacityMethod: "iterated", ...overrides.hgs },
    identicalVehicles: { restartShare: FIXED_FLEET_RESTART_SHARE, ...overrides.identicalVehicles },
  };
}

/**
 * The objective min_vehicles (p.minVehicles): the strategy's search finds a good plan, the route
 * elimination (route-elimination.ts) takes routes away while it can, and the search then goes on
 * with the fleet fixed at the vehicles the plan uses (fixed-fleet.ts) for the time that is left.
 * Every plan any phase finds is ranked by plan-order.ts (fewer vehicles, then cost): the answer
 * and the improvements reported on `budget` are the best by that order.
 */
export function solveFewestVehicles(
  strategy: Strategy,
  p: CompiledProblem,
  budget: Budget,
  initial?: Solution,
  polish?: RoutePolish,
): Solution {
  let best: Solution | null = null;
  let bestRank: PlanRank | null = null;
  const consider = (plan: Solution) => {
    const score = evaluateSolution(p, plan);
    if (!score.feasible) return;
    const rank = planRank(p, plan, score.cost);
    if (bestRank && !betterPlan(rank, bestRank)) return;
    best = cloneSolution(plan);
    bestRank = rank;
    budget.improved(cloneSolution(plan));
  };

  const first = budget.phase(FIRST_PLAN_SHARE);
  first.onImprovement(consider);
  const found = solveFeasibly(strategy, p, first, initial, polish);
  budget.spent(first);
  consider(found);
  if (!best) return found;

  // Routes with reload stops are not the pool's to take apart (it plans no reloads): the searches keep them.
  if (!p.trips) {
    const from = solverNow();
    const share = ELIMINATION_SHARE * Math.max(0, budget.deadlineMs - from);
    let lastRemoval = from;
    // Attempts in vain (past a few) may take as long as the removals before them did, or a floor:
    // the time a route that will not go takes is left to the distance search instead.
    const stop = (vain: number, routes: number) => {
      const now = solverNow();
      if (now >= from + share || budget.exhausted()) return true;
      const tried = vain >= Math.max(MIN_VAIN_ATTEMPTS, routes);
      return tried && now - lastRemoval > Math.max(lastRemoval - from, MIN_VAIN_SHARE * share);
    };
    consider(eliminateRoutes(normaliseScale(p), best, budget.rng, stop, () => (lastRemoval = solverNow())));
  }

  const start: Solution = best;
  const kept = start.routes.flatMap((r, v) => (r.length > 0 ? [v] : []));
  const fleet = fixedFleet(p, kept);
  const rest = budget.phase(1, fixedFleetSettings(budget.overrides));
  if (fleet) {
    rest.onImprovement((plan) => consider(fleet.widen(plan)));
    consider(fleet.widen(solveFeasibly(strategy, fleet.problem, rest, fleet.narrow(start), polish)));
  } else {
    rest.onImprovement(consider);
    consider(solveFeasibly(strategy, p, rest, start, polish));
  }
  budget.spent(rest);
  return best;
}
