import { below, type PerVehiclePricing } from "../pricing/per-vehicle.js";
import type { Pieces } from "../pieces.js";

/**
 * Relocate of a whole shipment within its own route (constraints.md `shipments`): its pickup and
 * delivery leave their places together and go back at other places of the same route, pickup
 * first. The single-stop relocate within a route moves one of them at a time, and only when that
 * step alone improves; moving the pair at once also finds the moves whose halves do not (a
 * shipment carried from the start of a route to its end, past stops whose windows only fit one
 * order). Every pickup place x and delivery place y >= x of the route without the pair is bounded
 * first by distance in O(1) (the route's vehicle cost plus its distance, a lower bound of the
 * price), and only the places that could win are priced exactly on the route model (routes.ts),
 * in order, the first improving one applied. `pickup` must be a shipment's pickup on a route.
 * Returns whether it applied a move.
 */
export function pairRelocateWithin(ls: PerVehiclePricing, pickup: number): boolean {
  const rs = ls.rs;
  const m = rs.m;
  const delivery = m.order!.partner![pickup]!;
  const r = rs.routeOf[pickup]!;
  if (r < 0 || rs.routeOf[delivery] !== r) return false;
  const len = rs.length[r]!;
  if (len < 3) return false;
  const seq = rs.seq[r]!;
  const n = m.nodeCount;
  const d = rs.slotMatrix[r]!;
  const i = rs.pos[pickup]!;
  const j = rs.pos[delivery]!;
  // Distance of the route without the pair.
  let rest = rs.fwd[r]![len + 1]!;
  const before = seq[i - 1]!;
  const after = seq[j + 1]!;
  if (j === i + 1) rest += d[before * n + after]! - d[before * n + pickup]! - d[pickup * n + delivery]! - d[delivery * n + after]!;
  else {
    const pNext = seq[i + 1]!;
    const dPrev = seq[j - 1]!;
    rest += d[before * n + pNext]! - d[before * n + pickup]! - d[pickup * n + pNext]!;
    rest += d[dPrev * n + after]! - d[dPrev * n + delivery]! - d[delivery * n + after]!;
  }
  const fixed = m.fixedCost[r]!;
  const unit = m.unitCost[r]!;
  const price = rs.cost[r]!;
  const pd = d[pickup * n + delivery]!;
  // The least distance the delivery adds at any place: bounds every place of the pickup.
  let leastDetour = Number.POSITIVE_INFINITY;
  for (let y = 0; y <= len; y++) {
    if (y === i || y === j) continue;
    const a = seq[y]!;
    const b = seq[next(y, i, j)]!;
    const detour = d[a * n + delivery]! + d[delivery * n + b]! - d[a * n + b]!;
    if (detour < leastDetour) leastDetour = detour;
  }
  // Hard windows: a lower bound of the time warp from each new arc alone (warpOfArc), checked before the exact price.
  // Off on duration matrices: warpOfArc takes travel minutes as distance / speed.
  const warpPrice = rs.times !== null && m.durationOf === null ? rs.penalties.timeWarp : 0;
  const speed = m.speed[r]!;
  for (let x = 0; x <= len; x++) {
    if (x === i || x === j) continue;
    const a = seq[x]!;
    const xNext = next(x, i, j);
    const b = seq[xNext]!;
    const ab = d[a * n + b]!;
    const dP = d[a * n + pickup]! + d[pickup * n + b]! - ab;
    const direct = d[a * n + pickup]! + pd + d[delivery * n + b]! - ab;
    const intoPickup = warpPrice > 0 ? warpOfArc(m, speed, len, x, a, pickup, 1) : 0;
    if (!below(fixed + unit * (rest + Math.min(direct, dP + leastDetour)) + warpPrice * intoPickup, price)) continue;
    // The delivery right after the pickup, then after each later kept position.
    for (let y = x; y <= len; y = next(y, i, j)) {
      let delta: number;
      let warp = intoPickup;
      if (y === x) {
        delta = direct;
        if (warpPrice > 0)
          warp = Math.max(warp, warpOfArc(m, speed, len, 1, pickup, delivery, 1), warpOfArc(m, speed, len, 1, delivery, b, xNext));
      } else {
        const c = seq[y]!;
        const yNext = next(y, i, j);
        const e = seq[yNext]!;
        delta = dP + d[c * n + delivery]! + d[delivery * n + e]! - d[c * n + e]!;
        if (warpPrice > 0)
          warp = Math.max(
            warp,
            warpOfArc(m, speed, len, 1, pickup, b, xNext),
            warpOfArc(m, speed, len, y, c, delivery, 1),
            warpOfArc(m, speed, len, 1, delivery, e, yNext),
          );
      }
      if (!below(fixed + unit * (rest + delta) + warpPrice * warp, price)) continue;
      place(ls.a.reset(), r, len, i, j, x, y, pickup, delivery);
      if (ls.tryWithin(r, true)) return true;
    }
  }
  return false;
}

/**
 * Time warp of the visit of `to` right after `from` when both are customers, at the earliest
 * `from` may start (its window's opening): the candidate route, which holds that visit pair,
 * warps at least that much (time-segment.ts: concatenation only adds warp). 0 at the route's ends.
 * fromPos / toPos: positions in the route of length `len` (0 and len + 1 are its ends; a moving stop passes 1).
 */
function warpOfArc(
  m: PerVehiclePricing["m"],
  speed: number,
  len: number,
  fromPos: number,
  from: number,
  to: number,
  toPos: number,
): number {
  if (fromPos === 0 || toPos > len) return 0;
  return Math.max(0, m.twStart![from]! + m.service[from]! + m.dist[from * m.nodeCount + to]! / speed - m.twEnd![to]!);
}

/** The next position of the route after x once positions i and j are gone (length + 1: the end). */
function next(x: number, i: number, j: number): number {
  let k = x + 1;
  if (k === i) k++;
  if (k === j) k++;
  return k;
}

/** Route r without positions i and j, the pickup after kept position x and the delivery after kept position y >= x. */
function place(p: Pieces, r: number, len: number, i: number, j: number, x: number, y: number, pickup: number, delivery: number): void {
  kept(p, r, 1, x, i, j).node(pickup);
  if (y === x) {
    kept(p.node(delivery), r, x + 1, len, i, j);
    return;
  }
  kept(kept(p, r, x + 1, y, i, j).node(delivery), r, y + 1, len, i, j);
}

/** Positions lo..hi of route r except i and j (i < j). */
function kept(p: Pieces, r: number, lo: number, hi: number, i: number, j: number): Pieces {
  return p
    .add(r, lo, Math.min(hi, i - 1))
    .add(r, Math.max(lo, i + 1), Math.min(hi, j - 1))
    .add(r, Math.max(lo, j + 1), hi);
}
