import type { TextbookMovePricing } from "../textbook/move-pricing.js";

const EPS = 1e-7;

/**
 * Opens an empty route for a cluster of unserved optional customers (HgsModel.skipPrice). The
 * other optional moves (textbook-optional.ts) serve one customer at a time, and one customer
 * alone in an empty route almost never pays its way out and back, while a whole cluster of them
 * does: on prize-collecting instances with long routes the search otherwise keeps fewer routes
 * than the best known (C2_10_2: 25-26 routes for 29, 850 clients served for 930) and has no step
 * that adds one. Built greedily: the unserved customers reachable from a seed through granular
 * neighbours that are unserved too (nearest first, breadth first), each put at its cheapest
 * position in the growing route when its skip price exceeds the rise of the route's exact price
 * (Routes.price) and the route stays within every constraint (no load, time-warp or duration
 * penalty: the route then gains what it predicts whatever the current penalties); the route is
 * kept only when the skip prices of its customers exceed its price.
 */
export class ClusterRoute {
  private readonly route: Int32Array;
  private readonly queue: Int32Array;
  private readonly seen: Int32Array;
  private stamp = 0;

  constructor(private readonly ls: TextbookMovePricing) {
    const nodes = ls.m.nodeCount;
    this.route = new Int32Array(ls.m.customers.length);
    this.queue = new Int32Array(ls.m.customers.length);
    this.seen = new Int32Array(nodes);
  }

  /**
   * Builds in empty route r a route of seed and up to `limit - 1` unserved customers near it;
   * returns what it gains (skip prices of its customers less its price), or 0 when it gains
   * nothing, in which case route r is left empty and every customer unserved.
   */
  open(seed: number, r: number, limit: number): number {
    const ls = this.ls;
    const m = ls.m;
    const skip = m.skipPrice!;
    if (ls.length[r] !== 0 || ls.routeOf[seed]! >= 0) return 0;
    const count = this.gather(seed, limit);
    const route = this.route;
    let length = 0;
    let prizes = 0;
    for (let t = 0; t < count; t++) {
      const c = this.queue[t]!;
      // The seed opens the route whatever its way out and back costs: the cluster pays for it, or the route is undone.
      const at = this.cheapest(c, r, length, t === 0);
      if (at < 0) continue;
      route.copyWithin(at + 1, at, length);
      route[at] = c;
      length++;
      prizes += skip[c]!;
      ls.setRoute(r, route, length);
    }
    const gain = prizes - ls.cost[r]!;
    if (length > 0 && gain > EPS) return gain;
    if (length > 0) {
      for (let k = 0; k < length; k++) ls.routeOf[route[k]!] = -1;
      ls.setRoute(r, route, 0);
    }
    return 0;
  }

  /** Unserved customers reachable from seed through unserved granular neighbours, breadth first, at most `limit`, into `queue`; their count. */
  private gather(seed: number, limit: number): number {
    const ls = this.ls;
    const neighbours = ls.m.neighbours;
    const stamp = ++this.stamp;
    const seen = this.seen;
    const queue = this.queue;
    let count = 0;
    queue[count++] = seed;
    seen[seed] = stamp;
    for (let head = 0; head < count && count < limit; head++) {
      const near = neighbours[queue[head]!]!;
      for (let k = 0; k < near.length && count < limit; k++) {
        const w = near[k]!;
        if (seen[w] === stamp || ls.routeOf[w]! >= 0) continue;
        seen[w] = stamp;
        queue[count++] = w;
      }
    }
    return count;
  }

  /**
   * Position (0..length: after that many customers) where c gains most in route r of `length`
   * customers, keeping the route free of penalties; -1 when no position gains (with `any`, when
   * none keeps the route free of penalties).
   */
  private cheapest(c: number, r: number, length: number, any: boolean): number {
    const ls = this.ls;
    const m = ls.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seq = ls.seq[r]!;
    const skip = m.skipPrice![c]!;
    const distance = ls.fwd[r]![length + 1]!;
    const before = ls.cost[r]!;
    let bestGain = any ? Number.NEGATIVE_INFINITY : EPS;
    let best = -1;
    for (let j = 0; j <= length; j++) {
      const a = seq[j]!;
      const b = seq[j + 1]!;
      const detour = d[a * n + c]! + d[c * n + b]! - d[a * n + b]!;
      // The price rises at least by the detour (penalties only add): a position that cannot gain most is not priced.
      const unpenalised = m.fixedCost + m.unitCost * (distance + detour);
      if (skip - (unpenalised - before) <= bestGain) continue;
      const price = ls.model.price(r, ls.a.reset().add(r, 1, j).node(c).add(r, j + 1, length));
      if (price > unpenalised + EPS) continue;
      const gain = skip - (price - before);
      if (gain > bestGain) {
        bestGain = gain;
        best = j;
      }
    }
    return best;
  }
}
