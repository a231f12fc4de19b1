import type { Rng } from "../core/rng.js";
import type { Routes } from "../search/routes.js";

/**
 * Relatedness weights of Ropke and Pisinger's Shaw removal for pickup and delivery (2006): the
 * distance between the two pickups plus the two deliveries, the difference of their service
 * times, and of their amounts (each normalised to [0, 1] first).
 */
const DISTANCE_WEIGHT = 9;
const TIME_WEIGHT = 3;
const LOAD_WEIGHT = 2;
/** Randomness of the pick: the rank taken is floor(y^p * candidates), y uniform (p = 6 in the paper). */
const DETERMINISM = 6;

/**
 * Shaw removal for shipments: a random shipment, then repeatedly the shipment most related to
 * one already removed (with a random rank drawn towards the most related), both stops of each.
 * Relatedness counts both ends together: two shipments whose pickups lie close but whose
 * deliveries lie far apart are unrelated, because freeing one does not make room for the other.
 * Nearby-customer removal takes the neighbours of one stop only, so a removed shipment's partner
 * is freed alone, among stops it cannot trade places with. Returns the removed stops (pickups and
 * deliveries, about `size` of them); plain customers are never taken here.
 */
export function removeRelatedPairs(rs: Routes, rng: Rng, size: number): number[] {
  const m = rs.m;
  const partner = m.order!.partner!;
  const role = m.order!.role;
  const pickups: number[] = [];
  for (const c of m.customers) if (role[c]! > 0 && rs.routeOf[c]! >= 0) pickups.push(c);
  if (pickups.length === 0) return [];
  const time = serviceStarts(rs);
  const n = m.nodeCount;
  const d = m.dist;
  const amount = m.loads[0]!.pickup;
  let maxLoad = 1e-9;
  let maxTime = 1e-9;
  for (const c of pickups) {
    if (amount) maxLoad = Math.max(maxLoad, Math.abs(amount[c]!));
    maxTime = Math.max(maxTime, time[c]!, time[partner[c]!]!);
  }
  const maxDist = Math.max(1e-9, 2 * m.maxDistance);
  const relatedness = (a: number, b: number): number => {
    const da = partner[a]!;
    const db = partner[b]!;
    const dist = (d[a * n + b]! + d[da * n + db]!) / maxDist;
    const gap = (Math.abs(time[a]! - time[b]!) + Math.abs(time[da]! - time[db]!)) / (2 * maxTime);
    const load = amount ? Math.abs(amount[a]! - amount[b]!) / maxLoad : 0;
    return DISTANCE_WEIGHT * dist + TIME_WEIGHT * gap + LOAD_WEIGHT * load;
  };
  const target = Math.max(1, Math.min(pickups.length, Math.round(size / 2)));
  const removed: number[] = [];
  const taken = new Set<number>();
  const take = (c: number) => {
    taken.add(c);
    removed.push(c, partner[c]!);
  };
  take(pickups[rng.int(pickups.length)]!);
  const scores = new Float64Array(pickups.length);
  const order: number[] = [];
  while (taken.size < target) {
    const from = removed[2 * rng.int(taken.size)]!;
    order.length = 0;
    for (let k = 0; k < pickups.length; k++) {
      if (taken.has(pickups[k]!)) continue;
      scores[k] = relatedness(from, pickups[k]!);
      order.push(k);
    }
    order.sort((x, y) => scores[x]! - scores[y]!);
    take(pickups[order[Math.floor(rng.next() ** DETERMINISM * order.length)]!]!);
  }
  return removed;
}

/**
 * When each routed stop's service starts (the earliest, waiting for its window; a stop the
 * vehicle reaches too late starts late, as time warp would price it); without windows, the
 * distance driven so far. Per node, 0 for unrouted ones.
 */
function serviceStarts(rs: Routes): Float64Array {
  const m = rs.m;
  const n = m.nodeCount;
  const time = new Float64Array(n);
  for (let r = 0; r < m.routes; r++) {
    const len = rs.length[r]!;
    if (len === 0) continue;
    const seq = rs.seq[r]!;
    const speed = m.speed[r]! > 0 ? m.speed[r]! : 1;
    let t = m.departOpen ? m.departOpen[r]! : 0;
    let prev = seq[0]!;
    for (let k = 1; k <= len; k++) {
      const c = seq[k]!;
      t += m.service[prev]! + m.dist[prev * n + c]! / speed;
      if (m.twStart) t = Math.max(t, m.twStart[c]!);
      time[c] = t;
      prev = c;
    }
  }
  return time;
}

/** Longest string cut around a partner left outside the strings (SISR's strings, pair-aware). */
const PARTNER_STRING = 3;

/**
 * Pair-aware strings: a string cut from a route (SISR) frees the places around its stops, but a
 * shipment stop in it whose partner lies elsewhere in the route takes that partner along alone,
 * wedged between stops that stay. Here a short string around each such partner (1 to
 * PARTNER_STRING stops containing it) is cut too, so that the shipment's two ends and their
 * neighbourhoods are rebuilt together. Adds to `removed` (the strings' stops) in place.
 */
export function cutAroundPartners(rs: Routes, rng: Rng, removed: number[]): void {
  const partner = rs.m.order!.partner!;
  const listed = new Set(removed);
  for (let k = 0, count = removed.length; k < count; k++) {
    const q = partner[removed[k]!]!;
    if (q < 0 || listed.has(q)) continue;
    const r = rs.routeOf[q]!;
    if (r < 0) continue;
    const len = rs.length[r]!;
    const length = 1 + rng.int(Math.min(len, PARTNER_STRING));
    const first = Math.max(1, Math.min(rs.pos[q]! - rng.int(length), len - length + 1));
    for (let t = first; t < first + length; t++) {
      const c = rs.seq[r]![t]!;
      if (!listed.has(c)) {
        listed.add(c);
        removed.push(c);
      }
    }
  }
}
