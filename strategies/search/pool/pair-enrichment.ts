import { PairInsertion } from "../pair-insertion.js";
import type { Routes } from "../routes.js";
import { Cheapest, STRICT } from "./cheapest.js";
import { isFeasible, type RoutePool } from "./route-pool.js";

/** Per route, this many of the cheapest shipment insertions are tried for feasibility and pooled. */
const PER_ROUTE = 8;

/**
 * Adds to the pool, for each route of `routes`, the route with one more shipment inserted at its
 * cheapest feasible places, for the PER_ROUTE shipments that cost it least. Set partitioning then
 * can move a pair from one route of the best solution into another while the other routes are
 * rebuilt from other local optima: on Li and Lim's lrc1_4_1 the best known distance needs exactly
 * such a route (a route of the best solution with one more pair at its head), which the search
 * never produced. Every shipment is priced against every route,
 * not only the granular neighbours: that pair is in none of the route's neighbour lists, as its
 * windows are far from the route's.
 *
 * `scratch` is a route model of the same fleet that this function may overwrite.
 */
export function addPairInsertions(pool: RoutePool, scratch: Routes, routes: readonly (readonly number[])[]): void {
  const m = scratch.m;
  const partner = m.order?.partner;
  if (!partner) return;
  const role = m.order!.role;
  scratch.penalties = STRICT;
  scratch.loadRoutes(routes);
  const insertion = new PairInsertion(scratch);
  const pickups = m.customers.filter((c) => role[c]! > 0);
  const buffer = new Int32Array(m.nodeCount);
  // Which route holds each customer, from the lists themselves: the scratch model's own record
  // is overwritten below (and by other users of the scratchpad).
  const owner = new Int32Array(m.nodeCount).fill(-1);
  routes.forEach((route, r) => route.forEach((c) => (owner[c] = r)));
  const cheapest = new Cheapest(PER_ROUTE);
  // Where the pricing put each offered shipment (pair-insertion.ts `i`, `j`), to build it from.
  const placeI = new Int32Array(m.nodeCount);
  const placeJ = new Int32Array(m.nodeCount);
  for (let r = 0; r < m.routes; r++) {
    const len = scratch.length[r]!;
    if (len === 0) continue;
    const old = Int32Array.from(scratch.seq[r]!.subarray(1, len + 1));
    cheapest.clear();
    for (const pickup of pickups) {
      if (owner[pickup] === r) continue;
      const price = insertion.best(r, pickup, partner[pickup]!, cheapest.limit());
      if (insertion.i < 0 || price >= cheapest.limit()) continue;
      cheapest.offer(price, pickup);
      placeI[pickup] = insertion.i;
      placeJ[pickup] = insertion.j;
    }
    for (let k = 0; k < cheapest.count; k++) {
      const pickup = cheapest.items[k]!;
      const count = scratch.candidates.write(insertion.place(r, pickup, partner[pickup]!, placeI[pickup]!, placeJ[pickup]!), buffer);
      scratch.setRoute(r, buffer, count, false);
      if (isFeasible(scratch, r)) pool.add(pool.groups.of[r]!, buffer.subarray(0, count), scratch.objective[r]!);
      scratch.setRoute(r, old, len, false);
    }
  }
}
