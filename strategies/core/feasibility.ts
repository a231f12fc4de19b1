import type { Budget } from "./budget.js";
import { ejectionRepair, stripViolations } from "./ejection-repair.js";
import { evaluateSolution } from "./evaluator.js";
import { regretInsertion } from "./repair.js";
import { packFleet } from "./fleet-packing.js";
import { isSymmetric } from "./neighbours.js";
import { normaliseScale } from "./normalise.js";
import { cloneSolution, hasDenseMatrix, type CompiledProblem, type Solution } from "./problem.js";
import type { Strategy } from "./strategy.js";
import { twoOptRoute } from "./two-opt.js";
import { Workspace } from "./workspace.js";

/**
 * Share of the budget after which a search that has not reported a feasible solution yet is
 * stopped, so that the feasibility phase runs and the search gets the rest of the time from
 * its answer (or, when that fails too, from its own last solution).
 */
export const FEASIBILITY_CHECKPOINT = 0.5;
/** Ejection steps per customer in each repair (a safety bound; the deadline is the other). */
const STEPS_PER_CUSTOMER = 30;
/** The phase may overrun an exhausted budget by this much (it then has at least this long). */
const MIN_PHASE_MS = 100;

/**
 * Runs `strategy` so that it never ends infeasible while a feasible solution is within reach:
 * when it has found none by FEASIBILITY_CHECKPOINT of the budget (or ends without one), the
 * feasibility phase (restoreFeasibility) runs, and the strategy continues for the remaining
 * budget from the phase's solution. The answer is the cheaper feasible of the two, if any.
 * Every strategy's infeasible end goes through here (solveRequest calls it). The problem is
 * first brought to the scale the searches are made for (normalise.ts).
 */
export function solveFeasibly(strategy: Strategy, original: CompiledProblem, budget: Budget): Solution {
  // In units where the searches' tolerances fit (normalise.ts); the routes answer the original.
  const p = normaliseScale(original);
  budget.setFeasibilityCheckpoint(FEASIBILITY_CHECKPOINT);
  const first = strategy.solve(p, budget);
  const interrupted = budget.checkpointReached;
  budget.setFeasibilityCheckpoint(null);
  if (evaluateSolution(p, first).feasible) return first;
  const repaired = restoreFeasibility(p, budget, first);
  if (repaired) budget.improved(cloneSolution(repaired));
  if (!interrupted || budget.exhausted()) return repaired ?? first;
  const second = strategy.solve(p, budget, repaired ?? first);
  const secondScore = evaluateSolution(p, second);
  if (!repaired) return second;
  return secondScore.feasible && secondScore.cost <= evaluateSolution(p, repaired).cost ? second : repaired;
}

/**
 * The feasibility phase: tries, in turn, (1) to salvage `from` (the search's infeasible answer):
 * customers are taken off violating routes and put back, largest demand first, with ejections
 * where nothing fits (ejection-repair.ts); (2) a construction from scratch by regret insertion,
 * completed the same way; (2b) a fleet-aware construction from scratch, the largest demands
 * placed first into the actual vehicles, with ejections; (3) without a time dimension,
 * a bin packing of the demands into the vehicles by capacity (fleet-packing.ts), each vehicle's
 * customers then ordered by cheapest insertion and 2-opt. The first feasible solution (checked by
 * the evaluator) is returned; null when none is found.
 */
export function restoreFeasibility(p: CompiledProblem, budget: Budget, from?: Solution): Solution | null {
  const hardStop = Math.max(budget.deadlineMs, performance.now() + MIN_PHASE_MS);
  const stop = () => performance.now() >= hardStop;
  const steps = STEPS_PER_CUSTOMER * Math.max(1, p.customers.length);
  const feasible = (s: Solution) => evaluateSolution(p, s).feasible;

  if (from) {
    const ws = new Workspace(p, sanitised(p, from));
    stripViolations(ws, stop);
    ejectionRepair(ws, budget.rng, stop, steps);
    if (ws.isFeasible() && feasible(ws.solution())) return ws.solution();
  }
  if (stop()) return null;
  // From scratch: regret insertion (which places hard-to-place customers first), then ejections.
  const fresh = new Workspace(p);
  regretInsertion(fresh, 2);
  ejectionRepair(fresh, budget.rng, stop, steps);
  if (fresh.isFeasible() && feasible(fresh.solution())) return fresh.solution();
  if (stop()) return null;
  // From scratch again, the largest demands first: a fleet-aware bin packing with routes.
  const packing = new Workspace(p);
  ejectionRepair(packing, budget.rng, stop, steps);
  if (packing.isFeasible() && feasible(packing.solution())) return packing.solution();

  if (p.time || stop()) return null;
  const vehicleOf = packFleet(p, budget.rng, stop);
  if (!vehicleOf) return null;
  const packed = routesFromPacking(p, vehicleOf);
  return feasible(packed) ? packed : null;
}

/** Each vehicle's customers as a route: cheapest insertion, then 2-opt where it is exact. */
function routesFromPacking(p: CompiledProblem, vehicleOf: Int32Array): Solution {
  const ws = new Workspace(p);
  const twoOpt = hasDenseMatrix(p) && isSymmetric(p);
  const byDemand = Array.from(p.customers).sort((a, b) => p.demand[b]! - p.demand[a]! || a - b);
  for (const c of byDemand) {
    const v = vehicleOf[c]!;
    const best = ws.bestInsertions(c, 1, [v])[0];
    ws.insert(c, v, best ? best.position : ws.routes[v]!.length);
  }
  if (twoOpt) for (let v = 0; v < p.vehicleCount; v++) twoOptRoute(p, v, ws.routes[v]!);
  return ws.solution();
}

/** `from` with one route per vehicle, customers only, each at most once. */
function sanitised(p: CompiledProblem, from: Solution): Solution {
  const seen = new Uint8Array(p.nodeCount);
  const routes = Array.from({ length: p.vehicleCount }, (_, v) =>
    (from.routes[v] ?? []).filter((c) => Number.isInteger(c) && c >= 0 && c < p.nodeCount && !p.isDepot[c] && !seen[c] && (seen[c] = 1)),
  );
  return { routes };
}
