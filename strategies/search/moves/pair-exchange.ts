import type { PerVehiclePricing } from "../pricing/per-vehicle.js";

/**
 * Exchange of two shipments between routes: shipment (p1, d1) takes the places of (p2, d2) and
 * the other way round, so both routes keep their pairs whole and in order. Each new route is five
 * pieces of the current ones, priced exactly on its vehicle (routes.ts). p1 and p2 are pickups on
 * different routes. Returns whether it applied the move.
 */
export function pairExchange(ls: PerVehiclePricing, p1: number, p2: number): boolean {
  const rs = ls.rs;
  const partner = rs.m.order!.partner!;
  const d1 = partner[p1]!;
  const d2 = partner[p2]!;
  const ru = rs.routeOf[p1]!;
  const rv = rs.routeOf[p2]!;
  if (ru < 0 || rv < 0 || ru === rv || rs.routeOf[d1] !== ru || rs.routeOf[d2] !== rv) return false;
  const i1 = rs.pos[p1]!;
  const j1 = rs.pos[d1]!;
  const i2 = rs.pos[p2]!;
  const j2 = rs.pos[d2]!;
  const before = rs.cost[ru]! + rs.cost[rv]!;
  // Distance alone first, in O(1): most exchanges fail it, and the pieces' walks cost more.
  const m = rs.m;
  const lenU = rs.length[ru]!;
  const lenV = rs.length[rv]!;
  const travelU =
    m.fixedCost[ru]! + m.unitCost[ru]! * (rs.fwd[ru]![lenU + 1]! + swapDelta(rs.seq[ru]!, i1, j1, p2, d2, rs.slotMatrix[ru]!, m.nodeCount));
  const travelV =
    m.fixedCost[rv]! + m.unitCost[rv]! * (rs.fwd[rv]![lenV + 1]! + swapDelta(rs.seq[rv]!, i2, j2, p1, d1, rs.slotMatrix[rv]!, m.nodeCount));
  if (travelU + travelV >= before) return false;
  ls.a
    .reset()
    .add(ru, 1, i1 - 1)
    .node(p2)
    .add(ru, i1 + 1, j1 - 1)
    .node(d2)
    .add(ru, j1 + 1, lenU);
  ls.b
    .reset()
    .add(rv, 1, i2 - 1)
    .node(p1)
    .add(rv, i2 + 1, j2 - 1)
    .node(d1)
    .add(rv, j2 + 1, lenV);
  ls.before = before;
  // Each shipment takes the other's two places, pickup's for pickup: every pair stays whole and in order.
  return ls.tryPair(ru, rv, true);
}

/** Distance change of a route whose stops at positions i < j are replaced by p and q (positions 0 and length + 1: its ends). */
function swapDelta(seq: Int32Array, i: number, j: number, p: number, q: number, d: Float64Array, n: number): number {
  const a = seq[i - 1]!;
  const x = seq[i]!;
  const b = seq[i + 1]!;
  const y = seq[j]!;
  const e = seq[j + 1]!;
  if (j === i + 1) return d[a * n + p]! + d[p * n + q]! + d[q * n + e]! - d[a * n + x]! - d[x * n + y]! - d[y * n + e]!;
  const c = seq[j - 1]!;
  return d[a * n + p]! + d[p * n + b]! - d[a * n + x]! - d[x * n + b]! + d[c * n + q]! + d[q * n + e]! - d[c * n + y]! - d[y * n + e]!;
}
