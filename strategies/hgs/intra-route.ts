import { routeCost } from "./model.js";
import { Pieces } from "./pieces.js";
import type { TextbookRoutes } from "./textbook-routes.js";

const EPS = 1e-7;

/**
 * The textbook local search's moves within one route (local-search.ts): relocate one customer or
 * two (also reversed), swap two, and 2-opt, priced from distance deltas (load and service do not
 * change), reversed segments from the backward prefix sums, and under windows confirmed with the
 * exact time penalty of the rewritten route.
 */
export class IntraRouteMoves {
  private readonly a = new Pieces();
  /** Penalised cost of the route after the move being priced (set when it improves). */
  private predicted = 0;

  constructor(private readonly routes: TextbookRoutes) {}

  /**
   * Moves within one route: only the distance changes (load and service stay), so each is
   * priced from a distance delta, reversed segments from the backward prefix sums.
   */
  tryMoves(u: number, r: number, i: number, j: number): boolean {
    if (j === i || j === i - 1) return false;
    const m = this.routes.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seq = this.routes.seq[r]!;
    const end = this.routes.length[r]! + 1;
    const pu = seq[i - 1]!;
    const x = seq[i + 1]!;
    const v = seq[j]!;
    const y = seq[j + 1]!;
    const a = this.a;
    const removeU = d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]!;
    // Relocate u after v.
    if (this.improvesWithin(r, removeU + d[v * n + u]! + d[u * n + y]! - d[v * n + y]!)) {
      if (j > i) a.reset().add(r, 0, i - 1).add(r, i + 1, j).add(r, i, i).add(r, j + 1, end);
      else a.reset().add(r, 0, j).add(r, i, i).add(r, j + 1, i - 1).add(r, i + 1, end);
      if (this.confirmWithin(r)) return this.commitWithin(r);
    }
    const xIsCustomer = i + 1 < end;
    if (xIsCustomer && j !== i + 1) {
      // Relocate (u, x) after v, in order and reversed.
      const xx = seq[i + 2]!;
      const removePair = d[pu * n + xx]! - d[pu * n + u]! - d[x * n + xx]!;
      if (this.improvesWithin(r, removePair + d[v * n + u]! + d[x * n + y]! - d[v * n + y]!)) {
        if (j > i + 1) a.reset().add(r, 0, i - 1).add(r, i + 2, j).add(r, i, i + 1).add(r, j + 1, end);
        else a.reset().add(r, 0, j).add(r, i, i + 1).add(r, j + 1, i - 1).add(r, i + 2, end);
        if (this.confirmWithin(r)) return this.commitWithin(r);
      }
      if (this.improvesWithin(r, removePair - d[u * n + x]! + d[v * n + x]! + d[x * n + u]! + d[u * n + y]! - d[v * n + y]!)) {
        if (j > i + 1) a.reset().add(r, 0, i - 1).add(r, i + 2, j).add(r, i, i + 1, true).add(r, j + 1, end);
        else a.reset().add(r, 0, j).add(r, i, i + 1, true).add(r, j + 1, i - 1).add(r, i + 2, end);
        if (this.confirmWithin(r)) return this.commitWithin(r);
      }
    }
    if (j > 0) {
      // Swap u and v.
      const lo = Math.min(i, j);
      const hi = Math.max(i, j);
      const p = seq[lo - 1]!;
      const first = seq[lo]!;
      const second = seq[hi]!;
      const q = seq[hi + 1]!;
      let delta: number;
      if (hi === lo + 1) delta = d[p * n + second]! + d[second * n + first]! + d[first * n + q]! - d[p * n + first]! - d[first * n + second]! - d[second * n + q]!;
      else {
        const f1 = seq[lo + 1]!;
        const s0 = seq[hi - 1]!;
        delta =
          d[p * n + second]! + d[second * n + f1]! + d[s0 * n + first]! + d[first * n + q]! - d[p * n + first]! - d[first * n + f1]! - d[s0 * n + second]! - d[second * n + q]!;
      }
      if (this.improvesWithin(r, delta)) {
        if (hi === lo + 1) a.reset().add(r, 0, lo - 1).add(r, hi, hi).add(r, lo, lo).add(r, hi + 1, end);
        else a.reset().add(r, 0, lo - 1).add(r, hi, hi).add(r, lo + 1, hi - 1).add(r, lo, lo).add(r, hi + 1, end);
        if (this.confirmWithin(r)) return this.commitWithin(r);
      }
    }
    if (i < j) {
      // 2-opt: reverse x..v.
      const fwd = this.routes.fwd[r]!;
      const bwd = this.routes.bwd[r]!;
      const delta = d[u * n + v]! + bwd[j]! - bwd[i + 1]! + d[x * n + y]! - d[u * n + x]! - (fwd[j]! - fwd[i + 1]!) - d[v * n + y]!;
      if (this.improvesWithin(r, delta)) {
        a.reset().add(r, 0, i).add(r, i + 1, j, true).add(r, j + 1, end);
        if (this.confirmWithin(r)) return this.commitWithin(r);
      }
    }
    return false;
  }

  /** Whether changing route r's distance by `delta` lowers its penalised cost. */
  private improvesWithin(r: number, delta: number): boolean {
    // Under windows a longer route may still warp less: no shortcut on the distance alone.
    if (delta > -EPS && !this.routes.m.windows) return false;
    const end = this.routes.length[r]! + 1;
    const after = routeCost(this.routes.m, this.routes.penalties, this.routes.length[r]!, this.routes.fwd[r]![end]! + delta, this.routes.load[r]![end]!, this.routes.serv[r]![end]!);
    this.predicted = after;
    return after < this.routes.cost[r]! - EPS;
  }

  /** Adds the time penalty of the candidate (pieces `a`) to an improving distance price; whether it still improves. */
  private confirmWithin(r: number): boolean {
    if (!this.routes.m.windows) return true;
    this.predicted += this.routes.times!.piecesPenalty(this.a, this.routes.length[r]!, this.routes.seq, this.routes.length, this.routes.penalties);
    return this.predicted < this.routes.cost[r]! - EPS;
  }

  private commitWithin(r: number): boolean {
    const count = this.routes.write(this.a, this.routes.scratch);
    this.routes.setRoute(r, this.routes.scratch, count);
    if (this.routes.onCommit) this.routes.onCommit(this.predicted, r, -1);
    return true;
  }
}
