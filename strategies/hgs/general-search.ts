import type { Rng } from "../core/rng.js";
import type { FleetModel } from "./fleet-model.js";
import { Pieces } from "./pieces.js";
import type { RouteSet } from "./route-set.js";
import { GeneralSwapStar } from "./general-swap-star.js";
import { TailPrices } from "./tail-prices.js";
import { improveFleetUse } from "./vehicle-moves.js";

const EPS = 1e-7;
/** Customers examined between two looks at the stop condition. */
const STOP_CHECK = 16;

/**
 * Granular local search for any fleet (the general search's education): relocate one or two
 * customers (also reversed), swap 1-1, 2-1 and 2-2, 2-opt within a route and both 2-opt*
 * variants between routes, over each customer's nearest neighbours, first improvement; moves
 * into an empty vehicle of each type; SWAP* between routes without a time dimension
 * (general-swap-star.ts); and after each pass a route may change vehicle
 * (vehicle-moves.ts). Each candidate route is priced on its own vehicle from pieces of the
 * current routes (route-set.ts), so routes of different types, depots and speeds mix exactly.
 * `onCommit` lets the property test compare each predicted price with a from-scratch one.
 */
export class GeneralLocalSearch {
  private readonly a = new Pieces();
  private readonly b = new Pieces();
  private readonly outA: Int32Array;
  private readonly outB: Int32Array;
  private readonly testedAt: Float64Array;
  private readonly tails: TailPrices;
  private readonly emptyHint: Int32Array;
  /** SWAP* between routes; only without a time dimension (see run). */
  private readonly swapStar: GeneralSwapStar | null;
  private readonly basePriceOf = (r: number, count: number, distance: number, load: number) => this.base(r, count, distance, load);
  private before = 0;
  private predicted = 0;
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null = null;

  constructor(readonly rs: RouteSet) {
    const m = rs.m;
    this.outA = new Int32Array(m.customers.length + 2);
    this.outB = new Int32Array(m.customers.length + 2);
    this.testedAt = new Float64Array(m.nodeCount);
    this.tails = new TailPrices(rs);
    this.emptyHint = new Int32Array(m.typeSlots.length).fill(-1);
    // Under time windows SWAP*'s distance-chosen places mostly fail the exact time check, and
    // its pair tables cost time the other moves use better (measured on MDVRPTW: see BENCHMARKS.md).
    this.swapStar = m.twStart === null ? new GeneralSwapStar(rs) : null;
  }

  get m(): FleetModel {
    return this.rs.m;
  }

  /** First empty route of type `type` other than `except` (-1: none left). */
  emptyOfType(type: number, except: number): number {
    const slots = this.m.typeSlots[type]!;
    // The last answer is usually still right: it spares a scan over the type's used vehicles.
    const hinted = this.emptyHint[type]!;
    if (hinted >= 0 && hinted !== except && this.rs.length[hinted] === 0) return hinted;
    for (let k = 0; k < slots.length; k++) {
      const r = slots[k]!;
      if (r !== except && this.rs.length[r] === 0) {
        if (except < 0) this.emptyHint[type] = r;
        return r;
      }
    }
    return -1;
  }

  /**
   * Forgets which moves were already found not to improve: needed when the prices changed
   * (penalties), since the search otherwise skips a customer whose routes are unchanged since it
   * was last tested, across runs (so that after a ruin only the touched routes are searched).
   */
  forget(): void {
    this.testedAt.fill(-1);
    this.swapStar?.forget();
  }

  /**
   * After a penalty change: only routes that violate a constraint changed price, so only they
   * (and moves touching them) are searched again; cheaper than forget() on large problems.
   */
  revisitViolating(): void {
    const rs = this.rs;
    for (let r = 0; r < rs.m.routes; r++) {
      if (rs.loadExcess[r]! > 0 || rs.timeWarp[r]! > 0 || rs.durationExcess[r]! > 0) rs.modifiedAt[r] = ++rs.clock;
    }
  }

  /** Runs to a local optimum or until `stop()`; returns false when stopped early. */
  run(rng: Rng, stop: () => boolean = () => false): boolean {
    const m = this.m;
    const rs = this.rs;
    const order = Array.from(m.customers);
    rng.shuffle(order);
    let improved = true;
    let loop = 0;
    let checked = 0;
    while (improved || loop === 1) {
      improved = false;
      for (const u of order) {
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        const lastTested = this.testedAt[u]!;
        this.testedAt[u] = rs.clock;
        const near = m.neighbours[u]!;
        for (let k = 0; k < near.length; k++) {
          const v = near[k]!;
          const ru = rs.routeOf[u]!;
          const rv = rs.routeOf[v]!;
          // Both routes unchanged since u was last tested (in this run or an earlier one): nothing new.
          if (Math.max(rs.modifiedAt[ru]!, rs.modifiedAt[rv]!) <= lastTested) continue;
          if (this.movesAfter(u, rv, rs.pos[v]!)) {
            improved = true;
            continue;
          }
          if (rs.pos[v] === 1 && rs.routeOf[u] !== rv && this.movesAfter(u, rv, 0)) improved = true;
        }
        // Into an empty vehicle of each type: depends on u's route only (empty routes of a type are alike).
        if (rs.modifiedAt[rs.routeOf[u]!]! > lastTested) {
          for (let type = 0; type < m.typeSlots.length; type++) {
            const empty = this.emptyOfType(type, -1);
            if (empty >= 0 && this.movesAfter(u, empty, 0)) improved = true;
          }
        }
      }
      if (stop()) return false;
      if (this.swapStar && this.swapStarPass(this.swapStar)) improved = true;
      if (improveFleetUse(this)) improved = true;
      loop++;
    }
    return true;
  }

  /** One SWAP* round over the neighbouring route pairs that changed; returns whether one applied. */
  private swapStarPass(ss: GeneralSwapStar): boolean {
    const rs = this.rs;
    const pairs = ss.candidatePairs();
    let improved = false;
    for (let k = 0; k < pairs.length; k += 2) {
      const ru = pairs[k]!;
      const rv = pairs[k + 1]!;
      if (rs.length[ru] === 0 || rs.length[rv] === 0) continue;
      this.before = rs.cost[ru]! + rs.cost[rv]!;
      if (ss.best(ru, rv, this.before, this.basePriceOf) < Infinity) {
        const [i, j, uPlace, vPlace] = ss.move;
        this.exchanged(this.a, ru, i!, rv, j!, vPlace!);
        this.exchanged(this.b, rv, j!, ru, i!, uPlace!);
        if (this.tryPair(ru, rv)) {
          improved = true;
          continue;
        }
      }
      ss.tested(ru, rv);
    }
    return improved;
  }

  /** Pieces of route r without its customer at i, with customer `j` of route `from` after position `place` (-1: at i's place). */
  private exchanged(out: Pieces, r: number, i: number, from: number, j: number, place: number): void {
    const len = this.rs.length[r]!;
    out.reset();
    if (place < 0) out.add(r, 1, i - 1).add(from, j, j).add(r, i + 1, len);
    else if (place < i) out.add(r, 1, place).add(from, j, j).add(r, place + 1, i - 1).add(r, i + 1, len);
    else out.add(r, 1, i - 1).add(r, i + 1, place).add(from, j, j).add(r, place + 1, len);
  }

  /** Every move between customer u and position j of route rv (j = 0: before rv's first customer). */
  private movesAfter(u: number, rv: number, j: number): boolean {
    const ru = this.rs.routeOf[u]!;
    if (ru !== rv) return this.interRoute(ru, this.rs.pos[u]!, rv, j);
    return this.intraRoute(ru, this.rs.pos[u]!, j);
  }

  /**
   * Moves within one route. The vehicle and the load stay, so only the distance changes: each
   * candidate's change comes from a few distance lookups (2-opt's reversed part from the
   * backward prefix sums), and pieces are built only for candidates that pass it.
   */
  private intraRoute(r: number, i: number, j: number): boolean {
    if (j === i || j === i - 1) return false;
    const rs = this.rs;
    const n = rs.m.nodeCount;
    const d = rs.m.dist;
    const seq = rs.seq[r]!;
    const len = rs.length[r]!;
    const a = this.a;
    const u = seq[i]!;
    const pu = seq[i - 1]!;
    const x = seq[i + 1]!;
    const sj = seq[j]!;
    const sj1 = seq[j + 1]!;
    const opened = -d[sj * n + sj1]!;
    // Relocate u after position j.
    if (this.mayImprove(r, d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]! + d[sj * n + u]! + d[u * n + sj1]! + opened)) {
      if (j > i) a.reset().add(r, 1, i - 1).add(r, i + 1, j).add(r, i, i).add(r, j + 1, len);
      else a.reset().add(r, 1, j).add(r, i, i).add(r, j + 1, i - 1).add(r, i + 1, len);
      if (this.tryWithin(r)) return true;
    }
    if (i + 1 <= len && j !== i + 1) {
      // Relocate (u, x) after j, in order and reversed.
      const xx = seq[i + 2]!;
      const removed = d[pu * n + xx]! - d[pu * n + u]! - d[x * n + xx]! + opened;
      for (const reversed of [false, true]) {
        const inserted = reversed ? d[sj * n + x]! + d[x * n + u]! + d[u * n + sj1]! - d[u * n + x]! : d[sj * n + u]! + d[x * n + sj1]!;
        if (!this.mayImprove(r, removed + inserted)) continue;
        if (j > i + 1) a.reset().add(r, 1, i - 1).add(r, i + 2, j).add(r, i, i + 1, reversed).add(r, j + 1, len);
        else a.reset().add(r, 1, j).add(r, i, i + 1, reversed).add(r, j + 1, i - 1).add(r, i + 2, len);
        if (this.tryWithin(r)) return true;
      }
    }
    if (j > 0) {
      // Swap the customers at i and j.
      const lo = Math.min(i, j);
      const hi = Math.max(i, j);
      const p = seq[lo - 1]!;
      const l = seq[lo]!;
      const h = seq[hi]!;
      const q = seq[hi + 1]!;
      const delta =
        hi === lo + 1
          ? d[p * n + h]! + d[h * n + l]! + d[l * n + q]! - d[p * n + l]! - d[l * n + h]! - d[h * n + q]!
          : d[p * n + h]! + d[h * n + seq[lo + 1]!]! + d[seq[hi - 1]! * n + l]! + d[l * n + q]! -
            d[p * n + l]! - d[l * n + seq[lo + 1]!]! - d[seq[hi - 1]! * n + h]! - d[h * n + q]!;
      if (this.mayImprove(r, delta)) {
        a.reset().add(r, 1, lo - 1).add(r, hi, hi).add(r, lo + 1, hi - 1).add(r, lo, lo).add(r, hi + 1, len);
        if (this.tryWithin(r)) return true;
      }
    }
    if (i < j) {
      // 2-opt: reverse positions i+1..j.
      const fwd = rs.fwd[r]!;
      const bwd = rs.bwd[r]!;
      const delta = d[u * n + sj]! + d[x * n + sj1]! - d[u * n + x]! + opened + bwd[j]! - bwd[i + 1]! - (fwd[j]! - fwd[i + 1]!);
      if (this.mayImprove(r, delta)) {
        a.reset().add(r, 1, i).add(r, i + 1, j, true).add(r, j + 1, len);
        if (this.tryWithin(r)) return true;
      }
    }
    return false;
  }

  /** Whether route r, its distance changed by `delta` (same customers), could cost less: a lower bound. */
  private mayImprove(r: number, delta: number): boolean {
    const rs = this.rs;
    const len = rs.length[r]!;
    return this.base(r, len, rs.fwd[r]![len + 1]! + delta, rs.load[r]![len]!) < rs.cost[r]! - EPS;
  }

  private tryWithin(r: number): boolean {
    const rs = this.rs;
    const before = rs.cost[r]!;
    const base = rs.basePrice(r, this.a);
    if (base >= before - EPS) return false;
    const after = base + rs.timePrice(r, this.a);
    if (after >= before - EPS) return false;
    this.predicted = after;
    const count = rs.write(this.a, this.outA);
    rs.setRoute(r, this.outA, count);
    this.onCommit?.(after, r, -1);
    return true;
  }

  /** Fixed + unit x distance + load penalty of route r with `count` customers (0 when empty). */
  private base(r: number, count: number, distance: number, load: number): number {
    if (count === 0) return 0;
    const m = this.rs.m;
    const excess = load - m.capacity[r]!;
    return m.fixedCost[r]! + m.unitCost[r]! * distance + (excess > 0 ? this.rs.penalties.load * excess : 0);
  }

  /**
   * Moves between two routes. Relocations and swaps keep both routes' ends, so their base price
   * (distance and load) comes from a few distance lookups, and pieces are built only for
   * candidates that pass it; both 2-opt* variants are priced from pieces (the tails change end).
   */
  private interRoute(ru: number, i: number, rv: number, j: number): boolean {
    const rs = this.rs;
    const m = rs.m;
    const n = m.nodeCount;
    const d = m.dist;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const seqU = rs.seq[ru]!;
    const seqV = rs.seq[rv]!;
    const distU = rs.fwd[ru]![lenU + 1]!;
    const distV = rs.fwd[rv]![lenV + 1]!;
    const loadU = rs.load[ru]![lenU]!;
    const loadV = rs.load[rv]![lenV]!;
    const u = seqU[i]!;
    const pu = seqU[i - 1]!;
    const x = seqU[i + 1]!;
    const v = seqV[j]!;
    const y = seqV[j + 1]!;
    const qu = m.demand[u]!;
    const a = this.a;
    const b = this.b;
    const before = (this.before = rs.cost[ru]! + rs.cost[rv]!) - EPS;
    // Relocate u after v.
    let removeA = d[pu * n + x]! - d[pu * n + u]! - d[u * n + x]!;
    if (this.base(ru, lenU - 1, distU + removeA, loadU - qu) + this.base(rv, lenV + 1, distV + d[v * n + u]! + d[u * n + y]! - d[v * n + y]!, loadV + qu) < before) {
      a.reset().add(ru, 1, i - 1).add(ru, i + 1, lenU);
      b.reset().add(rv, 1, j).add(ru, i, i).add(rv, j + 1, lenV);
      if (this.tryPair(ru, rv)) return true;
    }
    const pairOut = i + 1 <= lenU;
    const xx = pairOut ? seqU[i + 2]! : -1;
    const qx = pairOut ? m.demand[x]! : 0;
    if (pairOut) {
      // Relocate (u, x) after v, in order and reversed.
      removeA = d[pu * n + xx]! - d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
      const baseA = this.base(ru, lenU - 2, distU + removeA, loadU - qu - qx);
      if (baseA + this.base(rv, lenV + 2, distV + d[v * n + u]! + d[u * n + x]! + d[x * n + y]! - d[v * n + y]!, loadV + qu + qx) < before) {
        a.reset().add(ru, 1, i - 1).add(ru, i + 2, lenU);
        b.reset().add(rv, 1, j).add(ru, i, i + 1).add(rv, j + 1, lenV);
        if (this.tryPair(ru, rv)) return true;
      }
      if (baseA + this.base(rv, lenV + 2, distV + d[v * n + x]! + d[x * n + u]! + d[u * n + y]! - d[v * n + y]!, loadV + qu + qx) < before) {
        a.reset().add(ru, 1, i - 1).add(ru, i + 2, lenU);
        b.reset().add(rv, 1, j).add(ru, i, i + 1, true).add(rv, j + 1, lenV);
        if (this.tryPair(ru, rv)) return true;
      }
    }
    if (j > 0) {
      // Swap u and v; (u, x) and v; (u, x) and (v, y).
      const pv = seqV[j - 1]!;
      const qv = m.demand[v]!;
      const removeV = -d[pv * n + v]! - d[v * n + y]!;
      if (
        this.base(ru, lenU, distU + d[pu * n + v]! + d[v * n + x]! - d[pu * n + u]! - d[u * n + x]!, loadU - qu + qv) +
          this.base(rv, lenV, distV + d[pv * n + u]! + d[u * n + y]! + removeV, loadV - qv + qu) <
        before
      ) {
        a.reset().add(ru, 1, i - 1).add(rv, j, j).add(ru, i + 1, lenU);
        b.reset().add(rv, 1, j - 1).add(ru, i, i).add(rv, j + 1, lenV);
        if (this.tryPair(ru, rv)) return true;
      }
      if (pairOut) {
        const removeUX = -d[pu * n + u]! - d[u * n + x]! - d[x * n + xx]!;
        if (
          this.base(ru, lenU - 1, distU + d[pu * n + v]! + d[v * n + xx]! + removeUX, loadU - qu - qx + qv) +
            this.base(rv, lenV + 1, distV + d[pv * n + u]! + d[u * n + x]! + d[x * n + y]! + removeV, loadV - qv + qu + qx) <
          before
        ) {
          a.reset().add(ru, 1, i - 1).add(rv, j, j).add(ru, i + 2, lenU);
          b.reset().add(rv, 1, j - 1).add(ru, i, i + 1).add(rv, j + 1, lenV);
          if (this.tryPair(ru, rv)) return true;
        }
        if (j + 1 <= lenV) {
          const yy = seqV[j + 2]!;
          const qy = m.demand[y]!;
          if (
            this.base(ru, lenU, distU + d[pu * n + v]! + d[v * n + y]! + d[y * n + xx]! + removeUX, loadU - qu - qx + qv + qy) +
              this.base(rv, lenV, distV + d[pv * n + u]! + d[u * n + x]! + d[x * n + yy]! - d[pv * n + v]! - d[v * n + y]! - d[y * n + yy]!, loadV - qv - qy + qu + qx) <
            before
          ) {
            a.reset().add(ru, 1, i - 1).add(rv, j, j + 1).add(ru, i + 2, lenU);
            b.reset().add(rv, 1, j - 1).add(ru, i, i + 1).add(rv, j + 2, lenV);
            if (this.tryPair(ru, rv)) return true;
          }
        }
      }
    }
    // 2-opt*: u continues with v's tail, v with u's tail (each route keeps its vehicle).
    let t = this.tails.straight(ru, i, rv, j);
    if (this.base(ru, t[2]!, t[0]!, t[1]!) + this.base(rv, t[5]!, t[3]!, t[4]!) < before) {
      a.reset().add(ru, 1, i).add(rv, j + 1, lenV);
      b.reset().add(rv, 1, j).add(ru, i + 1, lenU);
      if (this.tryPair(ru, rv)) return true;
    }
    // 2-opt* reversed: u then v's head backwards; u's tail backwards, then v's tail.
    t = this.tails.reversed(ru, i, rv, j);
    if (this.base(ru, t[2]!, t[0]!, t[1]!) + this.base(rv, t[5]!, t[3]!, t[4]!) >= before) return false;
    a.reset().add(ru, 1, i).add(rv, 1, j, true);
    b.reset().add(ru, i + 1, lenU, true).add(rv, j + 1, lenV);
    return this.tryPair(ru, rv);
  }

  /** Prices pieces `a` on ru's vehicle and `b` on rv's; applies the move when it improves. */
  private tryPair(ru: number, rv: number): boolean {
    const rs = this.rs;
    const baseA = rs.basePrice(ru, this.a);
    // Prices are never negative: a first route already as dear as both was is enough to stop.
    if (baseA >= this.before - EPS) return false;
    const baseB = rs.basePrice(rv, this.b);
    if (baseA + baseB >= this.before - EPS) return false;
    const after = baseA + baseB + rs.timePrice(ru, this.a) + rs.timePrice(rv, this.b);
    if (after >= this.before - EPS) return false;
    this.predicted = after;
    const countA = rs.write(this.a, this.outA);
    const countB = rs.write(this.b, this.outB);
    rs.setRoute(ru, this.outA, countA);
    rs.setRoute(rv, this.outB, countB);
    this.onCommit?.(after, ru, rv);
    return true;
  }
}
