import type { PerVehiclePricing } from "../search/pricing/per-vehicle.js";

/**
 * The routes a shipment is first tried in, into `into` (cleared first), in this order: those of
 * its pickup's granular neighbours, of its delivery's, then one free vehicle of each type (unless
 * `openVehicles` is false: a route elimination, where the used routes must take everything).
 */
function nearRoutes(ls: PerVehiclePricing, pickup: number, delivery: number, into: Set<number>, openVehicles: boolean): Set<number> {
  const rs = ls.rs;
  const m = rs.m;
  into.clear();
  for (const w of m.neighbours[pickup]!) if (rs.routeOf[w]! >= 0) into.add(rs.routeOf[w]!);
  for (const w of m.neighbours[delivery]!) if (rs.routeOf[w]! >= 0) into.add(rs.routeOf[w]!);
  if (!openVehicles) return into;
  for (let type = 0; type < m.typeSlots.length; type++) {
    const free = ls.emptyOfType(type, -1);
    if (free >= 0) into.add(free);
  }
  return into;
}

/** Writes route r with the pickup after its position i and the delivery after position j (pair-insertion.ts `place`). */
function insertPair(ls: PerVehiclePricing, r: number, pickup: number, delivery: number, i: number, j: number): void {
  const rs = ls.rs;
  const out = new Int32Array(rs.length[r]! + 2);
  const count = rs.candidates.write(ls.pairInsertion.place(r, pickup, delivery, i, j), out);
  rs.setRoute(r, out, count);
}

/** Inserts shipment (pickup, delivery) at the cheapest places in its near routes (nearRoutes); where none takes it, anywhere. */
export function recreatePair(ls: PerVehiclePricing, pickup: number, delivery: number, openVehicles = true): void {
  const rs = ls.rs;
  const pair = ls.pairInsertion;
  let bestDelta = Number.POSITIVE_INFINITY;
  let bestRoute = -1;
  let bestI = 0;
  let bestJ = 0;
  const consider = (r: number) => {
    const price = pair.best(r, pickup, delivery, rs.cost[r]! + bestDelta);
    if (price - rs.cost[r]! < bestDelta) {
      bestDelta = price - rs.cost[r]!;
      bestRoute = r;
      bestI = pair.i;
      bestJ = pair.j;
    }
  };
  const near = nearRoutes(ls, pickup, delivery, new Set<number>(), openVehicles);
  for (const r of near) consider(r);
  if (bestRoute < 0) for (let r = 0; r < rs.m.routes; r++) if (!near.has(r) && (openVehicles || rs.length[r]! > 0)) consider(r);
  if (bestRoute >= 0) insertPair(ls, bestRoute, pickup, delivery, bestI, bestJ);
}

/**
 * Regret insertion of shipments (Ropke and Pisinger 2006, regret-2): each round, every shipment
 * still out is priced at its cheapest places in each candidate route (the routes of its two
 * stops' granular neighbours and one free vehicle of each type), and the one that would lose the
 * most by not getting its best route (second cheapest minus cheapest) goes in first. Greedy
 * insertion in a fixed order fills the easy places first and leaves the hard shipments (tight
 * windows at both ends) the leftovers; regret serves them while they still have a choice.
 * Prices are kept per (shipment, route) and only the route that changed is priced again.
 * `pickups` lists the shipments by their pickup; each goes in whole, pickup first.
 */
export function recreatePairsByRegret(ls: PerVehiclePricing, pickups: number[], openVehicles = true): void {
  const rs = ls.rs;
  const m = rs.m;
  const partner = m.order!.partner!;
  const pair = ls.pairInsertion;
  const pending = pickups.slice();
  /** Per pending shipment: route -> price change of inserting it there (Infinity: no place). */
  const deltas = pending.map(() => new Map<number, number>());
  const candidates = new Set<number>();
  while (pending.length > 0) {
    let chosen = -1;
    let chosenRegret = Number.NEGATIVE_INFINITY;
    let chosenRoute = -1;
    let chosenDelta = Number.POSITIVE_INFINITY;
    for (let k = 0; k < pending.length; k++) {
      const pickup = pending[k]!;
      const delivery = partner[pickup]!;
      const known = deltas[k]!;
      nearRoutes(ls, pickup, delivery, candidates, openVehicles);
      if (candidates.size === 0) for (let r = 0; r < m.routes; r++) if (openVehicles || rs.length[r]! > 0) candidates.add(r);
      let first = Number.POSITIVE_INFINITY;
      let second = Number.POSITIVE_INFINITY;
      let firstRoute = -1;
      for (const r of candidates) {
        let delta = known.get(r);
        if (delta === undefined) {
          delta = pair.best(r, pickup, delivery, Number.POSITIVE_INFINITY) - rs.cost[r]!;
          known.set(r, delta);
        }
        if (delta < first) {
          second = first;
          first = delta;
          firstRoute = r;
        } else if (delta < second) second = delta;
      }
      if (firstRoute < 0) continue;
      // A single candidate route: waiting may lose it, so such a shipment goes first.
      const regret = second === Number.POSITIVE_INFINITY ? Number.MAX_VALUE : second - first;
      // Ties (several with a single candidate route): the cheaper insertion first.
      if (regret > chosenRegret || (regret === chosenRegret && first < chosenDelta)) {
        chosen = k;
        chosenRegret = regret;
        chosenRoute = firstRoute;
        chosenDelta = first;
      }
    }
    if (chosen < 0) return;
    const pickup = pending[chosen]!;
    pair.best(chosenRoute, pickup, partner[pickup]!, Number.POSITIVE_INFINITY);
    insertPair(ls, chosenRoute, pickup, partner[pickup]!, pair.i, pair.j);
    pending.splice(chosen, 1);
    deltas.splice(chosen, 1);
    for (const known of deltas) known.delete(chosenRoute);
  }
}
