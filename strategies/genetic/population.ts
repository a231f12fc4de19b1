import type { Rng } from "../core/rng.js";
import { Individual } from "./individual.js";
import { Penalties } from "../search/identical-vehicles-model.js";
import type { ProblemData } from "../search/problem-data.js";

/** Population sizes of HGS-CVRP (Vidal 2022): survivors, generation size, elites, close neighbours. */
export const POPULATION = { minimum: 25, generation: 40, elite: 4, close: 5 } as const;

/**
 * Two subpopulations (feasible, infeasible) ranked by biased fitness: cost rank plus diversity
 * rank, so that good but different solutions survive and the search does not collapse.
 */
export class Population {
  readonly feasible: Individual[] = [];
  readonly infeasible: Individual[] = [];
  best: Individual | null = null;
  /** Biased fitness is recomputed only after membership changed. */
  private stale = true;

  constructor(private readonly m: ProblemData) {}

  /** Adds a copy of the solution; returns true when it is a new best feasible solution. */
  add(individual: Individual): boolean {
    const group = individual.feasible ? this.feasible : this.infeasible;
    for (const other of group) {
      const d = individual.brokenPairs(other, this.m);
      individual.proximity.set(other, d);
      other.proximity.set(individual, d);
    }
    group.push(individual);
    this.stale = true;
    if (group.length > POPULATION.minimum + POPULATION.generation) {
      while (group.length > POPULATION.minimum) this.removeWorst(group);
    }
    if (individual.feasible && (!this.best || individual.penalisedCost < this.best.penalisedCost - 1e-9)) {
      this.best = individual;
      return true;
    }
    return false;
  }

  private updateBiasedFitness(group: Individual[]): void {
    const size = group.length;
    if (size === 0) return;
    if (size === 1) {
      group[0]!.biasedFitness = 0;
      return;
    }
    const byCost = group.map((ind, k) => ({ k, cost: ind.penalisedCost })).sort((a, b) => a.cost - b.cost);
    const diversity = byCost.map(({ k }, rank) => ({ k, rank, div: -group[k]!.averageClosest(POPULATION.close) }));
    diversity.sort((a, b) => a.div - b.div);
    const eliteShare = 1 - POPULATION.elite / size;
    diversity.forEach((entry, divRank) => {
      const fitRank = entry.rank / (size - 1);
      group[entry.k]!.biasedFitness = fitRank + eliteShare * (divRank / (size - 1));
    });
  }

  /** Removes the member with the worst biased fitness, clones first. */
  private removeWorst(group: Individual[]): void {
    this.updateBiasedFitness(group);
    let worst = -1;
    let worstIsClone = false;
    let worstFitness = -1;
    for (let k = 0; k < group.length; k++) {
      const ind = group[k]!;
      let clone = false;
      for (const d of ind.proximity.values()) if (d < 1e-9) clone = true;
      if ((clone && !worstIsClone) || (clone === worstIsClone && ind.biasedFitness > worstFitness)) {
        worst = k;
        worstIsClone = clone;
        worstFitness = ind.biasedFitness;
      }
    }
    if (worst < 0) worst = group.length - 1;
    const [gone] = group.splice(worst, 1);
    for (const other of group) other.proximity.delete(gone!);
  }

  /** Binary tournament on biased fitness over both subpopulations. */
  select(rng: Rng): Individual {
    if (this.stale) {
      this.updateBiasedFitness(this.feasible);
      this.updateBiasedFitness(this.infeasible);
      this.stale = false;
    }
    const total = this.feasible.length + this.infeasible.length;
    const at = (k: number) => (k < this.feasible.length ? this.feasible[k]! : this.infeasible[k - this.feasible.length]!);
    const a = at(rng.int(total));
    const b = at(rng.int(total));
    return a.biasedFitness < b.biasedFitness ? a : b;
  }

  size(): number {
    return this.feasible.length + this.infeasible.length;
  }

  /** The penalties changed: infeasible members must be re-ranked by their new penalised cost. */
  reprice(pen: Penalties): void {
    for (const ind of this.infeasible) ind.reprice(pen);
    this.stale = true;
  }

  /** Keeps only the best feasible solution (a restart after a long stagnation). */
  restart(): void {
    this.feasible.length = 0;
    this.infeasible.length = 0;
    this.stale = true;
  }
}
