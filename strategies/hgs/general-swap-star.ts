import type { RouteSet } from "./route-set.js";

const EPS = 1e-7;

/**
 * SWAP* (Vidal 2022) for the general search: exchanges a customer u of route ru with a customer v
 * of route rv, each reinserted at its cheapest place in the other route (not necessarily where
 * the other was). For each customer the three cheapest insertion places into the other route are
 * computed once per pair of routes; at most two of them touch the removed customer, so the best
 * valid place is always among them. Candidates are chosen on fixed + unit x distance + load
 * penalty of each route's own vehicle (so routes of different types exchange correctly), and the
 * best one is then priced exactly by `tryPair` (time included) before it is applied.
 * Route pairs are those with a customer of one among the granular neighbours of a customer of
 * the other, tested again only after either route changed.
 */
export class GeneralSwapStar {
  private readonly bestCost: Float64Array;
  private readonly bestPos: Int32Array;
  private readonly removal: Float64Array;
  private readonly pairTestedAt: Float64Array;
  private readonly pairMark: Uint8Array;
  private readonly pairs: Int32Array;
  private readonly markedKeys: Int32Array;
  /** The chosen exchange, for the caller to build pieces from: [i in ru, j in rv, u's place in rv, v's place in ru] (-1: in place). */
  readonly move = new Int32Array(4);

  constructor(private readonly rs: RouteSet) {
    const m = rs.m;
    const slots = m.customers.length + 2;
    // Per position of either route (ru's customers first, then rv's), its three best places in the other.
    this.bestCost = new Float64Array(3 * 2 * slots);
    this.bestPos = new Int32Array(3 * 2 * slots);
    this.removal = new Float64Array(2 * slots);
    this.pairTestedAt = new Float64Array(m.routes * m.routes).fill(-1);
    this.pairMark = new Uint8Array(m.routes * m.routes);
    const links = m.customers.length * m.neighbours.reduce((max, near) => Math.max(max, near.length), 0);
    this.pairs = new Int32Array(2 * links);
    this.markedKeys = new Int32Array(links);
  }

  forget(): void {
    this.pairTestedAt.fill(-1);
  }

  /** Route pairs (ru < rv), flattened, that are neighbours and changed since they were last tested. */
  candidatePairs(): Int32Array {
    const rs = this.rs;
    const m = rs.m;
    const routes = m.routes;
    let count = 0;
    let marked = 0;
    for (let k = 0; k < m.customers.length; k++) {
      const u = m.customers[k]!;
      const ru = rs.routeOf[u]!;
      if (ru < 0) continue;
      const near = m.neighbours[u]!;
      for (let t = 0; t < near.length; t++) {
        const rv = rs.routeOf[near[t]!]!;
        if (rv === ru || rv < 0) continue;
        const key = ru < rv ? ru * routes + rv : rv * routes + ru;
        if (this.pairMark[key]) continue;
        this.pairMark[key] = 1;
        this.markedKeys[marked++] = key;
        if (Math.max(rs.modifiedAt[ru]!, rs.modifiedAt[rv]!) <= this.pairTestedAt[key]!) continue;
        this.pairs[count++] = Math.min(ru, rv);
        this.pairs[count++] = Math.max(ru, rv);
      }
    }
    for (let k = 0; k < marked; k++) this.pairMark[this.markedKeys[k]!] = 0;
    return this.pairs.subarray(0, count);
  }

  /** Marks the pair as tested now (call after `best` found nothing to apply, or after applying). */
  tested(ru: number, rv: number): void {
    this.pairTestedAt[ru * this.rs.m.routes + rv] = this.rs.clock;
  }

  /** Three cheapest places (after position p, 0..len) to insert each customer of `from` into `into`, by distance. */
  private fillInsertions(from: number, into: number, offset: number): void {
    const rs = this.rs;
    const m = rs.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seqF = rs.seq[from]!;
    const seqI = rs.seq[into]!;
    const lenI = rs.length[into]!;
    for (let i = 1; i <= rs.length[from]!; i++) {
      const c = seqF[i]!;
      const slot = 3 * (offset + i);
      let c0 = Infinity, c1 = Infinity, c2 = Infinity;
      let p0 = -1, p1 = -1, p2 = -1;
      for (let p = 0; p <= lenI; p++) {
        const a = seqI[p]!;
        const b = seqI[p + 1]!;
        const delta = d[a * n + c]! + d[c * n + b]! - d[a * n + b]!;
        if (delta >= c2) continue;
        if (delta < c0) {
          c2 = c1; p2 = p1; c1 = c0; p1 = p0; c0 = delta; p0 = p;
        } else if (delta < c1) {
          c2 = c1; p2 = p1; c1 = delta; p1 = p;
        } else {
          c2 = delta; p2 = p;
        }
      }
      this.bestCost[slot] = c0; this.bestPos[slot] = p0;
      this.bestCost[slot + 1] = c1; this.bestPos[slot + 1] = p1;
      this.bestCost[slot + 2] = c2; this.bestPos[slot + 2] = p2;
      this.removal[offset + i] = d[seqF[i - 1]! * n + seqF[i + 1]!]! - d[seqF[i - 1]! * n + c]! - d[c * n + seqF[i + 1]!]!;
    }
  }

  /**
   * Cheapest distance change of putting customer c (slot `slot` of the insertion table) into a
   * route in place of the customer at position `gone` (whose removal is already counted): the
   * best of its three places that do not touch `gone`, or `gone`'s own place. Writes the place to `placeOut`.
   */
  private insertInstead(slot: number, c: number, route: number, gone: number, placeOut: number): number {
    const rs = this.rs;
    const n = rs.m.nodeCount;
    const d = rs.m.dist;
    const seq = rs.seq[route]!;
    const prev = seq[gone - 1]!;
    const next = seq[gone + 1]!;
    let best = d[prev * n + c]! + d[c * n + next]! - d[prev * n + next]!;
    let place = -1;
    for (let k = 0; k < 3; k++) {
      const p = this.bestPos[slot + k]!;
      if (p < 0) break;
      if (p === gone - 1 || p === gone) continue;
      if (this.bestCost[slot + k]! < best) {
        best = this.bestCost[slot + k]!;
        place = p;
      }
      break;
    }
    this.move[placeOut] = place;
    return best;
  }

  /**
   * The best exchange between ru and rv by the base price (fixed + unit x distance + load
   * penalty); returns its base price sum, or Infinity when none beats `before`. `move` holds it.
   */
  best(ru: number, rv: number, before: number, base: (r: number, count: number, distance: number, load: number) => number): number {
    const rs = this.rs;
    const m = rs.m;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const offsetV = lenU + 1;
    this.fillInsertions(ru, rv, 0);
    this.fillInsertions(rv, ru, offsetV);
    const distU = rs.fwd[ru]![lenU + 1]!;
    const distV = rs.fwd[rv]![lenV + 1]!;
    const loadU = rs.load[ru]![lenU]!;
    const loadV = rs.load[rv]![lenV]!;
    const seqU = rs.seq[ru]!;
    const seqV = rs.seq[rv]!;
    let bestPrice = before - EPS;
    let found = false;
    let bi = 0, bj = 0, bu = 0, bv = 0;
    for (let i = 1; i <= lenU; i++) {
      const u = seqU[i]!;
      const qu = m.demand[u]!;
      for (let j = 1; j <= lenV; j++) {
        const v = seqV[j]!;
        const qv = m.demand[v]!;
        const dU = this.removal[i]! + this.insertInstead(3 * (offsetV + j), v, ru, i, 3);
        const dV = this.removal[offsetV + j]! + this.insertInstead(3 * i, u, rv, j, 2);
        const price = base(ru, lenU, distU + dU, loadU - qu + qv) + base(rv, lenV, distV + dV, loadV - qv + qu);
        if (price < bestPrice) {
          bestPrice = price;
          found = true;
          bi = i; bj = j; bu = this.move[2]!; bv = this.move[3]!;
        }
      }
    }
    if (!found) return Infinity;
    this.move[0] = bi;
    this.move[1] = bj;
    this.move[2] = bu;
    this.move[3] = bv;
    return bestPrice;
  }
}
