import type { Routes } from "../routes.js";
import type { MovePricing, PairOperator } from "./operator.js";
import { TailPrices } from "./tail-prices.js";

/**
 * 2-opt* between two routes, cut after u (position i of ru) and after v (position j of rv; 0:
 * the start): straight, u continues with v's tail and v with u's tail; reversed, u continues
 * with v's head backwards and u's tail, backwards, precedes v's tail. Each route keeps its
 * vehicle (start and end node). Both variants are priced in O(1) from the prefix sums; when every
 * route starts and ends at one depot the routes' totals give the candidates' directly, else
 * tail-prices.ts joins each part to its new route's own ends. `evaluate` keeps the first variant
 * that improves for `apply`.
 */
export class TwoOptStar implements PairOperator {
  private ru = -1;
  private rv = -1;
  private readonly tails: TailPrices;
  /** Every route starts and ends at the same node. */
  private readonly oneDepot: boolean;

  constructor(private readonly ls: MovePricing) {
    this.tails = new TailPrices(ls.rs);
    this.oneDepot = sharesOneDepot(ls.rs);
  }

  /** Whether a variant improves; it is then held in the pricing's pieces for `apply`. */
  evaluate(ru: number, i: number, rv: number, j: number): boolean {
    const rs = this.ls.rs;
    this.ru = ru;
    this.rv = rv;
    // Skills: rv's vehicle takes u's tail either way; a refused tail is not priced (route-rules.ts).
    const rules = rs.rules;
    if (rules !== null && !rules.servesRange(rv, ru, i + 1, rs.length[ru]!, rs.seq[ru]!)) return false;
    if (rules === null || rules.servesRange(ru, rv, j + 1, rs.length[rv]!, rs.seq[rv]!)) {
      if (this.oneDepot ? this.straightOneDepot(ru, i, rv, j) : this.straight(ru, i, rv, j)) return true;
    }
    if (rules !== null && !rules.servesRange(ru, rv, 1, j, rs.seq[rv]!)) return false;
    return this.oneDepot ? this.reversedOneDepot(ru, i, rv, j) : this.reversed(ru, i, rv, j);
  }

  /** Applies the move the last `evaluate` found improving. */
  apply(): void {
    this.ls.commitPair(this.ru, this.rv);
  }

  /** The straight variant from the routes' totals (one depot: a tail ends where the other did). */
  private straightOneDepot(ru: number, i: number, rv: number, j: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const d = rs.m.dist;
    const n = rs.m.nodeCount;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const fwdU = rs.fwd[ru]!;
    const fwdV = rs.fwd[rv]!;
    const ldU = rs.load[ru]!;
    const ldV = rs.load[rv]!;
    const svU = rs.serv[ru]!;
    const svV = rs.serv[rv]!;
    const distU = fwdU[lenU + 1]!;
    const distV = fwdV[lenV + 1]!;
    const u = rs.seq[ru]![i]!;
    const x = rs.seq[ru]![i + 1]!;
    const v = rs.seq[rv]![j]!;
    const y = rs.seq[rv]![j + 1]!;
    const distA = fwdU[i]! + d[u * n + y]! + distV - fwdV[j + 1]!;
    const distB = fwdV[j]! + d[v * n + x]! + distU - fwdU[i + 1]!;
    const loadA = ldU[i]! + ldV[lenV + 1]! - ldV[j]!;
    const servA = svU[i]! + svV[lenV + 1]! - svV[j]!;
    const loadB = ldV[j]! + ldU[lenU + 1]! - ldU[i]!;
    const servB = svV[j]! + svU[lenU + 1]! - svU[i]!;
    if (!ls.pairImproves(ru, i + lenV - j, distA, loadA, servA, rv, j + lenU - i, distB, loadB, servB)) return false;
    return this.confirmStraight(ru, i, lenU, rv, j, lenV);
  }

  /** The reversed variant from the routes' totals (one depot: the reversed head ends, and the reversed tail starts, at it). */
  private reversedOneDepot(ru: number, i: number, rv: number, j: number): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const d = rs.m.dist;
    const n = rs.m.nodeCount;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const fwdU = rs.fwd[ru]!;
    const fwdV = rs.fwd[rv]!;
    const bwdU = rs.bwd[ru]!;
    const bwdV = rs.bwd[rv]!;
    const ldU = rs.load[ru]!;
    const ldV = rs.load[rv]!;
    const svU = rs.serv[ru]!;
    const svV = rs.serv[rv]!;
    const distV = fwdV[lenV + 1]!;
    const u = rs.seq[ru]![i]!;
    const x = rs.seq[ru]![i + 1]!;
    const v = rs.seq[rv]![j]!;
    const y = rs.seq[rv]![j + 1]!;
    const distA = fwdU[i]! + d[u * n + v]! + bwdV[j]!;
    const distB = bwdU[lenU + 1]! - bwdU[i + 1]! + d[x * n + y]! + distV - fwdV[j + 1]!;
    const loadB = ldU[lenU + 1]! - ldU[i]! + ldV[lenV + 1]! - ldV[j]!;
    const servB = svU[lenU + 1]! - svU[i]! + svV[lenV + 1]! - svV[j]!;
    if (!ls.pairImproves(ru, i + j, distA, ldU[i]! + ldV[j]!, svU[i]! + svV[j]!, rv, lenU - i + lenV - j, distB, loadB, servB))
      return false;
    return this.confirmReversed(ru, i, lenU, rv, j, lenV);
  }

  /** The straight variant with each part joined to its new route's ends (tail-prices.ts). */
  private straight(ru: number, i: number, rv: number, j: number): boolean {
    const t = this.tails.straight(ru, i, rv, j);
    if (!this.ls.pairImproves(ru, t[2]!, t[0]!, t[1]!, t[6]!, rv, t[5]!, t[3]!, t[4]!, t[7]!)) return false;
    return this.confirmStraight(ru, i, this.ls.rs.length[ru]!, rv, j, this.ls.rs.length[rv]!);
  }

  /** The reversed variant with each part joined to its new route's ends (tail-prices.ts). */
  private reversed(ru: number, i: number, rv: number, j: number): boolean {
    const t = this.tails.reversed(ru, i, rv, j);
    if (!this.ls.pairImproves(ru, t[2]!, t[0]!, t[1]!, t[6]!, rv, t[5]!, t[3]!, t[4]!, t[7]!)) return false;
    return this.confirmReversed(ru, i, this.ls.rs.length[ru]!, rv, j, this.ls.rs.length[rv]!);
  }

  private confirmStraight(ru: number, i: number, lenU: number, rv: number, j: number, lenV: number): boolean {
    this.ls.a
      .reset()
      .add(ru, 1, i)
      .add(rv, j + 1, lenV);
    this.ls.b
      .reset()
      .add(rv, 1, j)
      .add(ru, i + 1, lenU);
    return this.ls.confirmPair(ru, rv);
  }

  private confirmReversed(ru: number, i: number, lenU: number, rv: number, j: number, lenV: number): boolean {
    this.ls.a.reset().add(ru, 1, i).add(rv, 1, j, true);
    this.ls.b
      .reset()
      .add(ru, i + 1, lenU, true)
      .add(rv, j + 1, lenV);
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
