import { keepBest, type Insertion, type Workspace } from "./workspace.js";

/**
 * Each pending customer's best insertion into each route, kept until that route changes. Regret
 * insertion re-ranks every pending customer after each insertion, yet an insertion rewrites one
 * route only: re-pricing just that route gives the same ranking as `Workspace.bestInsertions`
 * at a fraction of the evaluations (each of which walks a whole route under time rules).
 */
export class InsertionMemo {
  private readonly rowOf = new Map<number, number>();
  private readonly delta: Float64Array;
  private readonly position: Int32Array;
  /** The route's epoch when the entry was priced (-1: never). */
  private readonly stamp: Int32Array;
  private readonly epoch: Int32Array;
  private readonly positions: number[] = [];

  constructor(
    private readonly ws: Workspace,
    customers: readonly number[],
  ) {
    customers.forEach((c, row) => this.rowOf.set(c, row));
    const cells = customers.length * ws.p.vehicleCount;
    this.delta = new Float64Array(cells);
    this.position = new Int32Array(cells);
    this.stamp = new Int32Array(cells).fill(-1);
    this.epoch = new Int32Array(ws.p.vehicleCount);
  }

  /** Route `v` changed: every entry priced on it is stale. */
  forget(v: number): void {
    this.epoch[v]!++;
  }

  /** The same answer as `ws.bestInsertions(c, k)` for a customer given to the constructor. */
  bestInsertions(c: number, k: number): Insertion[] {
    const ws = this.ws;
    const base = this.rowOf.get(c)! * ws.p.vehicleCount;
    const best: Insertion[] = [];
    for (const v of ws.vehicleCandidates(c)) {
      const cell = base + v;
      if (this.stamp[cell] !== this.epoch[v]) {
        const found = ws.bestInRoute(c, v, this.positions);
        this.delta[cell] = found ? found.delta : Number.POSITIVE_INFINITY;
        this.position[cell] = found ? found.position : -1;
        this.stamp[cell] = this.epoch[v]!;
      }
      if (this.position[cell]! < 0) continue;
      keepBest(best, { vehicle: v, position: this.position[cell]!, delta: this.delta[cell]! }, k);
    }
    return best;
  }
}
