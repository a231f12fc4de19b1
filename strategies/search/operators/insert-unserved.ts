import type { MovePricing } from "./operator.js";

const EPS = 1e-7;

/**
 * Serves an unserved optional customer u where that gains most over its skip price, as PyVRP's
 * local search treats clients with prizes: next to one of its granular neighbours (before or after
 * it), in an optional neighbour's place (which then goes unserved), or alone on an empty vehicle
 * of each type. Each candidate route is priced exactly by the route store (Routes.price).
 *
 * With `bounded`, a candidate whose distance bound cannot beat the best gain so far is not priced:
 * the bounds hold where a longer detour never lowers a penalty (load, time warp and duration only
 * grow with an insertion), which the identical-vehicles search's problems ensure and its tests check.
 */
export class InsertUnserved {
  /** The best candidate of the current evaluation: positions from..to of route `bestRoute` replaced by u. */
  private bestGain = 0;
  private bestRoute = -1;
  private bestFrom = 0;
  private bestTo = 0;

  constructor(
    private readonly ls: MovePricing,
    private readonly bounded: boolean,
  ) {}

  /**
   * Whether serving unserved customer u somewhere gains; the best place is then held in pieces
   * `a` for `apply`. With `since` >= 0 (a localised search: u was unserved when last examined at
   * that clock, nothing was improving then, and prices have not changed since), a route not
   * rewritten since is skipped: what inserting u there gains depends only on that route, its prices
   * and the skip prices, so it still gains nothing.
   */
  evaluate(u: number, since = -1): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const m = rs.m;
    const skipPrice = m.skipPrice!;
    const skip = skipPrice[u]!;
    this.bestGain = EPS;
    this.bestRoute = -1;
    const near = m.neighbours[u]!;
    for (let k = 0; k < near.length; k++) {
      const w = near[k]!;
      const r = rs.routeOf[w]!;
      if (r < 0 || rs.modifiedAt[r]! <= since) continue;
      const j = rs.pos[w]!;
      this.considerAfter(u, skip, r, j - 1);
      this.considerAfter(u, skip, r, j);
      const freed = skipPrice[w]!;
      if (freed !== Number.POSITIVE_INFINITY) this.considerExchange(u, skip, r, j, freed);
    }
    for (let type = 0; type < m.typeSlots.length; type++) {
      const r = ls.emptyOfType(type, -1);
      if (r >= 0 && rs.modifiedAt[r]! > since) this.consider(u, skip, r, 1, 0, 0);
    }
    if (this.bestRoute < 0) return false;
    const r = this.bestRoute;
    ls.a
      .reset()
      .add(r, 1, this.bestFrom - 1)
      .node(u)
      .add(r, this.bestTo + 1, rs.length[r]!);
    ls.predicted = rs.candidates.price(r, ls.a) + (rs.balance ? rs.balance.delta(r, rs.balance.workloadOf(r, ls.a), -1, 0) : 0);
    return true;
  }

  /** Applies the insertion the last `evaluate` found best; an exchange leaves the neighbour it replaces unserved. */
  apply(): void {
    const rs = this.ls.rs;
    if (this.bestTo >= this.bestFrom) rs.routeOf[rs.seq[this.bestRoute]![this.bestFrom]!] = -1;
    this.ls.commitWithin(this.bestRoute);
  }

  /** Positions from..to of route r replaced by u ((from, from - 1): inserted after from - 1), priced exactly; kept when it gains most. */
  private consider(u: number, skip: number, r: number, from: number, to: number, freed: number): void {
    const rs = this.ls.rs;
    const a = this.ls.a
      .reset()
      .add(r, 1, from - 1)
      .node(u)
      .add(r, to + 1, rs.length[r]!);
    let gain = skip + freed - (rs.candidates.price(r, a) - rs.cost[r]!);
    // A longer longest route raises the balance term: the gain pays for that too.
    if (rs.balance) gain -= rs.balance.delta(r, rs.balance.workloadOf(r, a), -1, 0);
    if (gain > this.bestGain) {
      this.bestGain = gain;
      this.bestRoute = r;
      this.bestFrom = from;
      this.bestTo = to;
    }
  }

  /** u between positions j and j + 1 of route r. The detour's cost bounds the price rise from below. */
  private considerAfter(u: number, skip: number, r: number, j: number): void {
    const m = this.ls.rs.m;
    const n = m.nodeCount;
    const rs = this.ls.rs;
    const d = rs.slotMatrix[r]!;
    const seq = rs.seq[r]!;
    const a = seq[j]!;
    const b = seq[j + 1]!;
    // d(a, b) is the route's stored arc and a symmetric d(a, u) is d(u, a), bit for bit, from places that stay cached.
    const au = rs.symmetric ? d[u * n + a]! : d[a * n + u]!;
    // EPS of slack, as for exchanges: the priced gain may round above the bound (a tie then goes as without the bound).
    if (!this.bounded || skip - m.unitCost[r]! * (au + d[u * n + b]! - rs.arc[r]![j]!) > this.bestGain - EPS)
      this.consider(u, skip, r, j + 1, j, 0);
  }

  /**
   * u in place of the optional customer at position j of route r (skip price `freed`). Leaving that
   * customer out may lower the route's penalties, so the bound is looser than an insertion's: the
   * new price is at least fixed + unit x its distance, so the rise is at least the distance change
   * less the penalties the route pays now.
   */
  private considerExchange(u: number, skip: number, r: number, j: number, freed: number): void {
    const rs = this.ls.rs;
    const m = rs.m;
    const n = m.nodeCount;
    const d = rs.slotMatrix[r]!;
    if (this.bounded) {
      const seq = rs.seq[r]!;
      const a = seq[j - 1]!;
      const b = seq[j + 1]!;
      const distance = rs.fwd[r]![rs.length[r]! + 1]!;
      const paid = rs.cost[r]! - rs.costs.travel(r, distance);
      const arc = rs.arc[r]!;
      const au = rs.symmetric ? d[u * n + a]! : d[a * n + u]!;
      const change = au + d[u * n + b]! - arc[j - 1]! - arc[j]!;
      // EPS of slack: the bound's rounding never prunes a candidate that could win.
      if (!(skip - freed - m.unitCost[r]! * change + paid > this.bestGain - EPS)) return;
    }
    this.consider(u, skip, r, j, j, -freed);
  }
}
