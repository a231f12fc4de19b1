import type { Budget } from "../core/budget.js";
import { evaluateSolution } from "../core/evaluator.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import { LocalSearch } from "../search/local-search.js";
import { Penalties } from "../search/textbook-model.js";
import type { ProblemData } from "../search/problem-data.js";
import { toSolution } from "../search/textbook/solutions.js";
import { TextbookRuin } from "./textbook-ruin.js";
import { adaptPrice, priceRange } from "../core/penalty-scale.js";
import { solverNow } from "../core/clock.js";

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
/** Iterations between two looks at the clock for that restart. */
const RESTART_CHECK = 20;
/** Outcomes between two penalty adjustments, and the share of them that should be load- and duration-feasible. */
const PENALTY_SEGMENT = 100;
/**
 * Under binding windows the time-warp price starts high (a minute of warp as dear as the longest
 * edge, so the first solutions stay feasible) and must find its level quickly in a search that
 * makes far fewer iterations than without windows: prices adapt after this many outcomes.
 */
const WINDOWS_PENALTY_SEGMENT = 25;
const TARGET_FEASIBLE = 0.5;
/**
 * Backhauls (search/backhaul-model.ts): the load price starts this many times above its
 * reference, as the general search's does under order rules (general-ils.ts), and comes down as
 * feasible outcomes come. From the reference the first hundreds of outcomes were all overloaded
 * on VRPB (capacity tight in both directions), each paying for a repair, and at a few hundred
 * iterations per second the price barely rose within the budget.
 */
const BACKHAUL_START_PRICE_FACTOR = 100;
/** Share of infeasible outcomes that get a repair attempt once a feasible solution is known, as in HGS. */
const REPAIR_PROBABILITY = 0.5;
const EPS = 1e-7;

/**
 * Iterated local search for textbook problems (one depot, identical vehicles, capacity and an
 * additive duration cap, or binding hard windows priced by time warp), PyVRP 0.14's design with
 * the textbook local search's O(1) move pricing: each iteration ruins a few strings of nearby
 * customers and recreates them greedily (textbook-ruin.ts; under windows each position priced
 * with its exact time warp, window-insertion.ts), re-runs the granular local search only around
 * the routes that changed, and accepts by late acceptance on a penalised cost whose prices adapt
 * so that about half the outcomes respect each constraint (load, duration, and under windows
 * time warp). The current solution lives in the local search; a rejected candidate is undone by
 * restoring only the routes it rewrote.
 */
export function textbookIteratedLocalSearch(
  p: CompiledProblem,
  m: ProblemData,
  budget: Budget,
  start: readonly (readonly number[])[],
  penalties: Penalties,
): Solution {
  const rng = budget.rng;
  const stop = () => budget.exhausted();
  const ls = LocalSearch.identicalVehicles(m);
  const ruin = new TextbookRuin(ls);
  const routes = m.routes;
  const saved = Array.from({ length: routes }, () => new Int32Array(m.customers.length));
  const savedLength = new Int32Array(routes);
  const segment = m.windows ? WINDOWS_PENALTY_SEGMENT : PENALTY_SEGMENT;
  const backhauls = m.richLoads;
  let pen = startingPrices(m, penalties);
  if (backhauls) pen = { ...pen, load: pen.load * BACKHAUL_START_PRICE_FACTOR };
  const loadRange = priceRange(penalties.load);
  const durationRange = priceRange(penalties.duration);
  const warpRange = priceRange(pen.timeWarp);
  ls.penalties = pen;
  ls.loadRoutes(start);
  const missing = Array.from(m.customers).filter((c) => ls.rs.routeOf[c]! < 0);
  if (missing.length > 0) ruin.reinsert(rng, missing);

  let best: Solution | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  // Under binding windows the working-hours cap applies to the scheduled duration (the route model's time segments).
  const durationLimit = m.windows ? m.windows.maxDuration : m.durationLimit;
  const loadFeasible = (): boolean => {
    for (let r = 0; r < routes; r++) if (ls.overloaded(r)) return false;
    return true;
  };
  const durationFeasible = (): boolean => {
    for (let r = 0; r < routes; r++) if (ls.durationOf(r) > durationLimit + 1e-7) return false;
    return true;
  };
  /** No time warp (always true without binding windows). */
  const warpFeasible = (): boolean => {
    if (!m.windows) return true;
    for (let r = 0; r < routes; r++) if (ls.timeWarpOf(r) > 1e-9) return false;
    return true;
  };
  const feasible = (): boolean => loadFeasible() && durationFeasible() && warpFeasible();
  /** Hands a new best feasible solution (checked by the shared evaluator) to the budget. */
  const consider = (cost: number): boolean => {
    if (cost >= bestCost - EPS) return false;
    const solution = toSolution(p, ls.routes());
    if (!evaluateSolution(p, solution).feasible) return false;
    best = solution;
    bestCost = cost;
    budget.improved(toSolution(p, solution.routes));
    return true;
  };
  const save = (since: number): void => {
    for (let r = 0; r < routes; r++) {
      if (ls.rs.modifiedAt[r]! <= since) continue;
      savedLength[r] = ls.rs.length[r]!;
      saved[r]!.set(ls.rs.seq[r]!.subarray(1, ls.rs.length[r]! + 1));
    }
  };
  const restore = (since: number): void => {
    // Optional customers: one the candidate served may be on no saved route, so forget the candidate's places first.
    if (m.skipPrice) {
      for (let r = 0; r < routes; r++) {
        if (ls.rs.modifiedAt[r]! <= since) continue;
        const seq = ls.rs.seq[r]!;
        for (let k = 1; k <= ls.rs.length[r]!; k++) if (ls.rs.routeOf[seq[k]!] === r) ls.rs.routeOf[seq[k]!] = -1;
      }
    }
    for (let r = 0; r < routes; r++) if (ls.rs.modifiedAt[r]! > since) ls.setRoute(r, saved[r]!, savedLength[r]!);
  };

  /**
   * Repair as in HGS: the local search again under penalties x10, then x100, looking first at
   * the routes that break a constraint, until the routes are feasible; the prices go back after.
   */
  const repair = (): void => {
    for (const factor of [10, 100]) {
      ls.penalties = {
        load: pen.load * factor,
        duration: pen.duration * factor,
        timeWarp: m.windows ? pen.timeWarp * factor : pen.timeWarp,
      };
      ls.reprice();
      for (let r = 0; r < routes; r++)
        if (ls.overloaded(r) || ls.durationOf(r) > durationLimit + 1e-7 || (m.windows && ls.timeWarpOf(r) > 1e-9)) ls.markChanged(r);
      ls.runLocalised(rng, stop);
      if (feasible()) break;
    }
    ls.penalties = pen;
    ls.reprice();
  };

  // A feasible start counts as it is: the search on a penalised cost may trade it for a worse one.
  if (feasible()) consider(ls.totalCost());
  ls.run(rng, stop);
  if (!feasible()) repair();
  save(-1);
  let currentCost = ls.totalCost();
  if (feasible()) consider(currentCost);
  // Pickups on board (the backhaul model, the only textbook one with load segments): as windows.
  const history = new Float64Array(m.windows || backhauls ? WINDOWS_HISTORY : HISTORY).fill(currentCost);
  let loadOk = 0;
  let durationOk = 0;
  let warpOk = 0;
  let outcomes = 0;
  let sinceBest = 0;
  let iteration = 0;
  const startedMs = solverNow();
  /** Share of the budget used when the current best was found (backhauls; -1: not read yet). */
  let progressAtBest = -1;
  while (!budget.tick()) {
    const mark = ls.clock;
    ruin.perturb(rng);
    ls.runLocalised(rng, stop);
    const load = loadFeasible();
    const duration = durationFeasible();
    const warp = warpFeasible();
    loadOk += load ? 1 : 0;
    durationOk += duration ? 1 : 0;
    warpOk += warp ? 1 : 0;
    outcomes++;
    if (!(load && duration && warp) && (best === null || rng.next() < REPAIR_PROBABILITY)) repair();
    const candidateCost = ls.totalCost();
    sinceBest = feasible() && consider(candidateCost) ? 0 : sinceBest + 1;
    const slot = iteration++ % history.length;
    if (candidateCost < currentCost - EPS || candidateCost < history[slot]! - EPS) {
      save(mark);
      currentCost = candidateCost;
    } else restore(mark);
    if (currentCost < history[slot]!) history[slot] = currentCost;

    if (outcomes === segment) {
      pen = {
        load: adaptPrice(pen.load, loadOk / outcomes, TARGET_FEASIBLE, loadRange),
        duration: adaptPrice(pen.duration, durationOk / outcomes, TARGET_FEASIBLE, durationRange),
        timeWarp: m.windows ? adaptPrice(pen.timeWarp, warpOk / outcomes, TARGET_FEASIBLE, warpRange) : pen.timeWarp,
      };
      loadOk = durationOk = warpOk = outcomes = 0;
      ls.penalties = pen;
      ls.reprice();
      // The history keeps its old prices: they differ only on infeasible entries, and refilling
      // it every segment would undo late acceptance's memory.
      currentCost = ls.totalCost();
    }
    if (sinceBest === 0) progressAtBest = -1;
    let stale = false;
    if (backhauls && best && iteration % RESTART_CHECK === 0) {
      const progress = budget.progress(startedMs);
      if (progressAtBest < 0) progressAtBest = progress;
      stale = progress - progressAtBest >= BACKHAUL_RESTART_SHARE;
    }
    if ((sinceBest >= RESTART_AFTER || stale) && best) {
      progressAtBest = -1;
      ls.loadRoutes(fromSolution(best, routes));
      ls.run(rng, stop);
      save(-1);
      currentCost = ls.totalCost();
      history.fill(currentCost);
      sinceBest = 0;
    }
  }
  // Never feasible: the last current solution, for the caller to report as infeasible.
  return best ?? toSolution(p, ls.routes());
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

function fromSolution(s: Solution, routes: number): number[][] {
  return Array.from({ length: routes }, (_, r) => s.routes[r] ?? []);
}
