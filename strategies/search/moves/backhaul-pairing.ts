import type { PerVehiclePricing } from "../pricing/per-vehicle.js";
import { Pieces } from "../pieces.js";
import { minimumAssignment } from "./assignment.js";

const EPS = 1e-7;
/**
 * Above this many routes the assignment (O(routes^3), and routes^2 prices) costs more than the
 * moves it would save; many short routes also leave little to re-pair.
 */
const MAX_ROUTES = 64;
const candidate = new Pieces();

/**
 * Backhauls (pickups_after_deliveries): every route is a delivery part (up to its first pickup)
 * and a pickup part. Which delivery part goes with which pickup part is an assignment problem,
 * solved exactly here over the used routes (and one empty one): each pairing priced exactly on
 * the delivery part's vehicle (distance, both load dimensions' peaks, time), then the cheapest
 * assignment (assignment.ts, O(routes^3)). It rebuilds the joins of all routes at once, which
 * 2-opt* (one pair of routes, cut where granular neighbours meet) reaches only by chance.
 * Returns whether it changed the routes.
 */
export function repairBackhaulPairing(ls: PerVehiclePricing): boolean {
  const rs = ls.rs;
  const m = rs.m;
  const kind = m.order?.backhaul;
  // The balance term of a reassignment among many routes is not priced here: the repair stays off.
  if (!kind || m.order!.partner || rs.balance) return false;
  const routes: number[] = [];
  let empty = -1;
  for (let r = 0; r < m.routes; r++) {
    if (rs.length[r]! > 0) routes.push(r);
    else if (empty < 0) empty = r;
  }
  if (empty >= 0) routes.push(empty);
  const n = routes.length;
  if (n < 2 || n > MAX_ROUTES) return false;
  // Split: positions 1..cut[k] deliver (or neither), cut[k]+1..length pick up.
  const cut = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const r = routes[k]!;
    const seq = rs.seq[r]!;
    let t = 1;
    while (t <= rs.length[r]! && kind[seq[t]!] !== 2) t++;
    cut[k] = t - 1;
  }
  let before = 0;
  for (const r of routes) before += rs.cost[r]!;
  const cost = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    const ra = routes[a]!;
    for (let b = 0; b < n; b++) {
      const rb = routes[b]!;
      candidate
        .reset()
        .add(ra, 1, cut[a]!)
        .add(rb, cut[b]! + 1, rs.length[rb]!);
      cost[a * n + b] = rs.candidates.price(ra, candidate);
    }
  }
  const match = minimumAssignment(cost, n);
  let after = 0;
  for (let a = 0; a < n; a++) after += cost[a * n + match[a]!]!;
  if (!(after < before - EPS)) return false;
  const lists: Int32Array[] = [];
  for (let a = 0; a < n; a++) {
    const ra = routes[a]!;
    const rb = routes[match[a]!]!;
    candidate
      .reset()
      .add(ra, 1, cut[a]!)
      .add(rb, cut[match[a]!]! + 1, rs.length[rb]!);
    const out = new Int32Array(candidate.size);
    rs.candidates.write(candidate, out);
    lists.push(out);
  }
  for (let a = 0; a < n; a++) rs.setRoute(routes[a]!, lists[a]!, lists[a]!.length, false);
  ls.onCommitMany?.(after, routes);
  return true;
}
