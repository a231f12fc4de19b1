import type { MovePricing } from "./operator.js";

const EPS = 1e-7;

/**
 * Removes a served optional customer (ProblemData.skipPrice finite) from its route when the route
 * saves more than the customer's skip price, as PyVRP's local search treats clients with prizes.
 * The shorter route is priced exactly by the route store (Routes.price).
 */
export class RemoveOptional {
  private r = -1;
  private u = -1;

  constructor(private readonly ls: MovePricing) {}

  /** Whether removing served customer u improves; the shorter route is then held in pieces `a` for `apply`. */
  evaluate(u: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const skip = rs.m.skipPrice![u]!;
    if (skip === Number.POSITIVE_INFINITY) return false;
    const r = rs.routeOf[u]!;
    const i = rs.pos[u]!;
    const a = ls.a
      .reset()
      .add(r, 1, i - 1)
      .add(r, i + 1, rs.length[r]!);
    let after = rs.candidates.price(r, a);
    // A shorter longest route lowers the balance term too.
    if (rs.balance) after += rs.balance.delta(r, rs.balance.workloadOf(r, a), -1, 0);
    if (after + skip >= rs.cost[r]! - EPS) return false;
    ls.predicted = after;
    this.r = r;
    this.u = u;
    return true;
  }

  /** Applies the removal the last `evaluate` found improving: u is then on no route. */
  apply(): void {
    this.ls.rs.routeOf[this.u] = -1;
    this.ls.commitWithin(this.r);
  }
}
