import type { LocalSearch } from "../local-search.js";

const EPS = 1e-7;

/**
 * Opens an empty route for a cluster of unserved optional customers (ProblemData.skipPrice). The
 * other optional moves (operators/insert-unserved.ts) serve one customer at a time, and one customer
 * alone in an empty route almost never pays its way out and back, while a whole cluster of them
 * does: on prize-collecting instances with long routes the search otherwise keeps fewer routes
 * and serves fewer customers than the best known solutions, and has no step
 * that adds one. Built greedily: the unserved customers reachable from a seed through granular
 * neighbours that are unserved too (nearest first, breadth first), each put at its cheapest
 * position in the growing route when what it is worth there exceeds the rise of the route's exact
 * price (Routes.price) and the route stays within every constraint (no load, time-warp or
 * duration penalty: the route then gains what it predicts whatever the current penalties); the
 * route is kept only when what its customers are worth exceeds its price. A customer is worth
 * its skip price, or less when it would cost less to serve in a route that passes near it already
 * (elsewhere): a new route must beat that too.
 */
export class ClusterRoute {
  private readonly route: Int32Array;
  private readonly queue: Int32Array;
  private readonly seen: Int32Array;
  private stamp = 0;

  constructor(private readonly ls: LocalSearch) {
    const nodes = ls.m.nodeCount;
    this.route = new Int32Array(ls.m.customers.length);
    this.queue = new Int32Array(ls.m.customers.length);
    this.seen = new Int32Array(nodes);
  }

  /**
   * Builds in empty route r a route of seed and up to `limit - 1` unserved customers near it;
   * returns by how much it beats the alternatives (what its customers are worth less its price:
   * at most what the search's total falls), or 0 when it does not, in which case route r is left
   * empty and every customer unserved.
   */
  open(seed: number, r: number, limit: number): number {
    const ls = this.ls;
    const m = ls.m;
    const skip = m.skipPrice!;
    if (ls.rs.length[r] !== 0 || ls.rs.routeOf[seed]! >= 0) return 0;
    // A refused route leaves r empty as it was, and as unmodified (what the localised search and
    // the iterated search's save and restore go by).
    const unmodifiedSince = ls.rs.modifiedAt[r]!;
    const count = this.gather(seed, limit);
    const route = this.route;
    let length = 0;
    let worth = 0;
    for (let t = 0; t < count; t++) {
      const c = this.queue[t]!;
      // What c is worth to the new route: its skip price, or less when another route takes it for less.
      const value = Math.min(skip[c]!, this.elsewhere(c, r));
      // The seed opens the route whatever its way out and back costs: the cluster pays for it, or the route is undone.
      const at = this.cheapest(c, r, length, value, t === 0);
      if (at < 0) continue;
      route.copyWithin(at + 1, at, length);
      route[at] = c;
      length++;
      worth += value;
      ls.setRoute(r, route, length);
    }
    const gain = worth - ls.rs.cost[r]!;
    if (length > 0 && gain > EPS) return gain;
    if (length > 0) {
      for (let k = 0; k < length; k++) ls.rs.routeOf[route[k]!] = -1;
      ls.setRoute(r, route, 0);
      ls.rs.modifiedAt[r] = unmodifiedSince;
    }
    return 0;
  }

  /**
   * The cheapest rise of a served route's exact price (route r aside) with c next to one of its
   * granular neighbours there (before or after it), as the local search would insert it;
   * +Infinity when no neighbour is served. A new route that serves its customers for more than
   * their skip prices, but for more than this, loses to serving them where they are close to a
   * route already (with long routes and wide windows, searches without this comparison ended with
   * a route or two more than the best known solutions, and dearer).
   */
  private elsewhere(c: number, r: number): number {
    const ls = this.ls;
    const m = ls.m;
    const n = m.nodeCount;
    const d = m.dist;
    let best = Number.POSITIVE_INFINITY;
    const near = m.neighbours[c]!;
    for (let k = 0; k < near.length; k++) {
      const w = near[k]!;
      const q = ls.rs.routeOf[w]!;
      if (q < 0 || q === r) continue;
      const seq = ls.rs.seq[q]!;
      const length = ls.rs.length[q]!;
      const before = ls.rs.cost[q]!;
      for (let j = ls.rs.pos[w]! - 1; j <= ls.rs.pos[w]!; j++) {
        const a = seq[j]!;
        const b = seq[j + 1]!;
        // The detour bounds the rise from below (penalties only add).
        if (m.unitCost[q]! * (d[a * n + c]! + d[c * n + b]! - d[a * n + b]!) >= best) continue;
        const rise =
          ls.rs.candidates.price(
            q,
            ls.pricing.a
              .reset()
              .add(q, 1, j)
              .node(c)
              .add(q, j + 1, length),
          ) - before;
        if (rise < best) best = rise;
      }
    }
    return best;
  }

  /**
   * Unserved customers reachable from seed through unserved granular neighbours, breadth first, at most
   * `limit`, into `queue`; their count.
   */
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
        if (seen[w] === stamp || ls.rs.routeOf[w]! >= 0) continue;
        seen[w] = stamp;
        queue[count++] = w;
      }
    }
    return count;
  }

  /**
   * Position (0..length: after that many customers) where c, worth `value`, gains most in route r
   * of `length` customers, keeping the route free of penalties; -1 when no position gains (with `any`, when
   * none keeps the route free of penalties).
   */
  private cheapest(c: number, r: number, length: number, value: number, any: boolean): number {
    const ls = this.ls;
    const m = ls.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seq = ls.rs.seq[r]!;
    const distance = ls.rs.fwd[r]![length + 1]!;
    const before = ls.rs.cost[r]!;
    let bestGain = any ? Number.NEGATIVE_INFINITY : EPS;
    let best = -1;
    for (let j = 0; j <= length; j++) {
      const a = seq[j]!;
      const b = seq[j + 1]!;
      const detour = d[a * n + c]! + d[c * n + b]! - d[a * n + b]!;
      // The price rises at least by the detour (penalties only add): a position that cannot gain most is not priced.
      const unpenalised = ls.costs.travel(r, distance + detour);
      if (value - (unpenalised - before) <= bestGain) continue;
      const price = ls.rs.candidates.price(
        r,
        ls.pricing.a
          .reset()
          .add(r, 1, j)
          .node(c)
          .add(r, j + 1, length),
      );
      if (price > unpenalised + EPS) continue;
      const gain = value - (price - before);
      if (gain > bestGain) {
        bestGain = gain;
        best = j;
      }
    }
    return best;
  }
}
