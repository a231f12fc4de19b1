import type { PerVehiclePricing } from "../pricing/per-vehicle.js";

/**
 * Relocates customer u after position j of another route rv and opens a trip for it in the same
 * move: one of rv's unserved reload copies (search/trip-copies.ts) goes right before u or right
 * after it. Without it, a customer whose demand does not fit the trip it joins reaches a better
 * route only through an overloaded plan that a later reload insertion repairs, which a first
 * improvement search rarely passes through. Tried only where u would overload that trip (a reload
 * only adds driving otherwise, so the plain relocate is as good); both placements are priced
 * exactly by the route model and the first that improves is applied.
 */
export function relocateWithReload(ls: PerVehiclePricing, u: number, rv: number, j: number): boolean {
  const rs = ls.rs;
  const trips = rs.trips!;
  const ru = rs.routeOf[u]!;
  if (ru === rv || ru < 0 || trips.ownerOf[u]! >= 0) return false;
  if (rs.rules !== null && !rs.rules.serves(rv, u)) return false;
  if (trips.tripLoadAcross(rv, j) + rs.m.demand[u]! <= rs.m.p.capacity[rv]!) return false;
  const copy = unservedCopy(ls, rv);
  if (copy < 0) return false;
  const i = rs.pos[u]!;
  const lenU = rs.length[ru]!;
  const lenV = rs.length[rv]!;
  const seqU = rs.seq[ru]!;
  const seqV = rs.seq[rv]!;
  const n = rs.m.nodeCount;
  const dU = rs.slotMatrix[ru]!;
  const dV = rs.slotMatrix[rv]!;
  const pu = seqU[i - 1]!;
  const x = seqU[i + 1]!;
  const v = seqV[j]!;
  const y = seqV[j + 1]!;
  // Distances first, as the relocate bounds its candidates: most stop here, before the exact price.
  const distA = rs.fwd[ru]![lenU + 1]! + dU[pu * n + x]! - dU[pu * n + u]! - dU[u * n + x]!;
  const distV = rs.fwd[rv]![lenV + 1]! - dV[v * n + y]!;
  ls.a
    .reset()
    .add(ru, 1, i - 1)
    .add(ru, i + 1, lenU);
  // Two reload stops in a row only add driving: each placement is skipped beside another.
  const reloadFirst = distV + dV[v * n + copy]! + dV[copy * n + u]! + dV[u * n + y]!;
  if ((j === 0 || trips.ownerOf[v]! < 0) && ls.pairMayImprove(ru, lenU - 1, distA, rv, lenV + 2, reloadFirst)) {
    ls.b
      .reset()
      .add(rv, 1, j)
      .node(copy)
      .add(ru, i, i)
      .add(rv, j + 1, lenV);
    if (ls.tryPair(ru, rv)) return true;
  }
  if (j === lenV || trips.ownerOf[y]! >= 0) return false;
  const reloadAfter = distV + dV[v * n + u]! + dV[u * n + copy]! + dV[copy * n + y]!;
  if (!ls.pairMayImprove(ru, lenU - 1, distA, rv, lenV + 2, reloadAfter)) return false;
  ls.b
    .reset()
    .add(rv, 1, j)
    .add(ru, i, i)
    .node(copy)
    .add(rv, j + 1, lenV);
  return ls.tryPair(ru, rv);
}

/** One of vehicle r's reload copies that no route serves, or -1 (its trips are at their limit). */
function unservedCopy(ls: PerVehiclePricing, r: number): number {
  const copies = ls.rs.m.p.trips!.reloadNodes[r]!;
  for (let k = 0; k < copies.length; k++) if (ls.rs.routeOf[copies[k]!]! < 0) return copies[k]!;
  return -1;
}
