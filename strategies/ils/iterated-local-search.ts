import type { Budget } from "../core/budget.js";
import { solverNow } from "../core/clock.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import type { Penalties } from "../search/penalties.js";
import type { ProblemData } from "../search/problem-data.js";
import type { Candidate, IlsParts } from "./ils-parts.js";
import { SearchExchange } from "./exchange.js";
import { toSolution } from "../search/identical-vehicles/solutions.js";
import { startIdenticalVehicles } from "./identical-vehicles-ils.js";
import { startPerVehicle } from "./per-vehicle-ils.js";

/** A start on the identical-vehicles model (search/identical-vehicles-model.ts, backhaul-model.ts): its data, routes and prices. */
export interface IdenticalVehiclesStart {
  model: ProblemData;
  routes: readonly (readonly number[])[];
  penalties: Penalties;
}

/** Relative difference under which a candidate's cost is the current solution's (rounding of the running totals). */
const SAME_COST = 1e-9;

/**
 * Iterated local search (PyVRP 0.14's design, written anew): each iteration ruins part of the
 * current solution and recreates it, educates the result with the granular local search on a
 * penalised cost (repairing an infeasible one now and then at raised prices), keeps every new best
 * that the shared evaluator finds feasible, accepts or undoes the candidate, adapts the prices of
 * infeasibility, and goes back to the best after a long stagnation. From a start on the
 * identical-vehicles model it searches that model with O(1) move pricing (identical-vehicles-ils.ts);
 * otherwise any fleet, each route priced on its own vehicle (per-vehicle-ils.ts), from `start` or
 * savings. The two differ only in the parts they choose at the start (ils-parts.ts).
 */
export function iteratedLocalSearch(p: CompiledProblem, budget: Budget, start?: Solution | IdenticalVehiclesStart): Solution {
  if (start && "model" in start) {
    const exchange = exchangeFor(p, budget, start.routes);
    const own = search(startIdenticalVehicles(p, start.model, budget, start.routes, start.penalties), budget, exchange);
    return exchange ? exchange.finish(own) : own;
  }
  return search(startPerVehicle(p, budget, start), budget, null);
}

/** Other workers' searches of the same problem (exchange.ts), when the budget has helpers; hgs is the strategy they run. */
function exchangeFor(p: CompiledProblem, budget: Budget, construction: IdenticalVehiclesStart["routes"]): SearchExchange | null {
  return SearchExchange.forBudget(p, budget, "hgs", () =>
    toSolution(
      p,
      construction.map((r) => r.slice()),
    ),
  );
}

/** The loop, from the current solution the family's start left. */
function search<C extends Candidate>(parts: IlsParts<C>, budget: Budget, exchange: SearchExchange | null): Solution {
  const { current, perturbation, education, best, acceptance, infeasible, prices, restarts, recombination } = parts;
  const rng = budget.rng;
  const startedMs = solverNow();
  const progress = () => budget.progress(startedMs);
  const newPrices = (): void => {
    if (!prices.adaptWhenDue()) return;
    current.repriced();
    acceptance.pricesChanged(current.cost());
  };
  const bestKnown = () => best.solution !== null;
  let sinceBest = 0;
  while (!budget.tick()) {
    exchange?.step(() => best.solution);
    current.beginCandidate();
    perturbation.perturb(rng);
    const candidate = education.educate(bestKnown());
    sinceBest = best.consider(candidate) ? 0 : sinceBest + 1;
    const currentCost = current.cost();
    perturbation.outcome?.(Math.abs(candidate.cost - currentCost) <= SAME_COST * Math.max(1, Math.abs(currentCost)));
    const verdict = infeasible?.judge(candidate.feasible, currentCost, candidate.cost, bestKnown()) ?? null;
    if (verdict ?? acceptance.accept(currentCost, candidate.cost, progress())) current.keep(candidate);
    else current.undo();
    if (restarts.givesUp(sinceBest)) break;
    if (recombination?.step()) sinceBest = 0;
    // New prices on one side of a restart or the other: see PriceAdaptation.beforeRestart.
    if (prices.beforeRestart) newPrices();
    if (restarts.due(sinceBest, bestKnown(), progress)) {
      current.backToBest(best.solution!);
      if (restarts.freshAcceptance) acceptance.reset(current.cost());
    }
    if (!prices.beforeRestart) newPrices();
  }
  // Never feasible: the last current solution, for the caller to report as infeasible.
  return (best.answer ? best.answer() : best.solution) ?? current.solution();
}
