import type { GeneralMovePricing } from "../general/move-pricing.js";

const EPS = 1e-7;

/**
 * Moves for customers that may stay unserved (optional stops with a skip penalty, and required
 * ones when unassigned nodes are allowed; fleet-rules.ts skipPrice), as PyVRP's local search
 * treats optional clients with prizes: remove a served one when its route saves more than its
 * price, insert an unserved one where it costs less than its price (next to one of its granular
 * neighbours, or alone on an empty vehicle of some type), or let it take a served neighbour's
 * place when the exchange pays. Every candidate route is priced exactly on its vehicle by the
 * route model (routes.ts); `onCommit` reports the route's predicted price as the other moves do.
 */

/** Removes served customer u when that saves more than its skip price. */
export function removeOptional(ls: GeneralMovePricing, u: number): boolean {
  const rs = ls.rs;
  const skip = rs.m.rules!.skipPrice[u]!;
  if (skip === Number.POSITIVE_INFINITY) return false;
  const r = rs.routeOf[u]!;
  const i = rs.pos[u]!;
  const a = ls.a
    .reset()
    .add(r, 1, i - 1)
    .add(r, i + 1, rs.length[r]!);
  const after = rs.price(r, a);
  if (after + skip >= rs.cost[r]! - EPS) return false;
  commit(ls, r, after);
  return true;
}

/** Serves unserved customer u at its cheapest place when that costs less than its skip price, or in a served neighbour's place. */
export function insertUnserved(ls: GeneralMovePricing, u: number): boolean {
  const rs = ls.rs;
  const m = rs.m;
  const skipPrice = m.rules!.skipPrice;
  const skip = skipPrice[u]!;
  let bestGain = EPS;
  let bestRoute = -1;
  let bestFrom = 0;
  let bestTo = 0;
  const a = ls.a;
  // Positions from..to of route r are replaced by u: (from, from - 1) inserts after from - 1.
  const consider = (r: number, from: number, to: number, freed: number) => {
    a.reset()
      .add(r, 1, from - 1)
      .node(u)
      .add(r, to + 1, rs.length[r]!);
    const gain = skip + freed - (rs.price(r, a) - rs.cost[r]!);
    if (gain > bestGain) {
      bestGain = gain;
      bestRoute = r;
      bestFrom = from;
      bestTo = to;
    }
  };
  const near = m.neighbours[u]!;
  for (let k = 0; k < near.length; k++) {
    const w = near[k]!;
    const r = rs.routeOf[w]!;
    if (r < 0) continue;
    const j = rs.pos[w]!;
    consider(r, j, j - 1, 0);
    consider(r, j + 1, j, 0);
    const freed = skipPrice[w]!;
    if (freed !== Number.POSITIVE_INFINITY) consider(r, j, j, -freed);
  }
  for (let type = 0; type < m.typeSlots.length; type++) {
    const empty = ls.emptyOfType(type, -1);
    if (empty >= 0) consider(empty, 1, 0, 0);
  }
  if (bestRoute < 0) return false;
  a.reset()
    .add(bestRoute, 1, bestFrom - 1)
    .node(u)
    .add(bestRoute, bestTo + 1, rs.length[bestRoute]!);
  commit(ls, bestRoute, rs.price(bestRoute, a));
  return true;
}

function commit(ls: GeneralMovePricing, r: number, predicted: number): void {
  const rs = ls.rs;
  ls.predicted = predicted;
  const count = rs.write(ls.a, ls.outA);
  rs.setRoute(r, ls.outA, count);
  ls.onCommit?.(predicted, r, -1);
}
