import type { GeneralMovePricing } from "../general/move-pricing.js";

/**
 * Exchange of two shipments between routes: shipment (p1, d1) takes the places of (p2, d2) and
 * the other way round, so both routes keep their pairs whole and in order. Each new route is five
 * pieces of the current ones, priced exactly on its vehicle (routes.ts). p1 and p2 are pickups on
 * different routes. Returns whether it applied the move.
 */
export function pairExchange(ls: GeneralMovePricing, p1: number, p2: number): boolean {
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
  ls.a.reset().add(ru, 1, i1 - 1).node(p2).add(ru, i1 + 1, j1 - 1).node(d2).add(ru, j1 + 1, rs.length[ru]!);
  ls.b.reset().add(rv, 1, i2 - 1).node(p1).add(rv, i2 + 1, j2 - 1).node(d1).add(rv, j2 + 1, rs.length[rv]!);
  ls.before = rs.cost[ru]! + rs.cost[rv]!;
  // Each shipment takes the other's two places, pickup's for pickup: every pair stays whole and in order.
  return ls.tryPair(ru, rv, true);
}
