import type { ProblemData } from "../search/problem-data.js";
import type { Individual } from "./individual.js";

/** Broken-pairs distances below this make two members clones. */
const CLONE_DISTANCE = 1e-9;

/**
 * One subpopulation (feasible or infeasible) of the genetic search: its members, their
 * broken-pairs distances and biased fitness (HGS, Vidal 2022). The distances live in a matrix
 * indexed by slots that members keep while they belong, so that survivor selection, which ranks
 * the whole group once per removal, reads them from one typed array.
 */
export class Subpopulation {
  readonly members: Individual[] = [];
  /** The matrix slot of each member, in the members' order. */
  private readonly slots: number[] = [];
  private readonly free: number[] = [];
  private readonly distance: Float64Array;
  private readonly cost: Float64Array;
  private readonly diversity: Float64Array;
  private readonly byCost: Int32Array;
  private readonly byDiversity: Int32Array;
  private readonly closest: Float64Array;
  // Ties keep the earlier index, as a stable sort on the value alone would.
  private readonly costOrder = (a: number, b: number): number => this.cost[a]! - this.cost[b]! || a - b;
  private readonly diversityOrder = (a: number, b: number): number => this.diversity[a]! - this.diversity[b]! || a - b;

  constructor(
    private readonly m: ProblemData,
    private readonly capacity: number,
    private readonly elite: number,
    close: number,
  ) {
    this.distance = new Float64Array(capacity * capacity);
    this.cost = new Float64Array(capacity);
    this.diversity = new Float64Array(capacity);
    this.byCost = new Int32Array(capacity);
    this.byDiversity = new Int32Array(capacity);
    this.closest = new Float64Array(close);
    for (let s = capacity - 1; s >= 0; s--) this.free.push(s);
  }

  add(individual: Individual): void {
    const slot = this.free.pop();
    if (slot === undefined) throw new Error("the subpopulation is full");
    const cap = this.capacity;
    for (let k = 0; k < this.members.length; k++) {
      const other = this.slots[k]!;
      const d = individual.brokenPairs(this.members[k]!, this.m);
      this.distance[slot * cap + other] = d;
      this.distance[other * cap + slot] = d;
    }
    this.members.push(individual);
    this.slots.push(slot);
  }

  clear(): void {
    for (const slot of this.slots) this.free.push(slot);
    this.members.length = 0;
    this.slots.length = 0;
  }

  /** Mean distance of the member at `k` to its closest others (a sorted insertion buffer). */
  private averageClosest(k: number): number {
    const best = this.closest;
    const count = best.length;
    const cap = this.capacity;
    const row = this.slots[k]! * cap;
    let size = 0;
    for (let j = 0; j < this.members.length; j++) {
      if (j === k) continue;
      const d = this.distance[row + this.slots[j]!]!;
      if (size === count && d >= best[size - 1]!) continue;
      let at = size < count ? size++ : size - 1;
      while (at > 0 && best[at - 1]! > d) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = d;
    }
    if (size === 0) return 0;
    let sum = 0;
    for (let t = 0; t < size; t++) sum += best[t]!;
    return sum / size;
  }

  /** Biased fitness: cost rank plus diversity rank, the latter weighed down for the elites. */
  updateBiasedFitness(): void {
    const group = this.members;
    const size = group.length;
    if (size === 0) return;
    if (size === 1) {
      group[0]!.biasedFitness = 0;
      return;
    }
    const byCost = this.byCost.subarray(0, size);
    for (let k = 0; k < size; k++) {
      this.cost[k] = group[k]!.penalisedCost;
      byCost[k] = k;
    }
    byCost.sort(this.costOrder);
    // Diversity by cost rank: the rank breaks ties between equally diverse members.
    const byDiversity = this.byDiversity.subarray(0, size);
    for (let rank = 0; rank < size; rank++) {
      this.diversity[rank] = -this.averageClosest(byCost[rank]!);
      byDiversity[rank] = rank;
    }
    byDiversity.sort(this.diversityOrder);
    const eliteShare = 1 - this.elite / size;
    for (let divRank = 0; divRank < size; divRank++) {
      const rank = byDiversity[divRank]!;
      group[byCost[rank]!]!.biasedFitness = rank / (size - 1) + eliteShare * (divRank / (size - 1));
    }
  }

  /** Removes the member with the worst biased fitness, clones first. */
  removeWorst(): void {
    this.updateBiasedFitness();
    const group = this.members;
    const cap = this.capacity;
    let worst = -1;
    let worstIsClone = false;
    let worstFitness = -1;
    for (let k = 0; k < group.length; k++) {
      const ind = group[k]!;
      const row = this.slots[k]! * cap;
      let clone = false;
      for (let j = 0; j < group.length && !clone; j++) if (j !== k && this.distance[row + this.slots[j]!]! < CLONE_DISTANCE) clone = true;
      if ((clone && !worstIsClone) || (clone === worstIsClone && ind.biasedFitness > worstFitness)) {
        worst = k;
        worstIsClone = clone;
        worstFitness = ind.biasedFitness;
      }
    }
    if (worst < 0) worst = group.length - 1;
    group.splice(worst, 1);
    this.free.push(this.slots.splice(worst, 1)[0]!);
  }
}
