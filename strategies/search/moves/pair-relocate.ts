import type { GeneralMovePricing } from "../general/move-pricing.js";

const EPS = 1e-7;
/** The price of the last route left behind, kept while that route is unchanged (one pickup is tried against many routes). */
let cachedRoutes: object | null = null;
let cachedPrices = "";
let cachedPickup = -1;
let cachedClock = -1;
let cachedLeft = 0;

/**
 * Relocate of a whole shipment (constraints.md `shipments`): its pickup and delivery leave their
 * route together and enter route rv at their cheapest places, pickup first (pair-insertion.ts).
 * The route left behind is priced as three pieces, the receiving one exactly on its vehicle, so
 * the move is priced as the evaluator prices the two routes. `pickup` must be a shipment's
 * pickup; rv must differ from its route. With `near` (a customer on rv) the pickup goes next to
 * it (the granular neighbourhood), the delivery anywhere after. Returns whether it applied the move.
 */
export function pairRelocate(ls: GeneralMovePricing, pickup: number, rv: number, near = -1): boolean {
  const rs = ls.rs;
  const delivery = rs.m.order!.partner![pickup]!;
  const ru = rs.routeOf[pickup]!;
  if (ru < 0 || ru === rv || rs.routeOf[delivery] !== ru) return false;
  const before = rs.cost[ru]! + rs.cost[rv]!;
  const lenU = rs.length[ru]!;
  const i = rs.pos[pickup]!;
  const j = rs.pos[delivery]!;
  const a = ls.a.reset().add(ru, 1, i - 1).add(ru, i + 1, j - 1).add(ru, j + 1, lenU);
  const pen = rs.penalties;
  const prices = `${pen.load}|${pen.timeWarp}|${pen.duration}`;
  if (cachedPickup !== pickup || cachedClock !== rs.modifiedAt[ru] || cachedRoutes !== rs || cachedPrices !== prices) {
    cachedRoutes = rs;
    cachedPrices = prices;
    cachedPickup = pickup;
    cachedClock = rs.modifiedAt[ru]!;
    cachedLeft = rs.price(ru, a, true);
  }
  const left = cachedLeft;
  if (left >= before - EPS) return false;
  const pair = ls.pairInsertion;
  // Granular: next to `near` (a neighbour on rv), the pickup just before or after it; else anywhere.
  const at = near >= 0 ? rs.pos[near]! : -1;
  const after = near >= 0 ? pair.best(rv, pickup, delivery, before - left - EPS, at - 1, at) : pair.best(rv, pickup, delivery, before - left - EPS);
  if (after === Number.POSITIVE_INFINITY) return false;
  const countB = rs.write(pair.place(rv, pickup, delivery, pair.i, pair.j), ls.outB);
  const countA = rs.write(a, ls.outA);
  ls.predicted = left + after;
  rs.setRoute(ru, ls.outA, countA);
  rs.setRoute(rv, ls.outB, countB);
  ls.onCommit?.(ls.predicted, ru, rv);
  return true;
}
