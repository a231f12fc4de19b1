import type { PerVehiclePricing } from "../pricing/per-vehicle.js";

const EPS = 1e-7;

/**
 * Serves unserved reload copy u (search/trip-copies.ts) at its best place in its own vehicle's
 * route, when that lowers the route's price: a new trip boundary. Only a route that is overloaded
 * or late can gain (a reload only adds driving otherwise), so others are not tried. Every place
 * between two of the route's stops is priced exactly by the route model, O(length) each.
 */
export function insertReload(ls: PerVehiclePricing, u: number, r: number): boolean {
  const rs = ls.rs;
  const len = rs.length[r]!;
  if (len < 2 || (rs.loadExcess[r]! <= 0 && rs.timeWarp[r]! <= 0 && rs.durationExcess[r]! <= 0)) return false;
  const a = ls.a;
  let best = rs.cost[r]! - EPS;
  let bestAt = -1;
  for (let j = 1; j < len; j++) {
    const price = rs.candidates.price(
      r,
      a
        .reset()
        .add(r, 1, j)
        .node(u)
        .add(r, j + 1, len),
    );
    if (price < best) {
      best = price;
      bestAt = j;
    }
  }
  if (bestAt < 0) return false;
  a.reset()
    .add(r, 1, bestAt)
    .node(u)
    .add(r, bestAt + 1, len);
  ls.predicted = best;
  const count = rs.candidates.write(a, ls.outA);
  rs.setRoute(r, ls.outA, count);
  ls.onCommit?.(best, r, -1);
  return true;
}

/**
 * Moves served reload copy u to its best place in its route (between two other stops), when that
 * lowers the route's price: where a trip ends decides both trips' loads and, with release times,
 * when the next one may leave. O(length) places, each priced exactly, O(length).
 */
export function moveReload(ls: PerVehiclePricing, u: number): boolean {
  const rs = ls.rs;
  const r = rs.routeOf[u]!;
  const len = rs.length[r]!;
  const i = rs.pos[u]!;
  if (len < 3) return false;
  const a = ls.a;
  let best = rs.cost[r]! - EPS;
  let bestAt = -1;
  // Place u after position j of the route without it (j = 1 .. len - 2 of the len - 1 others).
  const place = (j: number) =>
    j < i
      ? a
          .reset()
          .add(r, 1, j)
          .node(u)
          .add(r, j + 1, i - 1)
          .add(r, i + 1, len)
      : a
          .reset()
          .add(r, 1, i - 1)
          .add(r, i + 1, j + 1)
          .node(u)
          .add(r, j + 2, len);
  for (let j = 1; j < len - 1; j++) {
    if (j === i - 1) continue;
    const price = rs.candidates.price(r, place(j));
    if (price < best) {
      best = price;
      bestAt = j;
    }
  }
  if (bestAt < 0) return false;
  place(bestAt);
  ls.predicted = best;
  const count = rs.candidates.write(a, ls.outA);
  rs.setRoute(r, ls.outA, count);
  ls.onCommit?.(best, r, -1);
  return true;
}
