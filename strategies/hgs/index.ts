import { tinyProblemPatience, type Budget } from "../core/budget.js";
import { denseMatrixRefusal, type CompiledProblem, type Solution } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import type { Strategy } from "../core/strategy.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { orderedCrossover } from "./crossover.js";
import { Individual } from "./individual.js";
import { LocalSearch } from "./local-search.js";
import { iteratedLocalSearch } from "./ils.js";
import { textbookIteratedLocalSearch } from "./textbook-ils.js";
import { buildModel, type HgsModel, type Penalties } from "./model.js";
import { Population, POPULATION } from "./population.js";
import { split } from "./split.js";
import { windowsMethod } from "./windows-method.js";
import { adaptPrice, loadReference, priceRange, timeReference, type PriceRange } from "../core/penalty-scale.js";

/** Share of local-search outcomes that should be feasible; penalties adapt towards it. */
const TARGET_FEASIBLE = 0.2;
const PENALTY_SEGMENT = 100;
const REPAIR_PROBABILITY = 0.5;
/** Iterations without a new best before the population is rebuilt around the best. */
const STAGNATION_LIMIT = 20_000;
/** One generation (crossover, split, local search) against one ALNS step, for early stopping. */
const HGS_ITERATION_WEIGHT = 10;
/**
 * Above this many customers, textbook problems without binding windows go to the iterated local
 * search (textbook-ils.ts) instead of the genetic search: see BENCHMARKS.md, issue 16.
 */
export const ITERATED_SEARCH_ABOVE = 300;

/**
 * Starting prices of infeasibility, scale-free (core/penalty-scale.ts): a unit of excess load
 * about as dear as the longest edge per unit of the largest demand, a minute as a minute's driving.
 */
export function initialPenalties(m: HgsModel): Penalties {
  const time = timeReference(m.unitCost, m.speed);
  return { load: loadReference(m.unitCost, m.maxDistance, m.maxDemand), duration: time, timeWarp: time };
}

/** Customers missing from a construction go to the end of the last route, so that LS repairs them. */
function complete(m: HgsModel, routes: number[][]): number[][] {
  const seen = new Uint8Array(m.nodeCount);
  // With more vehicles than routes in the model, keep the construction's non-empty routes.
  const used = routes.length > m.vehicles ? routes.filter((r) => r.length > 0) : routes;
  const out = Array.from({ length: m.vehicles }, (_, r) => (used[r] ?? []).filter((c) => !seen[c] && (seen[c] = 1)));
  for (const c of m.customers) if (!seen[c]) out[m.vehicles - 1]!.push(c);
  return out;
}

function randomTour(m: HgsModel, rng: Rng): Int32Array {
  const tour = Array.from(m.customers);
  rng.shuffle(tour);
  return Int32Array.from(tour);
}

class Search {
  readonly ls: LocalSearch;
  readonly population: Population;
  penalties: Penalties;
  /** Each price adapts within a range around its starting value (scale-free, no fixed cap). */
  private readonly ranges: Record<keyof Penalties, PriceRange>;
  private loadFeasibleHistory: boolean[] = [];
  private durationFeasibleHistory: boolean[] = [];
  private warpFeasibleHistory: boolean[] = [];

  constructor(
    readonly m: HgsModel,
    readonly rng: Rng,
    private readonly stop: () => boolean,
  ) {
    this.ls = new LocalSearch(m);
    this.population = new Population(m);
    this.penalties = initialPenalties(m);
    this.ranges = { load: priceRange(this.penalties.load), duration: priceRange(this.penalties.duration), timeWarp: priceRange(this.penalties.timeWarp) };
  }

  /** Educates (local search) a solution and adds it, with a repair attempt when infeasible. */
  educateAndAdd(routes: number[][]): boolean {
    const ls = this.ls;
    ls.penalties = this.penalties;
    ls.loadRoutes(routes);
    ls.run(this.rng, this.stop);
    let loadOk = true;
    let durationOk = true;
    let warpOk = true;
    const limit = this.m.windows ? this.m.windows.maxDuration : this.m.durationLimit;
    for (let r = 0; r < this.m.vehicles; r++) {
      if (ls.loadOf(r) > this.m.capacity + 1e-9) loadOk = false;
      if (ls.durationOf(r) > limit + 1e-7) durationOk = false;
      if (ls.timeWarpOf(r) > 1e-9) warpOk = false;
    }
    this.loadFeasibleHistory.push(loadOk);
    this.durationFeasibleHistory.push(durationOk);
    this.warpFeasibleHistory.push(warpOk);
    const educated = new Individual(this.m, ls.routes(), this.penalties);
    let improved = this.population.add(educated);
    if (!educated.feasible && this.rng.next() < REPAIR_PROBABILITY) {
      // Repair as in HGS: penalties x10, then x100 if the result is still infeasible.
      for (const factor of [10, 100]) {
        ls.penalties = { load: this.penalties.load * factor, duration: this.penalties.duration * factor, timeWarp: this.penalties.timeWarp * factor };
        ls.reprice();
        ls.run(this.rng, this.stop);
        const repaired = new Individual(this.m, ls.routes(), this.penalties);
        if (repaired.feasible) {
          improved = this.population.add(repaired) || improved;
          break;
        }
      }
      ls.penalties = this.penalties;
    }
    return improved;
  }

  /** Moves each penalty so that about TARGET_FEASIBLE of the educated solutions are feasible. */
  adaptPenalties(): void {
    const adjust = (key: keyof Penalties, history: boolean[]) =>
      history.length === 0 ? this.penalties[key] : adaptPrice(this.penalties[key], history.filter(Boolean).length / history.length, TARGET_FEASIBLE, this.ranges[key]);
    this.penalties = {
      load: adjust("load", this.loadFeasibleHistory),
      duration: adjust("duration", this.durationFeasibleHistory),
      timeWarp: adjust("timeWarp", this.warpFeasibleHistory),
    };
    this.loadFeasibleHistory = [];
    this.durationFeasibleHistory = [];
    this.warpFeasibleHistory = [];
    this.population.reprice(this.penalties);
  }

  offspring(): number[][] {
    const a = this.population.select(this.rng);
    let b = this.population.select(this.rng);
    for (let tries = 0; tries < 3 && b === a; tries++) b = this.population.select(this.rng);
    const child = orderedCrossover(a.tour, b.tour, this.rng, this.m.nodeCount);
    return split(this.m, this.penalties, child);
  }
}

function toSolution(p: CompiledProblem, routes: number[][]): Solution {
  const out: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  let v = 0;
  for (const route of routes) if (route.length > 0) out[v++] = route.slice();
  return { routes: out };
}

/**
 * The strong search, for every problem. One depot, identical vehicles and hard windows (the
 * textbook case): hybrid genetic search with adaptive diversity control (Vidal 2022), ordered
 * crossover on giant tours, optimal split, granular local search on penalised load and duration,
 * and a population ranked by cost and diversity; windows that cannot bind before the depot
 * closes are a duration cap, binding hard windows are priced by time warp (Vidal et al. 2013,
 * time.ts). Above ITERATED_SEARCH_ABOVE customers without binding windows, and above
 * WINDOWS_ITERATED_ABOVE with them (windows-method.ts), where a generation costs too much to
 * evolve a population in the time given, an iterated local search around the same local search
 * instead (textbook-ils.ts). Everything else (mixed fleets, several depots or different start and end nodes,
 * speeds, soft windows): giant-tour split no longer fits, so an iterated local search around a
 * general granular local search (ils.ts) that prices every route on its own vehicle.
 */
export const hgs: Strategy = {
  name: "hgs",
  supports(p) {
    const refusal = denseMatrixRefusal(p, "hgs");
    if (refusal) return { ok: false, reason: refusal };
    if (p.customers.length < 2) return { ok: false, reason: "hgs needs at least two customers" };
    if (p.vehicleCount === 0) return { ok: false, reason: "there are no vehicles" };
    return { ok: true };
  },
  solve(p: CompiledProblem, budget: Budget, initial?: Solution): Solution {
    const outcome = buildModel(p);
    // Mixed fleets, several depots, speeds and soft windows: the general iterated local search.
    if (!outcome.ok) return iteratedLocalSearch(p, budget, initial);
    const m = outcome.model;
    // A caller's starting solution (e.g. the current routes of a decomposed large problem; it may
    // be partial or infeasible) takes the savings' place.
    const start = initial ? initial.routes.map((r) => r.filter((c) => c >= 0 && c < m.nodeCount && !p.isDepot[c])) : clarkeWrightSolution(p).routes;
    if (m.windows === null && m.customers.length > ITERATED_SEARCH_ABOVE) {
      return textbookIteratedLocalSearch(p, m, budget, complete(m, start), initialPenalties(m));
    }
    // Binding windows: by size (windows-method.ts), measured in BENCHMARKS.md (issue 20).
    const method = m.windows === null ? "genetic" : windowsMethod(m);
    if (method === "general") return iteratedLocalSearch(p, budget, initial);
    if (method === "iterated") return textbookIteratedLocalSearch(p, m, budget, complete(m, start), initialPenalties(m));
    const search = new Search(m, budget.rng, () => budget.exhausted());
    let iteration = 0;
    const step = (): boolean => {
      iteration++;
      if (iteration % PENALTY_SEGMENT === 0) search.adaptPenalties();
      return budget.tick();
    };

    /** Educates and adds one solution; tells the budget when it is a new best feasible one. */
    const educateAndAdd = (routes: number[][]): boolean => {
      const improved = search.educateAndAdd(routes);
      if (improved && search.population.best) budget.improved(toSolution(p, search.population.best.routes));
      return improved;
    };

    educateAndAdd(complete(m, start));
    const initialCount = 4 * POPULATION.minimum;
    for (let k = 0; k < initialCount && !step(); k++) educateAndAdd(split(m, search.penalties, randomTour(m, search.rng)));

    const stopAfter = tinyProblemPatience(m.customers.length, HGS_ITERATION_WEIGHT);
    let sinceBest = 0;
    while (!step()) {
      if (search.population.size() < 2) {
        educateAndAdd(split(m, search.penalties, randomTour(m, search.rng)));
        continue;
      }
      sinceBest = educateAndAdd(search.offspring()) ? 0 : sinceBest + 1;
      if (stopAfter !== null && sinceBest >= stopAfter) break;
      if (sinceBest >= STAGNATION_LIMIT) {
        const best = search.population.best;
        search.population.restart();
        if (best) search.population.add(new Individual(m, best.routes, search.penalties));
        sinceBest = 0;
      }
    }
    const best = search.population.best ?? [...search.population.infeasible].sort((a, b) => a.penalisedCost - b.penalisedCost)[0];
    return toSolution(p, best ? best.routes : complete(m, clarkeWrightSolution(p).routes));
  },
};
