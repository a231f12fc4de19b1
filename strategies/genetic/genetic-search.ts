import { tinyProblemPatience, type Budget } from "../core/budget.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { initialPenalties, type Penalties } from "../search/identical-vehicles-model.js";
import { PenaltyManager } from "../search/penalty-manager.js";
import type { ProblemData } from "../search/problem-data.js";
import type { ChangedCustomers } from "../search/changed-customers.js";
import type { OffspringSearch } from "../settings.js";
import { LocalSearch } from "../search/local-search.js";
import { completeRoutes as complete, toSolution } from "../search/identical-vehicles/solutions.js";
import { orderedCrossover } from "./crossover.js";
import { Individual } from "./individual.js";
import { Population, POPULATION } from "./population.js";
import { split } from "./split.js";

/** Share of local-search outcomes that should be feasible; penalties adapt towards it. */
const TARGET_FEASIBLE = 0.2;
const PENALTY_SEGMENT = 100;
const REPAIR_PROBABILITY = 0.5;
/** Iterations without a new best before the population is rebuilt around the best. */
const STAGNATION_LIMIT = 20_000;
/** One generation (crossover, split, local search) against one ALNS step, for early stopping. */
const HGS_ITERATION_WEIGHT = 10;
function randomTour(m: ProblemData, rng: Rng): Int32Array {
  const tour = Array.from(m.customers);
  rng.shuffle(tour);
  return Int32Array.from(tour);
}

class Search {
  readonly ls: LocalSearch;
  readonly population: Population;
  /** Load, duration and time-warp prices, adapted every PENALTY_SEGMENT generations. */
  private readonly prices: PenaltyManager;
  /** With "changedCustomers": which customers' route neighbours an offspring and its education changed. */
  private readonly changes: ChangedCustomers | null;

  constructor(
    readonly m: ProblemData,
    readonly rng: Rng,
    private readonly stop: () => boolean,
    offspringSearch: OffspringSearch = "everyCustomer",
  ) {
    this.ls = LocalSearch.identicalVehicles(m);
    this.changes = offspringSearch === "changedCustomers" ? this.ls.rs.trackChanges() : null;
    this.population = new Population(m);
    const start = initialPenalties(m);
    this.prices = new PenaltyManager(start, start, ["load", "duration", "timeWarp"], PENALTY_SEGMENT, TARGET_FEASIBLE);
  }

  get penalties(): Penalties {
    return this.prices.current;
  }

  /**
   * Educates (local search) a solution and adds it, with a repair attempt when infeasible. With
   * `parent` (its first parent, a local optimum) and "changedCustomers", the education examines
   * only the customers whose route neighbours differ from the parent's and those its moves change.
   */
  educateAndAdd(routes: number[][], parent: Individual | null = null): boolean {
    const ls = this.ls;
    ls.penalties = this.penalties;
    this.loadFocused(routes, parent);
    ls.run(this.rng, this.stop);
    let loadOk = true;
    let durationOk = true;
    let warpOk = true;
    const limit = this.m.windows ? this.m.windows.maxDuration : this.m.durationLimit;
    for (let r = 0; r < this.m.routes; r++) {
      if (ls.loadOf(r) > this.m.capacity[r]! + 1e-9) loadOk = false;
      if (ls.durationOf(r) > limit + 1e-7) durationOk = false;
      if (ls.timeWarpOf(r) > 1e-9) warpOk = false;
    }
    this.prices.record({ load: loadOk, duration: durationOk, timeWarp: warpOk });
    const educated = new Individual(this.m, ls.routes(), this.penalties);
    let improved = this.population.add(educated);
    if (!educated.feasible && this.rng.next() < REPAIR_PROBABILITY) {
      // Repair as in HGS: penalties x10, then x100 if the result is still infeasible.
      for (const factor of [10, 100]) {
        ls.penalties = this.prices.scaled(factor);
        ls.reprice();
        // A focused repair looks again at the routes whose constraints the dearer prices bear on.
        if (this.changes) ls.revisitViolating();
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

  /** Loads `routes` into the local search; with the change record, marks what its run must examine. */
  private loadFocused(routes: number[][], parent: Individual | null): void {
    const ls = this.ls;
    const changes = this.changes;
    if (changes === null) {
      ls.loadRoutes(routes);
      return;
    }
    const customers = this.m.customers;
    // The parent's neighbours become the reference, so that loading records only what differs.
    if (parent) for (const c of customers) changes.neighboursChanged(c, parent.predecessor[c]!, parent.successor[c]!);
    ls.focus();
    ls.loadRoutes(routes);
    if (parent === null) for (const c of customers) changes.touch(c, ls.clock);
  }

  /** Moves each price so that about TARGET_FEASIBLE of the educated solutions keep its constraint. */
  adaptPenalties(): void {
    this.prices.adaptNow();
    this.population.reprice(this.penalties);
  }

  /** An offspring's routes, and its first parent (whose slice of the giant tour it keeps in place). */
  offspring(): { routes: number[][]; parent: Individual } {
    const a = this.population.select(this.rng);
    let b = this.population.select(this.rng);
    for (let tries = 0; tries < 3 && b === a; tries++) b = this.population.select(this.rng);
    const child = orderedCrossover(a.tour, b.tour, this.rng, this.m.nodeCount);
    return { routes: split(this.m, this.penalties, child), parent: a };
  }
}

/**
 * Hybrid genetic search with adaptive diversity control (Vidal 2022) on the identical-vehicles model (one
 * depot, identical vehicles, hard windows if any): ordered crossover on giant tours, optimal
 * split, granular local search on penalised load, duration and time warp, and a population
 * ranked by cost and diversity. `start` (e.g. savings, or a caller's routes) is educated first.
 */
export function geneticSearch(
  p: CompiledProblem,
  m: ProblemData,
  budget: Budget,
  start: number[][],
  offspringSearch: OffspringSearch = "everyCustomer",
): Solution {
  const search = new Search(m, budget.rng, () => budget.exhausted(), offspringSearch);
  let iteration = 0;
  const step = (): boolean => {
    iteration++;
    if (iteration % PENALTY_SEGMENT === 0) search.adaptPenalties();
    return budget.tick();
  };

  /** Educates and adds one solution; tells the budget when it is a new best feasible one. */
  const educateAndAdd = (routes: number[][], parent: Individual | null = null): boolean => {
    const improved = search.educateAndAdd(routes, parent);
    if (improved && search.population.best) budget.improved(toSolution(p, search.population.best.routes));
    return improved;
  };

  educateAndAdd(start);
  const initialCount = 4 * POPULATION.minimum;
  for (let k = 0; k < initialCount && !step(); k++) educateAndAdd(split(m, search.penalties, randomTour(m, search.rng)));

  const stopAfter = tinyProblemPatience(m.customers.length, HGS_ITERATION_WEIGHT);
  let sinceBest = 0;
  while (!step()) {
    if (search.population.size() < 2) {
      educateAndAdd(split(m, search.penalties, randomTour(m, search.rng)));
      continue;
    }
    const child = search.offspring();
    sinceBest = educateAndAdd(child.routes, child.parent) ? 0 : sinceBest + 1;
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
}
