import type { Routes } from "../routes.js";

/** Largest routes x nodes for which SWAP*'s insertion costs are cached. */
const INSERTION_CACHE_LIMIT = 4_000_000;

/**
 * SWAP*'s table of cheapest insertions (swap-star.ts, Vidal 2022): for a customer and a route,
 * the three cheapest places to insert it by distance, kept while the route is unchanged (when
 * that table would be too large, recomputed each time).
 */
export class CheapestInsertions {
  /** Three entries per (route, customer): detour and position after which to insert. */
  readonly cost: Float64Array;
  readonly pos: Int32Array;
  private readonly stamp: Float64Array;
  private readonly cached: boolean;

  constructor(private readonly ls: Routes) {
    const m = ls.m;
    this.cached = m.routes * m.nodeCount <= INSERTION_CACHE_LIMIT;
    const entries = this.cached ? m.routes * m.nodeCount : m.nodeCount;
    this.cost = new Float64Array(3 * entries);
    this.pos = new Int32Array(3 * entries);
    this.stamp = new Float64Array(entries).fill(-1);
  }

  /**
   * For each customer of route `from`: its removal gain,
   * and (cached while `into` is unchanged) its three cheapest insertion points in route `into`
   * (only for customers `into`'s vehicle may serve); `at[k]` is where those are stored.
   */
  preprocess(from: number, into: number, at: Int32Array, removal: Float64Array): void {
    const m = this.ls.m;
    const n = m.nodeCount;
    // Removal on `from`'s vehicle's distances (its skipArc), insertion on `into`'s (one matrix unless profiles have their own).
    const d = this.ls.slotMatrix[into]!;
    const seqF = this.ls.seq[from]!;
    const seqI = this.ls.seq[into]!;
    // The arcs an insertion or a removal breaks, from the routes' own copies (routes.ts `arc`): same values, fewer cache misses.
    const arcF = this.ls.arc[from]!;
    const skipF = this.ls.skipArc[from]!;
    const arcI = this.ls.arc[into]!;
    const lenI = this.ls.length[into]!;
    const cost = this.cost;
    const pos = this.pos;
    const stamp = this.stamp;
    const changed = this.ls.modifiedAt[into]!;
    const lenF = this.ls.length[from]!;
    // Skills: a customer `into`'s vehicle may not serve never moves there (swap-star.ts skips it), so its places are not sought.
    const rules = this.ls.rules;
    const screened = rules !== null && rules.fr.profileOf[from] !== rules.fr.profileOf[into];
    // Symmetric matrices: d(a, u) is read as d(u, a), along u's row, which stays cached over the
    // route; then the arc into a place's successor is the one out of the next place's start, read once.
    const symmetric = this.ls.symmetric;
    const cached = this.cached;
    const clock = this.ls.clock;
    for (let k = 1; k <= lenF; k++) {
      const u = seqF[k]!;
      removal[k] = skipF[k]! - arcF[k - 1]! - arcF[k]!;
      const entry = cached ? into * n + u : u;
      at[k] = 3 * entry;
      if (screened && !rules.serves(into, u)) continue;
      if (cached && stamp[entry]! >= changed) continue;
      stamp[entry] = clock;
      const row = u * n;
      let c0 = Number.POSITIVE_INFINITY;
      let c1 = c0;
      let c2 = c0;
      let p0 = -1;
      let p1 = -1;
      let p2 = -1;
      // d(place's start, u), carried from one place to the next.
      let into0 = symmetric ? d[row + seqI[0]!]! : d[seqI[0]! * n + u]!;
      for (let p = 0; p <= lenI; p++) {
        const b = seqI[p + 1]!;
        const out = d[row + b]!;
        const c = into0 + out - arcI[p]!;
        into0 = symmetric ? out : d[b * n + u]!;
        if (c >= c2) continue;
        if (c < c0) {
          c2 = c1;
          p2 = p1;
          c1 = c0;
          p1 = p0;
          c0 = c;
          p0 = p;
        } else if (c < c1) {
          c2 = c1;
          p2 = p1;
          c1 = c;
          p1 = p;
        } else {
          c2 = c;
          p2 = p;
        }
      }
      const base = 3 * entry;
      cost[base] = c0;
      cost[base + 1] = c1;
      cost[base + 2] = c2;
      pos[base] = p0;
      pos[base + 1] = p1;
      pos[base + 2] = p2;
    }
  }
}
