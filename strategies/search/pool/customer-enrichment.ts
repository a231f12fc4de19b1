import { Pieces } from "../pieces.js";
import type { Routes } from "../routes.js";
import { Cheapest, STRICT } from "./cheapest.js";
import { isFeasible, type RoutePool } from "./route-pool.js";

/** Per route, this many of the cheapest single-customer insertions are tried for feasibility and pooled. */
const PER_ROUTE = 8;

/**
 * Adds to the pool, for each route of `routes` (one list per vehicle), the route with one more
 * customer inserted at its cheapest feasible place on that route's own vehicle, for the PER_ROUTE
 * customers that cost it least: the single-customer counterpart of pair-enrichment.ts, so that set
 * partitioning can move a customer from one route of the best solution into another (or serve an
 * unserved optional one) while the other routes come from other local optima. Customers of a
 * shipment are left to pair-enrichment.ts (alone they would break their pair); customers the
 * vehicle may not serve (skills) are priced Infinity by the route model and never pooled.
 *
 * Every customer is priced against every route, not only the granular neighbours; each place is
 * first bounded by the vehicle's fixed and distance cost, so most are refused in O(1).
 * `scratch` is a route model of the same fleet that this function may overwrite.
 */
export function addCustomerInsertions(pool: RoutePool, scratch: Routes, routes: readonly (readonly number[])[]): void {
  const m = scratch.m;
  const partner = m.order?.partner ?? null;
  const loose = m.customers.filter((c) => partner === null || partner[c]! < 0);
  if (loose.length === 0) return;
  scratch.penalties = STRICT;
  scratch.loadRoutes(routes);
  const owner = new Int32Array(m.nodeCount).fill(-1);
  routes.forEach((route, r) => route.forEach((c) => (owner[c] = r)));
  const pieces = new Pieces();
  const cheapest = new Cheapest(PER_ROUTE);
  const place = new Int32Array(m.nodeCount);
  const buffer = new Int32Array(m.nodeCount);
  const n = m.nodeCount;
  for (let r = 0; r < m.routes; r++) {
    const len = scratch.length[r]!;
    if (len === 0) continue;
    const d = scratch.slotMatrix[r]!;
    const seq = scratch.seq[r]!;
    const base = scratch.fwd[r]![len + 1]!;
    const fixed = m.fixedCost[r]!;
    const unit = m.unitCost[r]!;
    cheapest.clear();
    for (const c of loose) {
      if (owner[c] === r) continue;
      let limit = cheapest.limit();
      let at = -1;
      for (let j = 0; j <= len; j++) {
        const a = seq[j]!;
        const b = seq[j + 1]!;
        if (fixed + unit * (base + d[a * n + c]! + d[c * n + b]! - d[a * n + b]!) >= limit) continue;
        const price = scratch.candidates.price(
          r,
          pieces
            .reset()
            .add(r, 1, j)
            .node(c)
            .add(r, j + 1, len),
        );
        if (price >= limit) continue;
        limit = price;
        at = j;
      }
      if (at < 0) continue;
      cheapest.offer(limit, c);
      place[c] = at;
    }
    const old = Int32Array.from(seq.subarray(1, len + 1));
    for (let k = 0; k < cheapest.count; k++) {
      const c = cheapest.items[k]!;
      const j = place[c]!;
      buffer.set(old.subarray(0, j), 0);
      buffer[j] = c;
      buffer.set(old.subarray(j), j + 1);
      scratch.setRoute(r, buffer, len + 1, false);
      if (isFeasible(scratch, r)) pool.add(pool.groups.of[r]!, buffer.subarray(0, len + 1), scratch.objective[r]!);
      scratch.setRoute(r, old, len, false);
    }
  }
}
