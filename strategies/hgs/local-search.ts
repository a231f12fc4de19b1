import type { Rng } from "../core/rng.js";
import { routeCost, type HgsModel, type Penalties } from "./model.js";
import { SwapStar } from "./swap-star.js";
import { Pieces } from "./pieces.js";
import { TextbookTimes } from "./textbook-times.js";

const EPS = 1e-7;
/** Customers examined between two looks at the stop condition. */
const STOP_CHECK = 16;

/**
 * Granular local search of the hybrid genetic search (Vidal 2022): relocate one or two
 * customers (also reversed), swap 1-1, 2-1 and 2-2, 2-opt within a route and both 2-opt*
 * variants between routes, over each customer's nearest neighbours, first improvement, then
 * SWAP* between neighbouring routes; on a penalised cost so that overloaded or overlong routes
 * are allowed but priced. Every move is priced in O(1) from prefix sums (SWAP* from cached
 * insertion costs); a property test checks each applied move against the evaluator.
 */
export class LocalSearch {
  /** Per route: depot, customers, depot. */
  readonly seq: Int32Array[];
  readonly length: Int32Array;
  readonly fwd: Float64Array[];
  private readonly bwd: Float64Array[];
  readonly load: Float64Array[];
  readonly serv: Float64Array[];
  readonly cost: Float64Array;
  readonly routeOf: Int32Array;
  readonly pos: Int32Array;
  readonly modifiedAt: Float64Array;
  private readonly testedAt: Float64Array;
  clock = 0;
  private readonly a = new Pieces();
  private readonly b = new Pieces();
  readonly scratch: Int32Array;
  readonly scratch2: Int32Array;
  private readonly swapStar: SwapStar;
  /** Prefix and suffix time segments of every route (null without binding windows). */
  private readonly times: TextbookTimes | null;
  /** Customers on the two candidate routes of the move being priced. */
  private countA = 0;
  private countB = 0;
  penalties: Penalties = { load: 1, duration: 1, timeWarp: 1 };
  /**
   * Test hook: called after every applied move with the penalised cost the move was priced at
   * and the routes it rewrote (rb = -1 for a move within one route).
   */
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null = null;
  /** Penalised cost of the two routes after the move being priced (set when it improves). */
  private predicted = 0;

  constructor(readonly m: HgsModel) {
    const slots = m.customers.length + 2;
    const routes = m.vehicles;
    this.seq = Array.from({ length: routes }, () => new Int32Array(slots));
    this.fwd = Array.from({ length: routes }, () => new Float64Array(slots));
    this.bwd = Array.from({ length: routes }, () => new Float64Array(slots));
    this.load = Array.from({ length: routes }, () => new Float64Array(slots));
    this.serv = Array.from({ length: routes }, () => new Float64Array(slots));
    this.length = new Int32Array(routes);
    this.cost = new Float64Array(routes);
    this.routeOf = new Int32Array(m.nodeCount).fill(-1);
    this.pos = new Int32Array(m.nodeCount);
    this.modifiedAt = new Float64Array(routes);
    this.testedAt = new Float64Array(m.nodeCount);
    this.scratch = new Int32Array(slots);
    this.scratch2 = new Int32Array(slots);
    this.swapStar = new SwapStar(this);
    this.times = m.windows ? new TextbookTimes(m, routes, slots) : null;
  }

  /** Loads routes (customers only, one list per vehicle, missing lists empty). */
  loadRoutes(routes: readonly (readonly number[])[]): void {
    for (let r = 0; r < this.m.vehicles; r++) {
      const route = routes[r] ?? [];
      const buf = this.scratch;
      for (let k = 0; k < route.length; k++) buf[k] = route[k]!;
      this.setRoute(r, buf, route.length);
    }
    // The clock is never reset: insertion costs cached under it stay comparable across runs.
    this.testedAt.fill(-1);
  }

  routes(): number[][] {
    const out: number[][] = [];
    for (let r = 0; r < this.m.vehicles; r++) out.push(Array.from(this.seq[r]!.subarray(1, this.length[r]! + 1)));
    return out;
  }

  totalCost(): number {
    let total = 0;
    for (let r = 0; r < this.m.vehicles; r++) total += this.cost[r]!;
    return total;
  }

  loadOf(r: number): number {
    return this.load[r]![this.length[r]! + 1]!;
  }

  distanceOf(r: number): number {
    return this.fwd[r]![this.length[r]! + 1]!;
  }

  /** Route duration: additive (driving + service), or under windows the segment's (waiting included). */
  durationOf(r: number): number {
    if (this.times) return this.length[r] === 0 ? 0 : this.times.preDur[r]![this.length[r]! + 1]!;
    return this.distanceOf(r) / this.m.speed + this.serv[r]![this.length[r]! + 1]!;
  }

  /** Time warp of route r (0 without windows). */
  timeWarpOf(r: number): number {
    if (!this.m.windows || this.length[r] === 0) return 0;
    return this.times!.preWarp[r]![this.length[r]! + 1]!;
  }

  /** Re-prices every route after the penalties changed. */
  reprice(): void {
    for (let r = 0; r < this.m.vehicles; r++) this.cost[r] = this.priceRoute(r);
  }

  private priceRoute(r: number): number {
    const end = this.length[r]! + 1;
    const cost = routeCost(this.m, this.penalties, this.length[r]!, this.fwd[r]![end]!, this.load[r]![end]!, this.serv[r]![end]!);
    if (!this.times || this.length[r] === 0) return cost;
    return cost + this.times.wholePenalty(r, end, this.penalties);
  }

  /** Time penalty of a route given as a customer list (depots added), from scratch. */
  listTime(customers: Int32Array, count: number): number {
    if (count === 0) return 0;
    return this.times!.listPenalty(customers, count, this.penalties);
  }

  setRoute(r: number, customers: Int32Array, count: number): void {
    const m = this.m;
    const n = m.nodeCount;
    const seq = this.seq[r]!;
    const fwd = this.fwd[r]!;
    const bwd = this.bwd[r]!;
    const load = this.load[r]!;
    const serv = this.serv[r]!;
    seq[0] = m.depot;
    fwd[0] = 0;
    bwd[0] = 0;
    load[0] = 0;
    serv[0] = 0;
    for (let k = 1; k <= count + 1; k++) {
      const node = k <= count ? customers[k - 1]! : m.depot;
      const prev = seq[k - 1]!;
      seq[k] = node;
      fwd[k] = fwd[k - 1]! + m.dist[prev * n + node]!;
      bwd[k] = bwd[k - 1]! + m.dist[node * n + prev]!;
      load[k] = load[k - 1]! + m.demand[node]!;
      serv[k] = serv[k - 1]! + m.service[node]!;
      if (k <= count) {
        this.routeOf[node] = r;
        this.pos[node] = k;
      }
    }
    this.length[r] = count;
    if (this.times) this.times.set(r, seq, count + 1);
    this.cost[r] = this.priceRoute(r);
    this.modifiedAt[r] = ++this.clock;
  }

  private write(pieces: Pieces, out: Int32Array): number {
    let count = 0;
    for (let k = 0; k < pieces.count; k++) {
      const seq = this.seq[pieces.route[k]!]!;
      const i = pieces.from[k]!;
      const j = pieces.to[k]!;
      if (pieces.reversed[k]) {
        for (let t = j; t >= i; t--) if (!this.isDepotSlot(seq, t)) out[count++] = seq[t]!;
      } else {
        for (let t = i; t <= j; t++) if (!this.isDepotSlot(seq, t)) out[count++] = seq[t]!;
      }
    }
    return count;
  }

  private isDepotSlot(seq: Int32Array, t: number): boolean {
    return seq[t] === this.m.depot;
  }

  /**
   * Runs to a local optimum, or until `stop()` says so (checked every STOP_CHECK customers, so a
   * long descent on a large instance honours the deadline). `order` is shuffled here so that
   * successive calls explore differently; neighbour lists are visited nearest first. Returns
   * false when stopped early.
   */
  run(rng: Rng, stop: () => boolean = () => false): boolean {
    const m = this.m;
    const order = Array.from(m.customers);
    rng.shuffle(order);
    this.testedAt.fill(-1);
    this.swapStar.forget();
    let improved = true;
    let loop = 0;
    let checked = 0;
    // At least two passes: moves into empty routes are tried from the second one on.
    while (improved || loop === 1) {
      improved = false;
      for (const u of order) {
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        const lastTested = this.testedAt[u]!;
        this.testedAt[u] = this.clock;
        const near = m.neighbours[u]!;
        for (let k = 0; k < near.length; k++) {
          const v = near[k]!;
          const ru = this.routeOf[u]!;
          const rv = this.routeOf[v]!;
          if (loop > 0 && Math.max(this.modifiedAt[ru]!, this.modifiedAt[rv]!) <= lastTested) continue;
          if (this.movesAfter(u, rv, this.pos[v]!)) {
            improved = true;
            continue;
          }
          // v first in its route: also try placing u at the start of that route.
          if (this.pos[v] === 1 && this.routeOf[u] !== rv && this.movesAfter(u, rv, 0)) improved = true;
        }
        if (loop > 0) {
          const empty = this.firstEmptyRoute();
          if (empty >= 0 && this.movesAfter(u, empty, 0)) improved = true;
        }
      }
      if (stop()) return false;
      if (this.swapStar.pass(rng, loop)) improved = true;
      loop++;
    }
    return true;
  }

  private firstEmptyRoute(): number {
    for (let r = 0; r < this.m.vehicles; r++) if (this.length[r] === 0) return r;
    return -1;
  }

  /** Every move between customer u and position j of route rv (j = 0: rv's start depot). */
  private movesAfter(u: number, rv: number, j: number): boolean {
    const ru = this.routeOf[u]!;
    if (ru !== rv) return this.interRoute(u, ru, this.pos[u]!, rv, j);
    return this.intraRoute(u, ru, this.pos[u]!, j);
  }

  /**
   * Moves within one route: only the distance changes (load and service stay), so each is
   * priced from a distance delta, reversed segments from the backward prefix sums.
   */
  private intraRoute(u: number, r: number, i: number, j: number): boolean {
    if (j === i || j === i - 1) return false;
    const m = this.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seq = this.seq[r]!;
    const end = this.length[r]! + 1;
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
      const fwd = this.fwd[r]!;
      const bwd = this.bwd[r]!;
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
    if (delta > -EPS && !this.m.windows) return false;
    const end = this.length[r]! + 1;
    const after = routeCost(this.m, this.penalties, this.length[r]!, this.fwd[r]![end]! + delta, this.load[r]![end]!, this.serv[r]![end]!);
    this.predicted = after;
    return after < this.cost[r]! - EPS;
  }

  /** Adds the time penalty of the candidate (pieces `a`) to an improving distance price; whether it still improves. */
  private confirmWithin(r: number): boolean {
    if (!this.m.windows) return true;
    this.predicted += this.times!.piecesPenalty(this.a, this.length[r]!, this.seq, this.length, this.penalties);
    return this.predicted < this.cost[r]! - EPS;
  }

  /** As confirmWithin for a move between two routes (pieces `a` and `b`). */
  private confirm(): boolean {
    if (!this.m.windows) return true;
    this.predicted += this.times!.piecesPenalty(this.a, this.countA, this.seq, this.length, this.penalties) + this.times!.piecesPenalty(this.b, this.countB, this.seq, this.length, this.penalties);
    return this.predicted < this.before - EPS;
  }

  private commitWithin(r: number): boolean {
    const count = this.write(this.a, this.scratch);
    this.setRoute(r, this.scratch, count);
    if (this.onCommit) this.onCommit(this.predicted, r, -1);
    return true;
  }

  /**
   * Moves between two routes, priced directly from prefix sums and a few distance lookups
   * (pieces are built only for the move that is applied). Property-tested against the evaluator.
   */
  private interRoute(u: number, ru: number, i: number, rv: number, j: number): boolean {
    const m = this.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seqU = this.seq[ru]!;
    const seqV = this.seq[rv]!;
    const lenU = this.length[ru]!;
    const lenV = this.length[rv]!;
    const endU = lenU + 1;
    const endV = lenV + 1;
    const fwdU = this.fwd[ru]!;
    const fwdV = this.fwd[rv]!;
    const distU = fwdU[endU]!;
    const distV = fwdV[endV]!;
    const loadU = this.load[ru]![endU]!;
    const loadV = this.load[rv]![endV]!;
    const servU = this.serv[ru]![endU]!;
    const servV = this.serv[rv]![endV]!;
    const pu = seqU[i - 1]!;
    const x = seqU[i + 1]!;
    const v = seqV[j]!;
    const y = seqV[j + 1]!;
    const qu = m.demand[u]!;
    const su = m.service[u]!;
    const a = this.a;
    const b = this.b;
    this.before = this.cost[ru]! + this.cost[rv]!;

    // Relocate u after v.
    let dA = d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]!;
    let dB = d[v * n + u]! + d[u * n + y]! - d[v * n + y]!;
    if (this.improves(lenU - 1, distU + dA, loadU - qu, servU - su, lenV + 1, distV + dB, loadV + qu, servV + su)) {
      a.reset().add(ru, 0, i - 1).add(ru, i + 1, endU);
      b.reset().add(rv, 0, j).add(ru, i, i).add(rv, j + 1, endV);
      if (this.confirm()) return this.commit(ru, rv);
    }
    const xIsCustomer = i + 1 < endU;
    const vIsCustomer = j > 0;
    const qx = m.demand[x]!;
    const sx = m.service[x]!;
    if (xIsCustomer) {
      const xx = seqU[i + 2]!;
      // Relocate (u, x) after v, in order and reversed.
      dA = d[pu * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
      dB = d[v * n + u]! + d[u * n + x]! + d[x * n + y]! - d[v * n + y]!;
      if (this.improves(lenU - 2, distU + dA, loadU - qu - qx, servU - su - sx, lenV + 2, distV + dB, loadV + qu + qx, servV + su + sx)) {
        a.reset().add(ru, 0, i - 1).add(ru, i + 2, endU);
        b.reset().add(rv, 0, j).add(ru, i, i + 1).add(rv, j + 1, endV);
        if (this.confirm()) return this.commit(ru, rv);
      }
      dB = d[v * n + x]! + d[x * n + u]! + d[u * n + y]! - d[v * n + y]!;
      if (this.improves(lenU - 2, distU + dA, loadU - qu - qx, servU - su - sx, lenV + 2, distV + dB, loadV + qu + qx, servV + su + sx)) {
        a.reset().add(ru, 0, i - 1).add(ru, i + 2, endU);
        b.reset().add(rv, 0, j).add(ru, i, i + 1, true).add(rv, j + 1, endV);
        if (this.confirm()) return this.commit(ru, rv);
      }
    }
    if (vIsCustomer) {
      const pv = seqV[j - 1]!;
      const qv = m.demand[v]!;
      const sv = m.service[v]!;
      // Swap u and v.
      dA = d[pu * n + v]! + d[v * n + x]! - d[pu * n + u]! - d[u * n + x]!;
      dB = d[pv * n + u]! + d[u * n + y]! - d[pv * n + v]! - d[v * n + y]!;
      if (this.improves(lenU, distU + dA, loadU - qu + qv, servU - su + sv, lenV, distV + dB, loadV + qu - qv, servV + su - sv)) {
        a.reset().add(ru, 0, i - 1).add(rv, j, j).add(ru, i + 1, endU);
        b.reset().add(rv, 0, j - 1).add(ru, i, i).add(rv, j + 1, endV);
        if (this.confirm()) return this.commit(ru, rv);
      }
      if (xIsCustomer) {
        const xx = seqU[i + 2]!;
        // Swap (u, x) and v.
        dA = d[pu * n + v]! + d[v * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
        dB = d[pv * n + u]! + d[u * n + x]! + d[x * n + y]! - d[pv * n + v]! - d[v * n + y]!;
        if (this.improves(lenU - 1, distU + dA, loadU - qu - qx + qv, servU - su - sx + sv, lenV + 1, distV + dB, loadV + qu + qx - qv, servV + su + sx - sv)) {
          a.reset().add(ru, 0, i - 1).add(rv, j, j).add(ru, i + 2, endU);
          b.reset().add(rv, 0, j - 1).add(ru, i, i + 1).add(rv, j + 1, endV);
          if (this.confirm()) return this.commit(ru, rv);
        }
        if (j + 1 < endV) {
          const yy = seqV[j + 2]!;
          const qy = m.demand[y]!;
          const sy = m.service[y]!;
          // Swap (u, x) and (v, y).
          dA = d[pu * n + v]! + d[v * n + y]! + d[y * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
          dB = d[pv * n + u]! + d[u * n + x]! + d[x * n + yy]! - d[pv * n + v]! - d[v * n + y]! - d[y * n + yy]!;
          if (this.improves(lenU, distU + dA, loadU - qu - qx + qv + qy, servU - su - sx + sv + sy, lenV, distV + dB, loadV + qu + qx - qv - qy, servV + su + sx - sv - sy)) {
            a.reset().add(ru, 0, i - 1).add(rv, j, j + 1).add(ru, i + 2, endU);
            b.reset().add(rv, 0, j - 1).add(ru, i, i + 1).add(rv, j + 2, endV);
            if (this.confirm()) return this.commit(ru, rv);
          }
        }
      }
    }
    const ldU = this.load[ru]!;
    const ldV = this.load[rv]!;
    const svU = this.serv[ru]!;
    const svV = this.serv[rv]!;
    // 2-opt*: u continues with v's tail (y...), v with u's tail (x...).
    let distA = fwdU[i]! + d[u * n + y]! + distV - fwdV[j + 1]!;
    let distB = fwdV[j]! + d[v * n + x]! + distU - fwdU[i + 1]!;
    if (
      this.improves(i + lenV - j, distA, ldU[i]! + loadV - ldV[j]!, svU[i]! + servV - svV[j]!, j + lenU - i, distB, ldV[j]! + loadU - ldU[i]!, svV[j]! + servU - svU[i]!)
    ) {
      a.reset().add(ru, 0, i).add(rv, j + 1, endV);
      b.reset().add(rv, 0, j).add(ru, i + 1, endU);
      if (this.confirm()) return this.commit(ru, rv);
    }
    // 2-opt* reversed: u then v's head backwards; u's tail backwards, then v's tail.
    const bwdU = this.bwd[ru]!;
    const bwdV = this.bwd[rv]!;
    distA = fwdU[i]! + d[u * n + v]! + bwdV[j]!;
    distB = bwdU[endU]! - bwdU[i + 1]! + d[x * n + y]! + distV - fwdV[j + 1]!;
    if (this.improves(i + j, distA, ldU[i]! + ldV[j]!, svU[i]! + svV[j]!, lenU - i + lenV - j, distB, loadU - ldU[i]! + loadV - ldV[j]!, servU - svU[i]! + servV - svV[j]!)) {
      a.reset().add(ru, 0, i).add(rv, 0, j, true);
      b.reset().add(ru, i + 1, endU, true).add(rv, j + 1, endV);
      if (this.confirm()) return this.commit(ru, rv);
    }
    return false;
  }

  /** Cost of both routes before the move being priced (set by the caller). */
  private before = 0;

  /** Whether the two new routes cost less than `before`; the distance bound prunes first. */
  private improves(countA: number, distA: number, loadA: number, servA: number, countB: number, distB: number, loadB: number, servB: number): boolean {
    const m = this.m;
    const boundA = countA > 0 ? m.fixedCost + m.unitCost * distA : 0;
    const boundB = countB > 0 ? m.fixedCost + m.unitCost * distB : 0;
    if (boundA + boundB >= this.before - EPS) return false;
    const after = routeCost(m, this.penalties, countA, distA, loadA, servA) + routeCost(m, this.penalties, countB, distB, loadB, servB);
    this.predicted = after;
    this.countA = countA;
    this.countB = countB;
    return after < this.before - EPS;
  }

  private commit(ra: number, rb: number): boolean {
    const countA = this.write(this.a, this.scratch);
    const countB = this.write(this.b, this.scratch2);
    this.setRoute(ra, this.scratch, countA);
    this.setRoute(rb, this.scratch2, countB);
    if (this.onCommit) this.onCommit(this.predicted, ra, rb);
    return true;
  }
}
