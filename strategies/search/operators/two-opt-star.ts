import type { Routes } from "../routes.js";
import type { MovePricing, PairOperator } from "./operator.js";
import { TailPrices } from "./tail-prices.js";

/**
 * 2-opt* between two routes, cut after u (position i of ru) and after v (position j of rv; 0:
 * the start): straight, u continues with v's tail and v with u's tail; reversed, u continues
 * with v's head backwards and u's tail, backwards, precedes v's tail. Each route keeps its
 * vehicle (start and end node). Both variants are priced in O(1) from the prefix sums; when every
 * route starts and ends at one depot the routes' totals give the candidates' directly, else
 * tail-prices.ts joins each part to its new route's own ends (and is also used under rules, which
 * check each part's customers first). `evaluate` keeps the first variant that improves for `apply`.
 */
export class TwoOptStar implements PairOperator {
  private ru = -1;
  private rv = -1;
  private readonly tails: TailPrices;
  /** Every route starts and ends at the same node and no rule limits who serves what: the closed form applies. */
  private readonly oneDepot: boolean;

  constructor(private readonly ls: MovePricing) {
    this.tails = new TailPrices(ls.rs);
    this.oneDepot = sharesOneDepot(ls.rs) && ls.rs.rules === null;
  }

  /** Whether a variant improves; it is then held in the pricing's pieces for `apply`. */
  evaluate(ru: number, i: number, rv: number, j: number): boolean {
    this.ru = ru;
    this.rv = rv;
    if (this.oneDepot) return this.oneDepotVariants(ru, i, rv, j);
    const rs = this.ls.rs;
    // Skills: rv's vehicle takes u's tail either way; a refused tail is not priced (route-rules.ts).
    const rules = rs.rules;
    if (rules !== null && !rules.servesRange(rv, ru, i + 1, rs.length[ru]!, rs.seq[ru]!)) return false;
    if (rules === null || rules.servesRange(ru, rv, j + 1, rs.length[rv]!, rs.seq[rv]!)) {
      if (this.priced(ru, rv, this.tails.straight(ru, i, rv, j)) && this.confirmStraight(ru, i, rv, j)) return true;
    }
    if (rules !== null && !rules.servesRange(ru, rv, 1, j, rs.seq[rv]!)) return false;
    return this.priced(ru, rv, this.tails.reversed(ru, i, rv, j)) && this.confirmReversed(ru, i, rv, j);
  }

  /** Applies the move the last `evaluate` found improving. */
  apply(): void {
    this.ls.commitPair(this.ru, this.rv);
  }

  /**
   * Both variants when every route starts and ends at one depot and no rule limits who serves
   * what: distances from the routes' prefix sums (a tail ends where the other route's did, a
   * reversed head at the depot it started from), loads and service read only for a candidate
   * that passes the distance bound.
   */
  private oneDepotVariants(ru: number, i: number, rv: number, j: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const n = rs.m.nodeCount;
    const seqU = rs.seq[ru]!;
    const seqV = rs.seq[rv]!;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const fwdU = rs.fwd[ru]!;
    const fwdV = rs.fwd[rv]!;
    // Each part on the distances of the vehicle that drives it now (one matrix unless profiles have their own).
    const dU = rs.slotMatrix[ru]!;
    const dV = rs.slotMatrix[rv]!;
    const vOnU = rs.fwdBy ? rs.fwdOn(rv, ru) : fwdV;
    const uOnV = rs.fwdBy ? rs.fwdOn(ru, rv) : fwdU;
    // On one matrix a route's whole length is its total, read from the totals (one small array
    // that stays cached) rather than from the far end of its prefix sums: the same number.
    const vWhole = rs.fwdBy ? vOnU[lenV + 1]! : rs.totalDistance[rv]!;
    const uWhole = rs.fwdBy ? uOnV[lenU + 1]! : rs.totalDistance[ru]!;
    const u = seqU[i]!;
    const x = seqU[i + 1]!;
    const v = seqV[j]!;
    const y = seqV[j + 1]!;
    const headU = fwdU[i]!;
    let distA = headU + dU[u * n + y]! + vWhole - vOnU[j + 1]!;
    let distB = fwdV[j]! + dV[rs.symmetric ? x * n + v : v * n + x]! + uWhole - uOnV[i + 1]!;
    if (ls.pairMayImprove(ru, i + lenV - j, distA, rv, j + lenU - i, distB)) {
      const ldU = rs.load[ru]!;
      const ldV = rs.load[rv]!;
      const svU = rs.serv[ru]!;
      const svV = rs.serv[rv]!;
      if (
        ls.pairImproves(
          ldU[i]! + rs.totalLoad[rv]! - ldV[j]!,
          svU[i]! + rs.totalService[rv]! - svV[j]!,
          ldV[j]! + rs.totalLoad[ru]! - ldU[i]!,
          svV[j]! + rs.totalService[ru]! - svU[i]!,
        ) &&
        this.confirmStraight(ru, i, rv, j)
      )
        return true;
    }
    const uBack = rs.bwdBy ? rs.bwdOn(ru, rv) : rs.bwd[ru]!;
    distA = headU + dU[u * n + v]! + (rs.bwdBy ? rs.bwdOn(rv, ru) : rs.bwd[rv]!)[j]!;
    distB = uBack[lenU + 1]! - uBack[i + 1]! + dV[x * n + y]! + rs.totalDistance[rv]! - fwdV[j + 1]!;
    if (!ls.pairMayImprove(ru, i + j, distA, rv, lenU - i + lenV - j, distB)) return false;
    const ldU = rs.load[ru]!;
    const ldV = rs.load[rv]!;
    const svU = rs.serv[ru]!;
    const svV = rs.serv[rv]!;
    return (
      ls.pairImproves(
        ldU[i]! + ldV[j]!,
        svU[i]! + svV[j]!,
        rs.totalLoad[ru]! - ldU[i]! + rs.totalLoad[rv]! - ldV[j]!,
        rs.totalService[ru]! - svU[i]! + rs.totalService[rv]! - svV[j]!,
      ) && this.confirmReversed(ru, i, rv, j)
    );
  }

  /** Bounds and prices a candidate pair whose totals are in `t` (tail-prices.ts's layout). */
  private priced(ru: number, rv: number, t: Float64Array): boolean {
    return this.ls.pairMayImprove(ru, t[2]!, t[0]!, rv, t[5]!, t[3]!) && this.ls.pairImproves(t[1]!, t[6]!, t[4]!, t[7]!);
  }

  private confirmStraight(ru: number, i: number, rv: number, j: number): boolean {
    const rs = this.ls.rs;
    this.ls.a
      .reset()
      .add(ru, 1, i)
      .add(rv, j + 1, rs.length[rv]!);
    this.ls.b
      .reset()
      .add(rv, 1, j)
      .add(ru, i + 1, rs.length[ru]!);
    return this.ls.confirmPair(ru, rv);
  }

  private confirmReversed(ru: number, i: number, rv: number, j: number): boolean {
    const rs = this.ls.rs;
    this.ls.a.reset().add(ru, 1, i).add(rv, 1, j, true);
    this.ls.b
      .reset()
      .add(ru, i + 1, rs.length[ru]!, true)
      .add(rv, j + 1, rs.length[rv]!);
    return this.ls.confirmPair(ru, rv);
  }
}

/** Whether every route of the store starts and ends at one node. */
function sharesOneDepot(rs: Routes): boolean {
  const m = rs.m;
  const depot = m.start[0]!;
  for (let r = 0; r < m.routes; r++) if (m.start[r] !== depot || m.end[r] !== depot) return false;
  return true;
}
