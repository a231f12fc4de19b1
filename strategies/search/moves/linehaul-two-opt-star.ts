import type { PerVehiclePricing } from "../pricing/per-vehicle.js";

/**
 * 2-opt* for backhauls, between the delivery parts of two routes: delivery u (position i of ru)
 * continues with v's delivery tail (after position j of rv), and the other way round, while each
 * route keeps its own pickup part (plain 2-opt* would hand over the pickup parts with the tails).
 * Both variants, straight and with the heads' tails reversed. Priced exactly on both vehicles
 * (routes.ts); `ls.before` set by the caller. Returns whether it applied the move.
 */
export function linehaulTwoOptStar(ls: PerVehiclePricing, ru: number, i: number, rv: number, j: number): boolean {
  const rs = ls.rs;
  const ends = rs.loads!.order!.deliveriesEnd;
  const endU = ends[ru]!;
  const endV = ends[rv]!;
  if (i > endU || j > endV) return false;
  const lenU = rs.length[ru]!;
  const lenV = rs.length[rv]!;
  const a = ls.a;
  const b = ls.b;
  a.reset()
    .add(ru, 1, i)
    .add(rv, j + 1, endV)
    .add(ru, endU + 1, lenU);
  b.reset()
    .add(rv, 1, j)
    .add(ru, i + 1, endU)
    .add(rv, endV + 1, lenV);
  if (mayPay(ls, ru, rv) && ls.tryPair(ru, rv)) return true;
  a.reset()
    .add(ru, 1, i)
    .add(rv, 1, j, true)
    .add(ru, endU + 1, lenU);
  b.reset()
    .add(ru, i + 1, endU, true)
    .add(rv, j + 1, lenV);
  return mayPay(ls, ru, rv) && ls.tryPair(ru, rv);
}

/** Fixed and distance cost of candidates `a` (on ru) and `b` (on rv), a lower bound of their price, below the routes' cost now. */
function mayPay(ls: PerVehiclePricing, ru: number, rv: number): boolean {
  const rs = ls.rs;
  const m = rs.m;
  const costA = ls.a.size > 0 ? m.fixedCost[ru]! + m.unitCost[ru]! * rs.candidates.distanceOf(ru, ls.a) : 0;
  const costB = ls.b.size > 0 ? m.fixedCost[rv]! + m.unitCost[rv]! * rs.candidates.distanceOf(rv, ls.b) : 0;
  return costA + costB < ls.before - 1e-7;
}

/**
 * The mirror image for the pickup parts: pickup u (position i of ru) and pickup v (position j
 * of rv, or j = rv's last delivery: before its first pickup) exchange the heads of their pickup
 * parts, each route keeping its delivery part and its pickup tail (plain 2-opt* exchanges tails).
 */
export function backhaulHeadExchange(ls: PerVehiclePricing, ru: number, i: number, rv: number, j: number): boolean {
  const rs = ls.rs;
  const ends = rs.loads!.order!.deliveriesEnd;
  const endU = ends[ru]!;
  const endV = ends[rv]!;
  if (i <= endU || j < endV) return false;
  ls.a
    .reset()
    .add(ru, 1, endU)
    .add(rv, endV + 1, j)
    .add(ru, i + 1, rs.length[ru]!);
  ls.b
    .reset()
    .add(rv, 1, endV)
    .add(ru, endU + 1, i)
    .add(rv, j + 1, rs.length[rv]!);
  return mayPay(ls, ru, rv) && ls.tryPair(ru, rv);
}
