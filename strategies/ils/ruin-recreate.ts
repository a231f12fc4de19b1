import type { Rng } from "../core/rng.js";
import type { PerVehiclePricing } from "../search/pricing/per-vehicle.js";
import { Pieces } from "../search/pieces.js";
import type { Routes } from "../search/routes.js";
import { recreatePair, recreatePairsByRegret } from "./pair-recreate.js";
import { cutAroundPartners, removeRelatedPairs } from "./pair-ruin.js";

const pieces = new Pieces();
const ROUTE_RUIN_PROBABILITY = 0.1;
/** Share of the other ruins that cut strings (SISR) instead of taking nearby customers. */
const STRING_RUIN_PROBABILITY = 0.5;
const SISR_MEAN_REMOVED = 10;
const SISR_MAX_STRING = 10;
const DEMAND_ORDER_PROBABILITY = 0.5;
/** Shipments: share of recreates that insert the pairs by regret instead of one by one in the order drawn. */
const REGRET_PROBABILITY = 0.5;
/** Route elimination takes the shortest route only when it has at most this share of the average stops. */
const SHORT_ROUTE_SHARE = 0.5;

/**
 * Rewrites every route that lost customers, without them; a shipment's stop takes its partner
 * along (added to `removed`). Locked stops are never removed (taken out of `removed`).
 */
function dropFrom(rs: Routes, removed: number[]): void {
  const partner = rs.m.order?.partner;
  if (partner) {
    const listed = new Set(removed);
    for (let k = 0, count = removed.length; k < count; k++) {
      const q = partner[removed[k]!]!;
      if (q >= 0 && !listed.has(q)) {
        listed.add(q);
        removed.push(q);
      }
    }
  }
  const locked = rs.m.locks?.vehicle;
  if (locked) {
    // A shipment whose other stop is locked stays too: its pair moves only as a whole.
    let kept = 0;
    for (const c of removed) if (locked[c]! < 0 && !(partner && partner[c]! >= 0 && locked[partner[c]!]! >= 0)) removed[kept++] = c;
    removed.length = kept;
  }
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
 * together (a random customer and, breadth first, its nearest neighbours), or strings cut from
 * a few neighbouring routes (SISR), or now and then one whole route (so that a vehicle, and its
 * fixed cost, can go; with `shortRoutes` the shorter of two random routes). With shipments the
 * strings also cut around the partners of their stops, and related shipments (both ends, Shaw
 * removal) replace nearby customers (pair-ruin.ts). `stringScale` multiplies the strings' mean
 * number of removed customers (ruin-strength.ts). Returns the removed customers.
 */
export function ruin(rs: Routes, rng: Rng, size: number, shortRoutes = false, stringScale = 1): number[] {
  const m = rs.m;
  const customers = m.customers;
  if (rng.next() < ROUTE_RUIN_PROBABILITY) {
    const used: number[] = [];
    for (let r = 0; r < m.routes; r++) if (rs.length[r]! > 0) used.push(r);
    if (used.length > 1) {
      let r = used[rng.int(used.length)]!;
      if (shortRoutes) {
        // The shorter of two random routes: its customers fit elsewhere more often, so the
        // vehicle can go (tight windows and fleets often leave one or two routes too many).
        const other = used[rng.int(used.length)]!;
        if (rs.length[other]! < rs.length[r]!) r = other;
      }
      const removed = Array.from(rs.seq[r]!.subarray(1, rs.length[r]! + 1));
      dropFrom(rs, removed);
      return removed;
    }
  }
  if (rng.next() < STRING_RUIN_PROBABILITY) {
    const removed = removeStrings(rs, rng, stringScale);
    // Shipments: the partners' neighbourhoods go too (pair-ruin.ts).
    if (m.order?.partner) cutAroundPartners(rs, rng, removed);
    if (removed.length > 0) {
      dropFrom(rs, removed);
      return removed;
    }
  }
  if (m.order?.partner) {
    // Shipments: related pairs, both ends of each (pair-ruin.ts).
    const removed = removeRelatedPairs(rs, rng, size);
    if (removed.length > 0) {
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

/**
 * Route elimination: removes every customer of the route with the fewest stops (ties: the first
 * in a random rotation), for a recreate that may not open a vehicle, when that route has at most
 * SHORT_ROUTE_SHARE of the average stops (else nothing: []). A route too many is usually a short
 * one; dissolving a full-length route into the others only makes a costly repair (on three routes
 * of 35 stops each, iterations took 2.4 times as long). Returns the removed customers.
 */
export function ruinShortestRoute(rs: Routes, rng: Rng): number[] {
  const m = rs.m;
  let shortest = -1;
  let used = 0;
  let stops = 0;
  const offset = rng.int(m.routes);
  for (let k = 0; k < m.routes; k++) {
    const r = (k + offset) % m.routes;
    if (rs.length[r]! === 0) continue;
    used++;
    stops += rs.length[r]!;
    if (shortest < 0 || rs.length[r]! < rs.length[shortest]!) shortest = r;
  }
  if (shortest < 0 || used < 2 || rs.length[shortest]! > SHORT_ROUTE_SHARE * (stops / used)) return [];
  const removed = Array.from(rs.seq[shortest]!.subarray(1, rs.length[shortest]! + 1));
  dropFrom(rs, removed);
  return removed;
}

/**
 * SISR's string removal (Christiaens and Vanden Berghe 2020, with the paper's average of 10
 * removed customers and strings of at most 10): from a random customer outwards through its
 * granular neighbours, cut one string of consecutive customers from each of a few routes met.
 * Strings keep what lies between the cut ends adjacent, so routes that run side by side can be
 * rebuilt together, which nearby-customer removal rarely does. `scale` multiplies the mean removed.
 */
function removeStrings(rs: Routes, rng: Rng, scale: number): number[] {
  const m = rs.m;
  let used = 0;
  let served = 0;
  for (let r = 0; r < m.routes; r++) {
    if (rs.length[r]! === 0) continue;
    used++;
    served += rs.length[r]!;
  }
  if (used === 0) return [];
  const maxString = Math.min(SISR_MAX_STRING, served / used);
  const maxRoutes = (4 * SISR_MEAN_REMOVED * scale) / (1 + maxString) - 1;
  const routesToCut = Math.floor(1 + rng.next() * maxRoutes);
  const seed = m.customers[rng.int(m.customers.length)]!;
  const cut = new Set<number>();
  const removed: number[] = [];
  const near = m.neighbours[seed]!;
  for (let k = -1; k < near.length && cut.size < routesToCut; k++) {
    const c = k < 0 ? seed : near[k]!;
    const r = rs.routeOf[c]!;
    if (r < 0 || cut.has(r)) continue;
    cut.add(r);
    const len = rs.length[r]!;
    const length = 1 + rng.int(Math.max(1, Math.min(len, Math.floor(maxString))));
    // A string of `length` consecutive positions that contains c's position.
    const pos = rs.pos[c]!;
    const first = Math.max(1, Math.min(pos - rng.int(length), len - length + 1));
    for (let t = first; t < first + length; t++) removed.push(rs.seq[r]![t]!);
  }
  return removed;
}

/** Cost change of inserting `c` into route r after position j (0: first). */
function insertionDelta(rs: Routes, c: number, r: number, j: number): number {
  pieces
    .reset()
    .add(r, 1, j)
    .node(c)
    .add(r, j + 1, rs.length[r]!);
  const delta = rs.candidates.price(r, pieces) - rs.cost[r]!;
  // With balance, a stop on the longest route also raises the largest workload.
  return rs.balance ? delta + rs.balance.delta(r, rs.balance.workloadOf(r, pieces), -1, 0) : delta;
}

/**
 * Greedy reinsertion in random order or by decreasing demand, each customer at its cheapest penalised position next to
 * one of its granular neighbours, or alone on a free vehicle of some type; when none of these
 * exists, every position of every used route is tried. On problems with rules a customer whose
 * cheapest place costs more than its skip price (fleet-rules.ts) stays unserved. `shuffledTypes`
 * (settings.ts EmptyTypeOrder "shuffled"): the free vehicles' types are tried in a random order
 * and the first that beats the places next to neighbours is taken, not the cheapest.
 */
export function recreate(
  ls: PerVehiclePricing,
  rng: Rng,
  removed: number[],
  largestFirst = false,
  openVehicles = true,
  shuffledTypes = false,
): void {
  const rs = ls.rs;
  const m = rs.m;
  const typeOrder = shuffledTypes && openVehicles && m.typeSlots.length > 1 ? Array.from(m.typeSlots, (_, t) => t) : null;
  rng.shuffle(removed);
  // As SISR does, half the time the largest demands go first: they are the hard ones to pack
  // into the vehicles left, which matters with mixed capacities (always, when asked: a start
  // built from nothing, where packing decides whether the fleet suffices).
  if (largestFirst || rng.next() < DEMAND_ORDER_PROBABILITY) {
    const size = m.loads[0]!.pickup;
    const key = (c: number) => Math.max(m.demand[c]!, size ? Math.abs(size[c]!) : 0);
    removed.sort((a, b) => key(b) - key(a));
  }
  const partner = m.order?.partner ?? null;
  if (partner && !largestFirst && rng.next() < REGRET_PROBABILITY) {
    // Shipments by regret (pair-recreate.ts); plain customers follow in the loop below.
    const pickups = removed.filter((c) => m.order!.role[c]! > 0 && rs.routeOf[c]! < 0 && rs.routeOf[partner[c]!]! < 0);
    recreatePairsByRegret(ls, pickups, openVehicles);
  }
  for (const c of removed) {
    if (partner && partner[c]! >= 0) {
      // Both stops of a shipment go in together, pickup first (pair-insertion.ts).
      if (rs.routeOf[c]! < 0)
        recreatePair(ls, m.order!.role[c]! > 0 ? c : partner[c]!, m.order!.role[c]! > 0 ? partner[c]! : c, openVehicles);
      continue;
    }
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
    if (typeOrder !== null) {
      rng.shuffle(typeOrder);
      for (const type of typeOrder) {
        const free = ls.emptyOfType(type, -1);
        if (free < 0) continue;
        const delta = insertionDelta(rs, c, free, 0);
        if (delta < bestDelta) {
          bestDelta = delta;
          bestRoute = free;
          bestAfter = 0;
          break;
        }
      }
    } else {
      for (let type = 0; openVehicles && type < m.typeSlots.length; type++) {
        const free = ls.emptyOfType(type, -1);
        if (free >= 0) consider(free, 0);
      }
    }
    if (bestRoute < 0) {
      for (let r = 0; r < m.routes; r++) for (let j = 0; j <= rs.length[r]!; j++) if (rs.length[r]! > 0) consider(r, j);
    }
    // No vehicle may take it (skills), or (a customer that may stay unserved) its cheapest place
    // costs more than leaving it out: it stays out, for the local search to try again.
    if (bestRoute < 0 || (m.rules && bestDelta >= m.rules.skipPrice[c]!)) continue;
    pieces
      .reset()
      .add(bestRoute, 1, bestAfter)
      .node(c)
      .add(bestRoute, bestAfter + 1, rs.length[bestRoute]!);
    const out = new Int32Array(pieces.size);
    const count = rs.candidates.write(pieces, out);
    rs.setRoute(bestRoute, out, count);
  }
}
