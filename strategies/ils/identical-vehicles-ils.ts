import type { Budget } from "../core/budget.js";
import type { CompiledProblem } from "../core/problem.js";
import { LocalSearch } from "../search/local-search.js";
import type { Penalties } from "../search/penalties.js";
import type { ProblemData } from "../search/problem-data.js";
import { perturbationSettings } from "../settings.js";
import { LateAcceptance } from "./acceptance.js";
import { Constraints, IdenticalVehiclesBest, IdenticalVehiclesEducation, InPlaceCurrent } from "./identical-vehicles-parts.js";
import type { Candidate, IlsParts } from "./ils-parts.js";
import { AdaptivePrices } from "./price-adaptation.js";
import { PenaltyManager, type PriceKind } from "../search/penalty-manager.js";
import { StagnationRestart } from "./restarts.js";
import { IdenticalVehiclesRuin } from "./identical-vehicles-ruin.js";
import { RepairRule } from "./repair-rule.js";

/**
 * Late acceptance (Burke and Bykov 2017): a candidate is accepted when it beats the current
 * solution or the current one of this many iterations ago.
 */
const HISTORY = 500;
/**
 * Under binding windows an iteration costs several times more (longer routes, time-warp pricing),
 * so a 30-second search makes a few thousand of them: a shorter memory keeps late acceptance
 * from wandering for a large share of the run. The same holds for backhauls
 * (search/backhaul-model.ts: slow iterations, capacity tight in both directions).
 */
const WINDOWS_HISTORY = 100;
/** Iterations without a new best after which the search goes back to the best. */
const RESTART_AFTER = 20_000;
/**
 * Backhauls (search/backhaul-model.ts): also back to the best after this share of the budget
 * without a new best. Their iterations are slow enough that RESTART_AFTER iterations can take
 * longer than the whole budget, so the search never went back to the best, and the next
 * improvement often came only right after a restart. A share of the budget is the same patience
 * whatever an iteration costs.
 */
const BACKHAUL_RESTART_SHARE = 0.2;
/** Outcomes between two penalty adjustments. */
const PENALTY_SEGMENT = 100;
/**
 * Under binding windows the time-warp price starts high (a minute of warp as dear as the longest
 * edge, so the first solutions stay feasible) and must find its level quickly in a search that
 * makes far fewer iterations than without windows: prices adapt after this many outcomes.
 */
const WINDOWS_PENALTY_SEGMENT = 25;
/**
 * Backhauls (search/backhaul-model.ts): the load price starts this many times above its
 * reference, as the per-vehicle family's does under order rules (per-vehicle-ils.ts), and comes
 * down as feasible outcomes come. From the reference the first hundreds of outcomes were all
 * overloaded on VRPB (capacity tight in both directions), each paying for a repair, and at a few
 * hundred iterations per second the price barely rose within the budget.
 */
const BACKHAUL_START_PRICE_FACTOR = 100;

/**
 * The iterated local search's parts for identical-vehicles problems (one depot, identical vehicles, capacity
 * and an additive duration cap, or binding hard windows priced by time warp), with the identical-vehicles
 * local search's O(1) move pricing: the perturbation ruins a few strings of nearby customers and
 * recreates them greedily (identical-vehicles-ruin.ts; under windows each position priced with its exact time
 * warp, window-insertion.ts), the education re-runs the granular local search only around the
 * routes that changed, acceptance is late acceptance on a penalised cost whose prices adapt so that
 * about half the outcomes respect each constraint, and the current solution lives in the local
 * search. Loads `start` and descends from it first.
 */
export function startIdenticalVehicles(
  p: CompiledProblem,
  m: ProblemData,
  budget: Budget,
  start: readonly (readonly number[])[],
  penalties: Penalties,
): IlsParts<Candidate> {
  const rng = budget.rng;
  const stop = () => budget.exhausted();
  const ls = LocalSearch.identicalVehicles(m, budget.overrides);
  const perturbation = perturbationSettings(m, budget.overrides);
  const ruin = new IdenticalVehiclesRuin(ls, perturbation);
  const current = new InPlaceCurrent(p, ls, rng, stop);
  const backhauls = m.richLoads;
  let pen = startingPrices(m, penalties);
  if (backhauls) pen = { ...pen, load: pen.load * BACKHAUL_START_PRICE_FACTOR };
  // Ranges centred on the model's prices (load and duration before the backhauls' factor); time
  // warp adapts only under binding windows.
  const kinds: PriceKind[] = m.windows ? ["load", "duration", "timeWarp"] : ["load", "duration"];
  const references = { load: penalties.load, duration: penalties.duration, timeWarp: pen.timeWarp };
  const manager = new PenaltyManager(pen, references, kinds, m.windows ? WINDOWS_PENALTY_SEGMENT : PENALTY_SEGMENT);
  const prices = new AdaptivePrices(manager, ls, true);
  ls.penalties = pen;
  ls.loadRoutes(start);
  const missing = Array.from(m.customers).filter((c) => ls.rs.routeOf[c]! < 0);
  if (missing.length > 0) ruin.reinsert(rng, missing);

  const constraints = new Constraints(ls);
  const repairs = perturbation.repairOnceFeasible;
  const rule = repairs === "byYield" ? new RepairRule(rng) : null;
  const best = new IdenticalVehiclesBest(p, ls, budget, rule);
  // Set once the first descent is done: the education asks for the reach only after it.
  let acceptance: LateAcceptance | null = null;
  const reach = perturbation.repairWithinReach ? () => Math.max(acceptance!.bound(current.cost()), best.cost) : null;
  const education = new IdenticalVehiclesEducation(
    ls,
    constraints,
    manager,
    rng,
    stop,
    repairs !== false,
    rule,
    reach,
    perturbation.repairScope,
  );
  // A feasible start counts as it is: the search on a penalised cost may trade it for a worse one.
  if (constraints.all()) best.record(ls.totalCost());
  ls.run(rng, stop);
  if (!constraints.all()) education.repair();
  current.takeHeld();
  if (constraints.all()) best.record(current.cost());
  // Pickups on board (the backhaul model, the only identical-vehicles one with load segments): as windows.
  const history = perturbation.history ?? (m.windows || backhauls ? WINDOWS_HISTORY : HISTORY);
  acceptance = new LateAcceptance(history, current.cost(), { tolerance: 1e-7, keepAcrossPrices: true });
  const restartShare = budget.overrides.identicalVehicles?.restartShare ?? (backhauls ? BACKHAUL_RESTART_SHARE : null);
  return {
    current,
    perturbation: ruin,
    education,
    best,
    acceptance,
    infeasible: null,
    prices,
    restarts: new StagnationRestart(RESTART_AFTER, restartShare),
    recombination: null,
  };
}

/**
 * The search's first prices: under binding windows a minute of time warp at least as dear as the longest
 * edge, so the first solutions stay feasible.
 */
export function startingPrices(m: ProblemData, penalties: Penalties): Penalties {
  return {
    ...penalties,
    timeWarp: m.windows ? Math.max(penalties.timeWarp, (m.unitCost[0]! * m.maxDistance) / m.speed[0]!) : penalties.timeWarp,
  };
}
