import type { PerVehiclePricing } from "../pricing/per-vehicle.js";

const EPS = 1e-7;
/** The price of the last route left behind, kept while that route is unchanged (one pickup is tried against many routes). */
let cachedRoutes: object | null = null;
let cachedLoadPrice = Number.NaN;
let cachedWarpPrice = Number.NaN;
let cachedDurationPrice = Number.NaN;
let cachedPickup = -1;
let cachedClock = -1;
let cachedLeft = 0;

/**
 * Relocate of a whole shipment (constraints.md `shipments`): its pickup and delivery leave their
 * route together and enter route rv at their cheapest places, pickup first (pair-insertion.ts).
 * The route left behind is priced as three pieces, the receiving one exactly on its vehicle, so
 * the move is priced as the evaluator prices the two routes. `pickup` must be a shipment's
 * pickup; rv must differ from its route. With `near` (a customer on rv, a granular neighbour of
 * one of the two stops) that stop goes next to it, just before or after, and the other anywhere
 * on its side: the pickup next to a neighbour of the pickup and the delivery anywhere after, or
 * (`nearDelivery`) the delivery next to a neighbour of the delivery and the pickup anywhere
 * before. Returns whether it applied the move.
 */
export function pairRelocate(ls: PerVehiclePricing, pickup: number, rv: number, near = -1, nearDelivery = false): boolean {
  const rs = ls.rs;
  const delivery = rs.m.order!.partner![pickup]!;
  const ru = rs.routeOf[pickup]!;
  if (ru < 0 || ru === rv || rs.routeOf[delivery] !== ru) return false;
  const before = rs.cost[ru]! + rs.cost[rv]!;
  const lenU = rs.length[ru]!;
  const i = rs.pos[pickup]!;
  const j = rs.pos[delivery]!;
  const a = ls.a
    .reset()
    .add(ru, 1, i - 1)
    .add(ru, i + 1, j - 1)
    .add(ru, j + 1, lenU);
  const pen = rs.penalties;
  // Compared as numbers: formatting them into a key cost more than the rest of a rejected move.
  const samePrices = cachedLoadPrice === pen.load && cachedWarpPrice === pen.timeWarp && cachedDurationPrice === pen.duration;
  if (cachedPickup !== pickup || cachedClock !== rs.modifiedAt[ru] || cachedRoutes !== rs || !samePrices) {
    cachedRoutes = rs;
    cachedLoadPrice = pen.load;
    cachedWarpPrice = pen.timeWarp;
    cachedDurationPrice = pen.duration;
    cachedPickup = pickup;
    cachedClock = rs.modifiedAt[ru]!;
    cachedLeft = rs.candidates.price(ru, a, true);
  }
  const left = cachedLeft;
  if (left >= before - EPS) return false;
  const pair = ls.pairInsertion;
  // Granular: next to `near` (a neighbour on rv), the stop it neighbours just before or after it; else anywhere.
  const at = near >= 0 ? rs.pos[near]! : -1;
  const limit = before - left - EPS;
  let after: number;
  if (near < 0) after = pair.best(rv, pickup, delivery, limit);
  else if (nearDelivery) after = pair.best(rv, pickup, delivery, limit, 0, Number.MAX_SAFE_INTEGER, at - 1, at);
  else after = pair.best(rv, pickup, delivery, limit, at - 1, at);
  if (after === Number.POSITIVE_INFINITY) return false;
  const placed = pair.place(rv, pickup, delivery, pair.i, pair.j);
  let predicted = left + after;
  const balance = rs.balance;
  if (balance) {
    // Chosen without the balance term: its change is priced before the move is applied.
    predicted += balance.delta(ru, balance.workloadOf(ru, a), rv, balance.workloadOf(rv, placed));
    if (predicted >= before - EPS) return false;
  }
  const countB = rs.candidates.write(placed, ls.outB);
  const countA = rs.candidates.write(a, ls.outA);
  ls.predicted = predicted;
  rs.setRoute(ru, ls.outA, countA);
  rs.setRoute(rv, ls.outB, countB);
  ls.onCommit?.(ls.predicted, ru, rv);
  return true;
}
