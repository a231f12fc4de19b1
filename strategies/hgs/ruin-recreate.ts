import type { Rng } from "../core/rng.js";
import type { GeneralLocalSearch } from "./general-search.js";
import { Pieces } from "./pieces.js";
import type { RouteSet } from "./route-set.js";

const pieces = new Pieces();
const ROUTE_RUIN_PROBABILITY = 0.1;

/** Rewrites every route that lost customers, without them. */
function dropFrom(rs: RouteSet, removed: readonly number[]): void {
  const gone = new Set(removed);
  const touched = new Set<number>();
  for (const c of removed) if (rs.routeOf[c]! >= 0) touched.add(rs.routeOf[c]!);
  for (const r of touched) {
    const kept = Array.from(rs.seq[r]!.subarray(1, rs.length[r]! + 1)).filter((c) => !gone.has(c));
    rs.setRoute(r, kept, kept.length);
  }
}

/**
 * The perturbation of the iterated local search: removes about `size` customers that lie close
 * together (a random customer and, breadth first, its nearest neighbours), or now and then one
 * whole route (so that a vehicle, and its fixed cost, can go). Returns the removed customers.
 */
export function ruin(rs: RouteSet, rng: Rng, size: number): number[] {
  const m = rs.m;
  const customers = m.customers;
  if (rng.next() < ROUTE_RUIN_PROBABILITY) {
    const used: number[] = [];
    for (let r = 0; r < m.routes; r++) if (rs.length[r]! > 0) used.push(r);
    if (used.length > 1) {
      const r = used[rng.int(used.length)]!;
      const removed = Array.from(rs.seq[r]!.subarray(1, rs.length[r]! + 1));
      dropFrom(rs, removed);
      return removed;
    }
  }
  const target = Math.min(size, customers.length);
  const picked = new Set<number>();
  const queue = [customers[rng.int(customers.length)]!];
  while (picked.size < target) {
    const c = queue.shift();
    if (c === undefined) {
      queue.push(customers[rng.int(customers.length)]!);
      continue;
    }
    if (picked.has(c)) continue;
    picked.add(c);
    for (const w of m.neighbours[c]!) if (!picked.has(w) && rng.next() < 0.7) queue.push(w);
  }
  const removed = [...picked];
  dropFrom(rs, removed);
  return removed;
}

/** Cost change of inserting `c` into route r after position j (0: first). */
function insertionDelta(rs: RouteSet, c: number, r: number, j: number): number {
  pieces.reset().add(r, 1, j).node(c).add(r, j + 1, rs.length[r]!);
  return rs.price(r, pieces) - rs.cost[r]!;
}

/**
 * Greedy reinsertion in random order, each customer at its cheapest penalised position next to
 * one of its granular neighbours, or alone on a free vehicle of some type; when none of these
 * exists, every position of every used route is tried.
 */
export function recreate(ls: GeneralLocalSearch, rng: Rng, removed: number[]): void {
  const rs = ls.rs;
  const m = rs.m;
  rng.shuffle(removed);
  for (const c of removed) {
    let bestDelta = Number.POSITIVE_INFINITY;
    let bestRoute = -1;
    let bestAfter = 0;
    const consider = (r: number, j: number) => {
      const delta = insertionDelta(rs, c, r, j);
      if (delta < bestDelta) {
        bestDelta = delta;
        bestRoute = r;
        bestAfter = j;
      }
    };
    for (const w of m.neighbours[c]!) {
      const r = rs.routeOf[w]!;
      if (r < 0) continue;
      consider(r, rs.pos[w]! - 1);
      consider(r, rs.pos[w]!);
    }
    for (let type = 0; type < m.typeSlots.length; type++) {
      const free = ls.emptyOfType(type, -1);
      if (free >= 0) consider(free, 0);
    }
    if (bestRoute < 0) {
      for (let r = 0; r < m.routes; r++) for (let j = 0; j <= rs.length[r]!; j++) if (rs.length[r]! > 0) consider(r, j);
    }
    pieces.reset().add(bestRoute, 1, bestAfter).node(c).add(bestRoute, bestAfter + 1, rs.length[bestRoute]!);
    const out = new Int32Array(pieces.size);
    const count = rs.write(pieces, out);
    rs.setRoute(bestRoute, out, count);
  }
}
