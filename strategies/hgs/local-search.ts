import type { Rng } from "../core/rng.js";
import { routeCost, type HgsModel } from "./model.js";
import { IntraRouteMoves } from "./intra-route.js";
import { Pieces } from "./pieces.js";
import { SwapStar } from "./swap-star.js";
import { TextbookRoutes } from "./textbook-routes.js";

const EPS = 1e-7;
/** Customers examined between two looks at the stop condition. */
const STOP_CHECK = 16;
/** When examine() also tries moving a customer into an empty route. */
const EMPTY_NEVER = 0;
const EMPTY_ALWAYS = 1;
const EMPTY_IF_CHANGED = 2;

/**
 * Granular local search of the hybrid genetic search (Vidal 2022): relocate one or two
 * customers (also reversed), swap 1-1, 2-1 and 2-2, 2-opt within a route (intra-route.ts) and
 * both 2-opt* variants between routes, over each customer's nearest neighbours, first
 * improvement, then SWAP* between neighbouring routes; on a penalised cost so that overloaded or
 * overlong routes are allowed but priced. Every move is priced in O(1) from the prefix sums of
 * TextbookRoutes (SWAP* from cached insertion costs); a property test checks each applied move
 * against the evaluator.
 */
export class LocalSearch extends TextbookRoutes {
  private readonly testedAt: Float64Array;
  private readonly a = new Pieces();
  private readonly b = new Pieces();
  private readonly intra: IntraRouteMoves;
  private readonly swapStar: SwapStar;
  private readonly promisingOrder: Int32Array;
  /** Customers on the two candidate routes of the move being priced. */
  private countA = 0;
  private countB = 0;
  /** Penalised cost of the two routes after the move being priced (set when it improves). */
  private predicted = 0;

  constructor(m: HgsModel) {
    super(m);
    this.testedAt = new Float64Array(m.nodeCount);
    this.intra = new IntraRouteMoves(this);
    this.swapStar = new SwapStar(this);
    this.promisingOrder = new Int32Array(m.nodeCount);
  }

  /** Loads routes (customers only, one list per vehicle, missing lists empty); every customer is examined again. */
  override loadRoutes(routes: readonly (readonly number[])[]): void {
    super.loadRoutes(routes);
    this.testedAt.fill(-1);
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
        if (this.examine(u, loop > 0, loop > 0 ? EMPTY_ALWAYS : EMPTY_NEVER)) improved = true;
      }
      if (stop()) return false;
      if (this.swapStar.pass(rng, loop)) improved = true;
      loop++;
    }
    return true;
  }

  /**
   * As run, when the routes were a local optimum except for those rewritten since (an iterated
   * search's ruin and recreate): each pass looks only at the promising customers (promising.ts)
   * and, for those, only at pairs where either route changed since the customer was last
   * examined (HGS's whenLastModified); SWAP* likewise (passLocalised).
   */
  runLocalised(rng: Rng, stop: () => boolean = () => false): boolean {
    const order = this.promisingOrder;
    let improved = true;
    let loop = 0;
    let checked = 0;
    while (improved || loop === 1) {
      improved = false;
      const count = this.promising.collect(this.seq, this.length, order);
      for (let k = count - 1; k > 0; k--) {
        const t = rng.int(k + 1);
        const tmp = order[k]!;
        order[k] = order[t]!;
        order[t] = tmp;
      }
      for (let k = 0; k < count; k++) {
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        if (this.examine(order[k]!, true, loop > 0 ? EMPTY_IF_CHANGED : EMPTY_NEVER)) improved = true;
      }
      if (stop()) return false;
      if (this.swapStar.passLocalised(rng)) improved = true;
      loop++;
    }
    return true;
  }

  /**
   * Tries customer u's moves towards each granular neighbour's route (and an empty route, as
   * `empty` says); with `skipUnchanged`, only where either route changed since u was last
   * examined. Whether a move was applied.
   */
  private examine(u: number, skipUnchanged: boolean, empty: number): boolean {
    const lastTested = this.testedAt[u]!;
    this.testedAt[u] = this.clock;
    const near = this.m.neighbours[u]!;
    let improved = false;
    for (let k = 0; k < near.length; k++) {
      const v = near[k]!;
      const ru = this.routeOf[u]!;
      const rv = this.routeOf[v]!;
      if (skipUnchanged && Math.max(this.modifiedAt[ru]!, this.modifiedAt[rv]!) <= lastTested) continue;
      if (this.movesAfter(u, rv, this.pos[v]!)) {
        improved = true;
        continue;
      }
      // v first in its route: also try placing u at the start of that route.
      if (this.pos[v] === 1 && this.routeOf[u] !== rv && this.movesAfter(u, rv, 0)) improved = true;
    }
    // Localised: only a customer whose route changed can newly gain from a route of its own.
    if (empty === EMPTY_ALWAYS || (empty === EMPTY_IF_CHANGED && this.modifiedAt[this.routeOf[u]!]! > lastTested)) {
      const r = this.firstEmptyRoute();
      if (r >= 0 && this.movesAfter(u, r, 0)) improved = true;
    }
    return improved;
  }

  private firstEmptyRoute(): number {
    for (let r = 0; r < this.m.vehicles; r++) if (this.length[r] === 0) return r;
    return -1;
  }

  /** Every move between customer u and position j of route rv (j = 0: rv's start depot). */
  private movesAfter(u: number, rv: number, j: number): boolean {
    const ru = this.routeOf[u]!;
    if (ru !== rv) return this.interRoute(u, ru, this.pos[u]!, rv, j);
    return this.intra.tryMoves(u, ru, this.pos[u]!, j);
  }

  /** Adds the time penalties of both candidate routes (pieces `a` and `b`) to an improving price; whether it still improves. */
  private confirm(): boolean {
    if (!this.m.windows) return true;
    this.predicted += this.times!.piecesPenalty(this.a, this.countA, this.seq, this.length, this.penalties) + this.times!.piecesPenalty(this.b, this.countB, this.seq, this.length, this.penalties);
    return this.predicted < this.before - EPS;
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
