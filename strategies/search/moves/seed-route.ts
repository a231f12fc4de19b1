import type { LocalSearch } from "../local-search.js";

const EPS = 1e-7;

/**
 * Opens an empty route around a seed customer and lets its nearest neighbours follow, served or
 * not, as PyVRP's perturbation can start a route from one client whose neighbours then join it.
 * The seed leaves its route whatever that costs (one customer alone seldom pays a route's way out
 * and back); each granular neighbour of the seed, nearest first, then moves to its cheapest
 * position in the new route when that rise of the route's exact price (Routes.price, penalties
 * included) is below what it costs where it is now: the fall of its own route's price without it,
 * or its skip price when it is unserved. Every step after the seed's lowers the penalised total,
 * so the new route holds the customers it serves better than their old places; whether the whole
 * is worth keeping is left to the local search and the acceptance after it. Where the search keeps
 * one route fewer than the best plans (prize-collecting with long routes: short extra routes near
 * the depot, far groups on their own), no single relocation or insertion reaches that route, since
 * its first customer alone pays for all of it.
 */
export class SeedRoute {
  private readonly route: Int32Array;
  private readonly buffer: Int32Array;

  constructor(private readonly ls: LocalSearch) {
    const customers = ls.m.customers.length;
    this.route = new Int32Array(customers);
    this.buffer = new Int32Array(customers + 2);
  }

  /**
   * Builds in empty route r a route of seed and up to `limit - 1` of its granular neighbours;
   * returns the change of the search's penalised total (LocalSearch.totalCost), or NaN when route
   * r is not empty.
   */
  open(seed: number, r: number, limit: number): number {
    const ls = this.ls;
    const rs = ls.rs;
    if (rs.length[r] !== 0) return Number.NaN;
    const skip = ls.m.skipPrice;
    const route = this.route;
    let change = 0;
    let length = 0;
    const near = ls.m.neighbours[seed]!;
    for (let k = -1; k < near.length && length < limit; k++) {
      const c = k < 0 ? seed : near[k]!;
      const from = rs.routeOf[c]!;
      if (from === r) continue;
      // What c costs where it is: its route's fall without it, or its skip price when unserved.
      const worth = from >= 0 ? rs.cost[from]! - this.priceWithout(from, c) : skip ? skip[c]! : Number.POSITIVE_INFINITY;
      if (from < 0 && worth === Number.POSITIVE_INFINITY) continue;
      const at = this.cheapest(c, r, length);
      const rise = this.priceWith(r, c, at) - rs.cost[r]!;
      if (k >= 0 && !(rise < worth - EPS)) continue;
      change += rise - worth;
      if (from >= 0) this.remove(from, c);
      route.copyWithin(at + 1, at, length);
      route[at] = c;
      length++;
      ls.setRoute(r, route, length);
    }
    return change;
  }

  /** Route q's exact price without customer c. */
  private priceWithout(q: number, c: number): number {
    const ls = this.ls;
    const at = ls.rs.pos[c]!;
    return ls.rs.candidates.price(
      q,
      ls.pricing.a
        .reset()
        .add(q, 1, at - 1)
        .add(q, at + 1, ls.rs.length[q]!),
    );
  }

  /** Route r's exact price with c after its first `at` customers. */
  private priceWith(r: number, c: number, at: number): number {
    const ls = this.ls;
    return ls.rs.candidates.price(
      r,
      ls.pricing.a
        .reset()
        .add(r, 1, at)
        .node(c)
        .add(r, at + 1, ls.rs.length[r]!),
    );
  }

  /** Position (0..length: after that many customers) where c raises route r's price least. */
  private cheapest(c: number, r: number, length: number): number {
    const ls = this.ls;
    const m = ls.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seq = ls.rs.seq[r]!;
    const distance = ls.rs.fwd[r]![length + 1]!;
    let bestPrice = Number.POSITIVE_INFINITY;
    let best = 0;
    for (let j = 0; j <= length; j++) {
      const a = seq[j]!;
      const b = seq[j + 1]!;
      // The price is at least the unpenalised one with the detour (penalties only add): no better, not priced.
      if (ls.costs.travel(r, distance + d[a * n + c]! + d[c * n + b]! - d[a * n + b]!) >= bestPrice) continue;
      const price = this.priceWith(r, c, j);
      if (price < bestPrice) {
        bestPrice = price;
        best = j;
      }
    }
    return best;
  }

  /** Takes customer c out of route q. */
  private remove(q: number, c: number): void {
    const ls = this.ls;
    const seq = ls.rs.seq[q]!;
    const length = ls.rs.length[q]!;
    let kept = 0;
    for (let k = 1; k <= length; k++) if (seq[k] !== c) this.buffer[kept++] = seq[k]!;
    ls.rs.routeOf[c] = -1;
    ls.setRoute(q, this.buffer, kept);
  }
}
