import { tinyProblemPatience, type Budget } from "../core/budget.js";
import { evaluateSolution } from "../core/evaluator.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { buildFleetModel, type FleetModel } from "../search/fleet-model.js";
import { GeneralLocalSearch } from "../search/general/local-search.js";
import type { Penalties } from "../search/penalties.js";
import { PenaltyManager } from "../search/penalty-manager.js";
import { Routes } from "../search/routes.js";
import { recreate, ruin } from "./ruin-recreate.js";

/** Late acceptance: a candidate is accepted when it beats the current one or the one this many iterations ago. */
const HISTORY = 100;
/** Iterations without a new best after which the search goes back to the best. */
const RESTART_AFTER = 1500;
/** Customers removed per ruin: up to ceil(n / 40), at least 5 and at most 15 (never more than n). */
const MIN_RUIN = 5;
const MAX_RUIN = 15;
/** Share of infeasible outcomes that get a repair attempt once a feasible solution is known (before: all). */
const REPAIR_PROBABILITY = 0.5;
/** One iteration (ruin, recreate, local search) against one ALNS step, for early stopping. */
const ITERATION_WEIGHT = 5;
const FEASIBLE_EPS = 1e-9;
const LOAD_RULES_SEGMENT = 10;
const START_PRICE_FACTOR = 100;

interface Snapshot {
  routes: number[][];
  objective: number;
  loadExcess: number;
  timeWarp: number;
  durationExcess: number;
}

function snapshot(rs: Routes): Snapshot {
  let objective = 0;
  let loadExcess = 0;
  let timeWarp = 0;
  let durationExcess = 0;
  for (let r = 0; r < rs.m.routes; r++) {
    objective += rs.objective[r]!;
    loadExcess += rs.loadExcess[r]!;
    timeWarp += rs.timeWarp[r]!;
    durationExcess += rs.durationExcess[r]!;
  }
  return { routes: rs.routes(), objective, loadExcess, timeWarp, durationExcess };
}

function penalised(s: Snapshot, pen: Penalties): number {
  return s.objective + pen.load * s.loadExcess + pen.timeWarp * s.timeWarp + pen.duration * s.durationExcess;
}

function looksFeasible(s: Snapshot): boolean {
  return s.loadExcess <= FEASIBLE_EPS && s.timeWarp <= FEASIBLE_EPS && s.durationExcess <= FEASIBLE_EPS;
}

/** A start for the search: the given solution (customers it lacks, repeats or misplaces are re-inserted) or savings. */
function startRoutes(m: FleetModel, initial: Solution | undefined): { routes: number[][]; missing: number[] } {
  // The savings know no backhaul order or shipment: with those rules the search builds its own start.
  const source = initial ?? (m.order ? { routes: [] } : clarkeWrightSolution(m.p));
  const seen = new Uint8Array(m.nodeCount);
  const routes = Array.from({ length: m.routes }, (_, v) =>
    (source.routes[v] ?? []).filter((c) => Number.isInteger(c) && c >= 0 && c < m.nodeCount && !m.p.isDepot[c] && !seen[c] && (seen[c] = 1)),
  );
  const missing = Array.from(m.customers).filter((c) => !seen[c]);
  return { routes, missing };
}

/**
 * Iterated local search for any fleet (PyVRP 0.14's design, written anew): ruin a few nearby
 * customers or a route, greedily reinsert them, educate with the general granular local search
 * on a penalised cost (load, time warp, working hours), try to repair an infeasible result with
 * raised penalties, accept by late acceptance, and go back to the best after a long stagnation.
 * Every new best is checked by the shared evaluator before it counts.
 */
export function iteratedLocalSearch(p: CompiledProblem, budget: Budget, initial?: Solution): Solution {
  const m = buildFleetModel(p);
  const rng = budget.rng;
  const rs = new Routes(m);
  const ls = new GeneralLocalSearch(rs);
  // With load rules an iteration costs more (pair moves, O(route) checks) and the start is built
  // from nothing: the prices adapt after fewer outcomes, or they would barely move in the time given.
  const penalties = new PenaltyManager(m, m.order ? LOAD_RULES_SEGMENT : undefined);
  const stop = () => budget.exhausted();
  let best: Solution | null = null;
  let bestCost = Number.POSITIVE_INFINITY;

  const educate = (): Snapshot => {
    ls.run(rng, stop);
    let result = snapshot(rs);
    if (!looksFeasible(result) && (best === null || rng.next() < REPAIR_PROBABILITY)) {
      for (const factor of [10, 100]) {
        rs.penalties = penalties.scaled(factor);
        rs.reprice();
        ls.revisitViolating();
        ls.run(rng, stop);
        const repaired = snapshot(rs);
        if (looksFeasible(repaired)) {
          result = repaired;
          break;
        }
      }
      rs.penalties = penalties.current;
      rs.reprice();
      ls.revisitViolating();
    }
    penalties.record(result.loadExcess <= FEASIBLE_EPS, result.timeWarp <= FEASIBLE_EPS, result.durationExcess <= FEASIBLE_EPS);
    return result;
  };
  const consider = (s: Snapshot): boolean => {
    if (!looksFeasible(s) || s.objective >= bestCost - 1e-9) return false;
    const solution = { routes: s.routes.map((r) => r.slice()) };
    const score = evaluateSolution(p, solution);
    if (!score.feasible || score.cost >= bestCost - 1e-9) return false;
    best = solution;
    bestCost = score.cost;
    budget.improved({ routes: solution.routes.map((r) => r.slice()) });
    return true;
  };

  const start = startRoutes(m, initial);
  rs.penalties = penalties.current;
  rs.loadRoutes(start.routes);
  // A given start that breaks the order rules loses those routes' customers to the recreate.
  for (let r = 0; r < m.routes; r++) {
    if (!rs.broken[r]) continue;
    start.missing.push(...start.routes[r]!);
    rs.setRoute(r, [], 0);
  }
  // With order rules the start is built here from nothing, and the search starts at raised prices
  // of infeasibility (lowered as feasible outcomes come): near feasible routes, instead of packing
  // (a fleet with little slack) or repairing time warp from cheap overloaded ones in few iterations.
  if (m.order) {
    penalties.raise(START_PRICE_FACTOR);
    rs.penalties = penalties.current;
    rs.reprice();
  }
  recreate(ls, rng, start.missing, m.order !== null);
  // A feasible start counts as it is: education on a penalised cost may trade it for a worse one.
  consider(snapshot(rs));
  let current = educate();
  consider(current);
  const history = new Float64Array(HISTORY).fill(penalised(current, penalties.current));
  const stopAfter = tinyProblemPatience(m.customers.length, ITERATION_WEIGHT);
  const maxRuin = Math.min(m.customers.length, Math.max(MIN_RUIN, Math.min(MAX_RUIN, Math.ceil(m.customers.length / 40))));
  let sinceBest = 0;
  let iteration = 0;
  while (!budget.tick()) {
    if (penalties.adapt()) {
      history.fill(penalised(current, penalties.current));
      rs.penalties = penalties.current;
      rs.reprice();
      ls.forget();
    }
    rs.loadRoutes(current.routes);
    const removed = ruin(rs, rng, 1 + rng.int(maxRuin));
    recreate(ls, rng, removed);
    const candidate = educate();
    sinceBest = consider(candidate) ? 0 : sinceBest + 1;
    const slot = iteration++ % HISTORY;
    const candidateCost = penalised(candidate, penalties.current);
    const currentCost = penalised(current, penalties.current);
    if (candidateCost < currentCost || candidateCost < history[slot]!) current = candidate;
    history[slot] = Math.min(history[slot]!, penalised(current, penalties.current));
    if (stopAfter !== null && sinceBest >= stopAfter) break;
    if (sinceBest > 0 && sinceBest % RESTART_AFTER === 0 && best) {
      rs.loadRoutes((best as Solution).routes);
      current = snapshot(rs);
    }
  }
  if (best) return best;
  return { routes: current.routes };
}
