import { tinyProblemPatience, type Budget } from "../core/budget.js";
import { solverNow } from "../core/clock.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { LocalSearch } from "../search/local-search.js";
import { PenaltyManager } from "../search/penalty-manager.js";
import { buildProblemData, type ProblemData } from "../search/problem-data.js";
import { Routes } from "../search/routes.js";
import { perVehicleSettings } from "../settings.js";
import { InfeasibleCandidates, LateAcceptance, ThresholdAcceptance, type Acceptance } from "./acceptance.js";
import type { IlsParts } from "./ils-parts.js";
import { MovedStopsFront } from "./moved-stops-front.js";
import { MovesPrice } from "./moves-price.js";
import { PerVehicleBest, PerVehicleEducation, RuinRecreate, SnapshotCurrent, type SnapshotCandidate } from "./per-vehicle-parts.js";
import { PoolRecombination } from "./pool-recombination.js";
import { AdaptivePrices } from "./price-adaptation.js";
import { PeriodicRestart } from "./restarts.js";
import { recreate } from "./ruin-recreate.js";
import { SetPartitioningStep } from "./set-partitioning-step.js";
import { penalised, snapshot } from "./snapshot.js";

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
 * The iterated local search's parts for any fleet, each route priced on its own vehicle: ruin a
 * few nearby customers or a route and reinsert them greedily, educate with the general granular
 * local search on a penalised cost (PenaltyManager), accept by late acceptance (on problems with
 * rules: by a threshold that anneals to the remaining budget, and the route ruin prefers short
 * routes; with shipments: by that threshold, kept across price adjustments), recombine pooled
 * routes by set partitioning where the settings have it, and go back to the best after a long
 * stagnation. The parts this problem's family uses come from its settings (strategies/settings.ts).
 * Builds its start from `initial` (or savings) and educates it first.
 */
export function startPerVehicle(p: CompiledProblem, budget: Budget, initial?: Solution): IlsParts<SnapshotCandidate> {
  // Under the default reassignment price the search prices moves at its own, adapting price (moves-price.ts).
  const front = MovedStopsFront.forProblem(p);
  const m = buildProblemData(front ? { ...p, reassignment: { ...p.reassignment! } } : p);
  const mode = perVehicleSettings(m, budget.overrides);
  const rng = budget.rng;
  const rs = new Routes(m);
  const ls = LocalSearch.perVehicle(rs, budget.overrides);
  const shuffledTypes = ls.settings.emptyTypeOrder === "shuffled";
  if (mode.focus) rs.trackChanges();
  // With load rules an iteration costs more (pair moves, O(route) checks) and the start is built
  // from nothing: the prices adapt after fewer outcomes, or they would barely move in the time given.
  const penalties = PenaltyManager.forProblem(m, m.order ? LOAD_RULES_SEGMENT : undefined, mode.feasibleCurrent);
  const stop = () => budget.exhausted();
  const best = new PerVehicleBest(p, m, budget, front);
  const pool = PoolRecombination.applies(mode) ? new PoolRecombination(rs, budget, solverNow()) : null;
  const education = new PerVehicleEducation(rs, ls, penalties, pool, mode.feasibleCurrent, rng, stop);
  const current = new SnapshotCurrent(rs, ls, penalties, best, mode.feasibleCurrent);

  const start = startRoutes(m, initial);
  rs.penalties = penalties.current;
  // Prize-collecting: serving nobody (the route model starts empty) is already feasible; counting
  // it at once keeps the solve's feasibility phase (core/feasibility.ts) from replacing the
  // search when the first descent is slow.
  if (m.rules?.anyOptional) best.considerSnapshot(snapshot(rs));
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
  recreate(ls.pricing, rng, start.missing, m.order !== null, true, shuffledTypes);
  // A feasible start counts as it is: education on a penalised cost may trade it for a worse one.
  best.considerSnapshot(snapshot(rs));
  current.set(education.educate(best.solution !== null));
  best.considerSnapshot(current.current);
  current.feasibleOnceKnown();

  // Problems without rules keep late acceptance and the uniform route ruin (the diversified
  // search has been tried on problems with rules only).
  const diversified = m.rules !== null;
  // Shipments: the annealed threshold too, never reset. Their prices adapt every LOAD_RULES_SEGMENT
  // iterations and change at most adjustments, so resetting at each left late acceptance a window
  // of 10 iterations that all start from the current cost: nearly a plain descent. Kept across
  // adjustments, the history stays exact for feasible candidates (their
  // cost is their distance whatever the prices) and is close for infeasible ones.
  const shipments = m.order?.partner != null;
  const keepAcrossPrices = !diversified && shipments;
  const acceptance: Acceptance =
    mode.thresholdWeight !== null
      ? new ThresholdAcceptance(THRESHOLD_HISTORY, mode.thresholdWeight, keepAcrossPrices)
      : diversified || shipments
        ? new ThresholdAcceptance(THRESHOLD_HISTORY, THRESHOLD_WEIGHT, keepAcrossPrices)
        : new LateAcceptance(HISTORY, penalised(current.current, penalties.current));
  const maxRuin = Math.min(m.customers.length, Math.max(MIN_RUIN, Math.min(MAX_RUIN, Math.ceil(m.customers.length / 40))));
  return {
    current,
    perturbation: new RuinRecreate(
      rs,
      ls.pricing,
      maxRuin,
      diversified,
      shipments ? ELIMINATION_PROBABILITY : 0,
      shuffledTypes,
      mode.ruinStrength,
    ),
    education,
    best,
    acceptance,
    // Feasible current (strategies/settings.ts: mixed fleets, windows without rules): an infeasible
    // candidate never becomes current once a feasible solution is known. With rules the threshold's
    // leeway is for feasible candidates only.
    infeasible: new InfeasibleCandidates(mode.feasibleCurrent, diversified),
    prices: front
      ? new MovesPrice(new AdaptivePrices(penalties, ls, false), front, rs, ls, p.reassignment!.price)
      : new AdaptivePrices(penalties, ls, false),
    restarts: new PeriodicRestart(RESTART_AFTER, tinyProblemPatience(m.customers.length, ITERATION_WEIGHT)),
    recombination: pool ? new SetPartitioningStep(pool, rs, current, education, best, shipments) : null,
  };
}
