import type { Rng } from "../core/rng.js";
import { Individual } from "./individual.js";
import { Penalties } from "../search/identical-vehicles-model.js";
import type { ProblemData } from "../search/problem-data.js";
import { Subpopulation } from "./subpopulation.js";

/** Population sizes of HGS-CVRP (Vidal 2022): survivors, generation size, elites, close neighbours. */
export const POPULATION = { minimum: 25, generation: 40, elite: 4, close: 5 } as const;

/**
 * Two subpopulations (feasible, infeasible) ranked by biased fitness: cost rank plus diversity
 * rank, so that good but different solutions survive and the search does not collapse.
 */
export class Population {
  private readonly feasibleGroup: Subpopulation;
  private readonly infeasibleGroup: Subpopulation;
  best: Individual | null = null;
  /** Biased fitness is recomputed only after membership changed. */
  private stale = true;

  constructor(m: ProblemData) {
    // A group grows one past minimum + generation before its survivors are chosen.
    const capacity = POPULATION.minimum + POPULATION.generation + 1;
    this.feasibleGroup = new Subpopulation(m, capacity, POPULATION.elite, POPULATION.close);
    this.infeasibleGroup = new Subpopulation(m, capacity, POPULATION.elite, POPULATION.close);
  }

  get feasible(): readonly Individual[] {
    return this.feasibleGroup.members;
  }

  get infeasible(): readonly Individual[] {
    return this.infeasibleGroup.members;
  }

  /** Adds a copy of the solution; returns true when it is a new best feasible solution. */
  add(individual: Individual): boolean {
    const group = individual.feasible ? this.feasibleGroup : this.infeasibleGroup;
    group.add(individual);
    this.stale = true;
    if (group.members.length > POPULATION.minimum + POPULATION.generation) {
      while (group.members.length > POPULATION.minimum) group.removeWorst();
    }
    if (individual.feasible && (!this.best || individual.penalisedCost < this.best.penalisedCost - 1e-9)) {
      this.best = individual;
      return true;
    }
    return false;
  }

  /** Binary tournament on biased fitness over both subpopulations. */
  select(rng: Rng): Individual {
    if (this.stale) {
      this.feasibleGroup.updateBiasedFitness();
      this.infeasibleGroup.updateBiasedFitness();
      this.stale = false;
    }
    const feasible = this.feasibleGroup.members;
    const infeasible = this.infeasibleGroup.members;
    const total = feasible.length + infeasible.length;
    const at = (k: number) => (k < feasible.length ? feasible[k]! : infeasible[k - feasible.length]!);
    const a = at(rng.int(total));
    const b = at(rng.int(total));
    return a.biasedFitness < b.biasedFitness ? a : b;
  }

  size(): number {
    return this.feasibleGroup.members.length + this.infeasibleGroup.members.length;
  }

  /** The penalties changed: infeasible members must be re-ranked by their new penalised cost. */
  reprice(pen: Penalties): void {
    for (const ind of this.infeasibleGroup.members) ind.reprice(pen);
    this.stale = true;
  }

  /** Keeps only the best feasible solution (a restart after a long stagnation). */
  restart(): void {
    this.feasibleGroup.clear();
    this.infeasibleGroup.clear();
    this.stale = true;
  }
}
