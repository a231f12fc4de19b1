import { tinyProblemPatience, type Budget } from "../core/budget.js";
import { evaluateSolution } from "../core/evaluator.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { buildProblemData, type ProblemData } from "../search/problem-data.js";
import { LocalSearch } from "../search/local-search.js";
import { PenaltyManager } from "../search/penalty-manager.js";
import { Routes } from "../search/routes.js";
import { solverNow } from "../core/clock.js";
import { recreate, ruin, ruinShortestRoute } from "./ruin-recreate.js";
import { LateAcceptance, ThresholdAcceptance, type Acceptance } from "./acceptance.js";
import { PoolRecombination } from "./pool-recombination.js";
import { looksFeasible, penalised, recordOutcome, snapshot, type Snapshot } from "./snapshot.js";
import { perVehicleSettings } from "../settings.js";

/** Late acceptance: a candidate is accepted when it beats the current one or the one this many iterations ago. */
const HISTORY = 100;
/**
 * Problems with rules (skills, shifts, route caps): the annealed threshold of acceptance.ts over
 * this many recent candidates, starting at this share of the way from their best to their mean.
 * Late acceptance stalls there: once the current solution is a deep local optimum, no candidate
 * beats it or the solution of 100 iterations ago, which is the same one.
 */
const THRESHOLD_HISTORY = 100;
/**
 * Small: on a fully used fleet a wider threshold left the search worse than late acceptance,
 * while a small one keeps the threshold's gains on the other instances (BENCHMARKS.md, SDVRPTW).
 */
const THRESHOLD_WEIGHT = 0.05;
/** Iterations without a new best after which the search goes back to the best. */
const RESTART_AFTER = 1500;
/** Customers removed per ruin: up to ceil(n / 40), at least 5 and at most 15 (never more than n). */
const MIN_RUIN = 5;
const MAX_RUIN = 15;
/** Share of infeasible outcomes that get a repair attempt once a feasible solution is known. */
const REPAIR_PROBABILITY = 0.5;
/** One iteration (ruin, recreate, local search) against one ALNS step, for early stopping. */
const ITERATION_WEIGHT = 5;
const LOAD_RULES_SEGMENT = 10;
const START_PRICE_FACTOR = 100;
/**
 * Shipments: share of iterations whose perturbation is a route elimination (the route with the
 * fewest stops goes when it is short, and the used routes must take its customers: no vehicle may
 * open). Long routes (Li and Lim's type 2) often end a route too many, as a recreate that may open
 * a vehicle puts a dissolved route's pairs back on one. Rare, because an elimination's repair costs
 * many ordinary iterations; it does not hurt short routes (BENCHMARKS.md, PDPTW).
 */
const ELIMINATION_PROBABILITY = 0.02;

/**
 * Shipments: the route-fewer step (below) only when the best uses at least this many routes. On
 * three or four routes one fewer is a quarter to a third of the fleet: the pool's plans with it are
 * far from the good ones, and the search spent the rest of the budget leaving them.
 */
const MIN_ROUTES_TO_SQUEEZE = 5;

/** The search's price of required customers left unserved (allowed unassigned). */
function requiredPrice(m: ProblemData, missing: readonly number[]): number {
  let total = 0;
  for (const c of missing) total += m.rules!.skipPrice[c]!;
  return total;
}

/** A start for the search: the given solution (customers it lacks, repeats or misplaces are re-inserted) or savings. */
function startRoutes(m: ProblemData, initial: Solution | undefined): { routes: number[][]; missing: number[] } {
  // The savings know no backhaul order or shipment: with those rules the search builds its own start.
  const source = initial ?? (m.order ? { routes: [] } : clarkeWrightSolution(m.p));
  const seen = new Uint8Array(m.nodeCount);
  // On problems with skills a customer the vehicle may not serve is re-inserted elsewhere.
  const allowed = m.rules?.allowed ?? null;
  const may = (v: number, c: number) => allowed === null || allowed[v * m.nodeCount + c] === 1;
  // Locked stops head their routes whatever the start says; the rest follows as given.
  const heads = m.locks?.stops;
  heads?.forEach((head) => head.forEach((c) => (seen[c] = 1)));
  const routes = Array.from({ length: m.routes }, (_, v) => [
    ...(heads?.[v] ?? []),
    ...(source.routes[v] ?? []).filter(
      (c) => Number.isInteger(c) && c >= 0 && c < m.nodeCount && !m.p.isDepot[c] && !seen[c] && may(v, c) && (seen[c] = 1),
    ),
  ]);
  const missing = Array.from(m.customers).filter((c) => !seen[c]);
  return { routes, missing };
}

/**
 * Iterated local search for any fleet (PyVRP 0.14's design, written anew): ruin a few nearby
 * customers or a route, greedily reinsert them, educate with the general granular local search
 * on a penalised cost (load, time warp, working hours), try to repair an infeasible result with
 * raised penalties, accept by late acceptance (on problems with rules: by a threshold that anneals
 * to the remaining budget, and the route ruin prefers short routes; with shipments: by that
 * threshold, kept across price adjustments), and go back to the best after
 * a long stagnation.
 * Every new best is checked by the shared evaluator before it counts.
 */
export function iteratedLocalSearch(p: CompiledProblem, budget: Budget, initial?: Solution): Solution {
  const m = buildProblemData(p);
  // The parts of PyVRP's ILS this problem's family uses (strategies/settings.ts).
  const mode = perVehicleSettings(m, budget.overrides);
  const rng = budget.rng;
  const rs = new Routes(m);
  const ls = LocalSearch.perVehicle(rs);
  if (mode.focus) rs.trackChanges();
  // With load rules an iteration costs more (pair moves, O(route) checks) and the start is built
  // from nothing: the prices adapt after fewer outcomes, or they would barely move in the time given.
  const penalties = new PenaltyManager(m, m.order ? LOAD_RULES_SEGMENT : undefined, mode.feasibleCurrent);
  const stop = () => budget.exhausted();
  let best: Solution | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  const pool = PoolRecombination.applies(mode) ? new PoolRecombination(rs, budget, solverNow()) : null;

  const educate = (): Snapshot => {
    ls.run(rng, stop);
    pool?.harvest();
    let result = snapshot(rs);
    // With a feasible current (strategies/settings.ts): the prices adapt to the education's own outcome, before any repair.
    // Counting repaired outcomes (nearly all feasible) kept lowering the load price while the
    // educations came out ever more overloaded, every repair then a plan far dearer than the best.
    const beforeRepair = result;
    // Feasible current: infeasible candidates never become current (see the acceptance below), so each is repaired.
    if (!looksFeasible(result) && (best === null || mode.feasibleCurrent || rng.next() < REPAIR_PROBABILITY)) {
      for (const factor of [10, 100]) {
        rs.penalties = penalties.scaled(factor);
        rs.reprice();
        ls.revisitViolating();
        ls.run(rng, stop);
        const repaired = snapshot(rs);
        pool?.harvest();
        if (looksFeasible(repaired)) {
          result = repaired;
          break;
        }
      }
      rs.penalties = penalties.current;
      rs.reprice();
      ls.revisitViolating();
    }
    recordOutcome(penalties, mode.feasibleCurrent ? beforeRepair : result);
    return result;
  };
  const consider = (s: Snapshot): boolean => {
    // With rules the search's objective adds the skip prices of unserved customers (the
    // evaluator's cost has the optional ones' penalties; required ones left out, when allowed, are
    // priced as the search prices them, so that serving one always counts as better).
    if (!looksFeasible(s) || s.objective + s.unserved >= bestCost - 1e-9) return false;
    const solution = { routes: s.routes.map((r) => r.slice()) };
    const score = evaluateSolution(p, solution);
    const cost = m.rules && score.missing.length > 0 ? score.cost + requiredPrice(m, score.missing) : score.cost;
    if (!score.feasible || cost >= bestCost - 1e-9) return false;
    best = solution;
    bestCost = cost;
    budget.improved({ routes: solution.routes.map((r) => r.slice()) });
    return true;
  };

  // Feasible current: once a feasible solution is known, an infeasible current (an education whose
  // repair failed, before any was known) gives way to the best. Kept, its penalised cost at low
  // prices stayed below every feasible candidate's, and no candidate could replace it until the
  // prices had risen far enough, a large share of a short budget.
  const feasibleOnceKnown = (s: Snapshot): Snapshot => {
    if (!mode.feasibleCurrent || best === null || looksFeasible(s)) return s;
    rs.loadRoutes((best as Solution).routes);
    return snapshot(rs);
  };

  const start = startRoutes(m, initial);
  rs.penalties = penalties.current;
  // Prize-collecting: serving nobody (the route model starts empty) is already feasible; counting
  // it at once keeps the solve's feasibility phase (core/feasibility.ts) from replacing the
  // search when the first descent is slow.
  if (m.rules?.anyOptional) consider(snapshot(rs));
  rs.loadRoutes(start.routes);
  // A given start that breaks the order rules loses those routes' customers to the recreate.
  for (let r = 0; r < m.routes; r++) {
    if (!rs.broken[r]) continue;
    const head = m.locks?.stops[r] ?? [];
    start.missing.push(...start.routes[r]!.slice(head.length));
    rs.setRoute(r, head, head.length);
  }
  // With order rules the start is built here from nothing, and the search starts at raised prices
  // of infeasibility (lowered as feasible outcomes come): near feasible routes, instead of packing
  // (a fleet with little slack) or repairing time warp from cheap overloaded ones in few iterations.
  // Reload stops (search/trip-copies.ts) likewise: at the usual prices the first feasible plan of a
  // multi-trip instance came after seconds, at raised ones in a fraction of one.
  if (m.order || m.p.trips?.copyOf) {
    penalties.raise(START_PRICE_FACTOR);
    rs.penalties = penalties.current;
    rs.reprice();
  }
  recreate(ls.pricing, rng, start.missing, m.order !== null);
  // A feasible start counts as it is: education on a penalised cost may trade it for a worse one.
  consider(snapshot(rs));
  let current = educate();
  consider(current);
  current = feasibleOnceKnown(current);
  const startedMs = solverNow();
  // Problems without rules keep late acceptance and the uniform route ruin (the same routes as
  // before; the diversified search has been tried on problems with rules only).
  const diversified = m.rules !== null;
  // Shipments: the annealed threshold too, never reset. Their prices adapt every LOAD_RULES_SEGMENT
  // iterations and change at most adjustments, so resetting at each left late acceptance a window
  // of 10 iterations that all start from the current cost: nearly a plain descent. Kept across
  // adjustments, the history stays exact for feasible candidates (their
  // cost is their distance whatever the prices) and is close for infeasible ones.
  const shipments = m.order?.partner != null;
  const acceptance: Acceptance =
    mode.thresholdWeight !== null
      ? new ThresholdAcceptance(THRESHOLD_HISTORY, mode.thresholdWeight)
      : diversified || shipments
        ? new ThresholdAcceptance(THRESHOLD_HISTORY, THRESHOLD_WEIGHT)
        : new LateAcceptance(HISTORY, penalised(current, penalties.current));
  const resetOnNewPrices = diversified || !shipments;
  const stopAfter = tinyProblemPatience(m.customers.length, ITERATION_WEIGHT);
  const maxRuin = Math.min(m.customers.length, Math.max(MIN_RUIN, Math.min(MAX_RUIN, Math.ceil(m.customers.length / 40))));
  let sinceBest = 0;
  while (!budget.tick()) {
    if (penalties.adapt()) {
      if (resetOnNewPrices) acceptance.reset(penalised(current, penalties.current));
      rs.penalties = penalties.current;
      rs.reprice();
      ls.forget();
    }
    ls.loadRoutes(current.routes);
    // Localised education: only what the ruin and recreate (then the moves) change is examined.
    ls.focus();
    const eliminated = shipments && rng.next() < ELIMINATION_PROBABILITY ? ruinShortestRoute(rs, rng) : [];
    const eliminate = eliminated.length > 0;
    const removed = eliminate ? eliminated : ruin(rs, rng, 1 + rng.int(maxRuin), diversified);
    recreate(ls.pricing, rng, removed, false, !eliminate);
    // Whatever the used routes could not take (a route elimination) goes anywhere after all.
    if (eliminate)
      recreate(
        ls.pricing,
        rng,
        removed.filter((c) => rs.routeOf[c]! < 0),
      );
    const candidate = educate();
    sinceBest = consider(candidate) ? 0 : sinceBest + 1;
    const candidateCost = penalised(candidate, penalties.current);
    const currentCost = penalised(current, penalties.current);
    // With rules the threshold's leeway is for feasible candidates only: an infeasible one becomes
    // current only when it beats it (accepted infeasible outcomes drifted on a fully used fleet).
    // Feasible current (strategies/settings.ts: mixed fleets, windows without rules): an infeasible
    // candidate never becomes current once a feasible solution is known (as in PyVRP's ILS).
    // Taking the penalised-cheaper one let the current drift into ever more overloaded plans on
    // fewer vehicles, from which no candidate came back.
    const infeasible = !looksFeasible(candidate);
    let accepted: boolean;
    if (mode.feasibleCurrent && best !== null && infeasible) accepted = false;
    else if (diversified && infeasible) accepted = candidateCost < currentCost;
    else accepted = acceptance.accept(currentCost, candidateCost, budget.progress(startedMs));
    if (accepted) current = candidate;
    current = feasibleOnceKnown(current);
    if (stopAfter !== null && sinceBest >= stopAfter) break;
    // Set partitioning over the pooled routes: a new best becomes the current solution too.
    if (pool && best && pool.due()) {
      const plan = pool.recombine((best as Solution).routes, bestCost);
      if (plan) {
        rs.loadRoutes(plan);
        const recombined = snapshot(rs);
        if (consider(recombined)) {
          sinceBest = 0;
          current = educate();
          if (consider(current)) sinceBest = 0;
        }
      } else if (shipments) {
        // Nothing cheaper: the pool's cheapest plan with a route fewer, if it holds one, becomes
        // the current solution whatever its distance (a route-minimisation step by set
        // partitioning). Runs that ended above what longer runs find, often with a vehicle too
        // many, had their last new best at the first or second recombination and never left that
        // basin; a start with a route fewer moves the search elsewhere, and the best is kept.
        const bestRoutes = (best as Solution).routes;
        const used = bestRoutes.filter((route) => route.length > 0).length;
        const fewer = used >= MIN_ROUTES_TO_SQUEEZE ? pool.fewerRoutes(bestRoutes, used - 1) : null;
        if (fewer) {
          rs.loadRoutes(fewer);
          current = educate();
          if (consider(current)) sinceBest = 0;
        }
      }
    }
    if (sinceBest > 0 && sinceBest % RESTART_AFTER === 0 && best) {
      rs.loadRoutes((best as Solution).routes);
      current = snapshot(rs);
    }
  }
  if (best) return best;
  return { routes: current.routes };
}
