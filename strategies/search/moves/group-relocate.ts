import { distanceBetween } from "../../core/problem.js";
import type { Routes } from "../routes.js";

const EPS = 1e-9;

/**
 * Moves each same-vehicle group as one: all its stops, wherever they are now, as one block (in
 * their current order) at the cheapest place by distance of another route or of one of the routes
 * holding them, when the routes touched then cost less at the current penalties (priced by the
 * route model itself: the routes are set, and set back when the move does not pay). The local
 * search's moves move one stop at a time, which a split group's price makes dear at every step;
 * this is the move that keeps a group whole while it changes vehicle. True when any group moved.
 */
export function relocateGroups(rs: Routes): boolean {
  const visits = rs.m.p.visits;
  if (!visits?.groupOf) return false;
  let moved = false;
  for (const group of visits.groups) {
    const members = Array.from(group).filter((c) => rs.routeOf[c]! >= 0);
    if (members.length !== group.length) continue;
    const sources = [...new Set(members.map((c) => rs.routeOf[c]!))];
    // The block in its order on the route that holds its first stop, then the others'.
    members.sort((a, b) => rs.routeOf[a]! - rs.routeOf[b]! || rs.pos[a]! - rs.pos[b]!);
    for (let rv = 0; rv < rs.m.routes; rv++) {
      if (sources.length === 1 && sources[0] === rv) continue;
      if (tryTarget(rs, members, sources, rv)) {
        moved = true;
        break;
      }
    }
  }
  return moved;
}

function listOf(rs: Routes, r: number): number[] {
  return Array.from(rs.seq[r]!.subarray(1, rs.length[r]! + 1));
}

function tryTarget(rs: Routes, members: number[], sources: number[], rv: number): boolean {
  const p = rs.m.p;
  const touched = [...new Set([...sources, rv])];
  const old = touched.map((r) => listOf(rs, r));
  const before = touched.reduce((sum, r) => sum + rs.cost[r]!, 0);
  const inGroup = new Set(members);
  const target = listOf(rs, rv).filter((c) => !inGroup.has(c));
  // The block's cheapest place by distance on rv's own start and end nodes.
  const first = members[0]!;
  const last = members[members.length - 1]!;
  let bestAt = 0;
  let bestDelta = Number.POSITIVE_INFINITY;
  for (let k = 0; k <= target.length; k++) {
    const prev = k === 0 ? rs.m.start[rv]! : target[k - 1]!;
    const next = k === target.length ? rs.m.end[rv]! : target[k]!;
    const delta = distanceBetween(p, prev, first) + distanceBetween(p, last, next) - distanceBetween(p, prev, next);
    if (delta < bestDelta) {
      bestDelta = delta;
      bestAt = k;
    }
  }
  target.splice(bestAt, 0, ...members);
  for (const r of touched) {
    const list = r === rv ? target : listOf(rs, r).filter((c) => !inGroup.has(c));
    rs.setRoute(r, list, list.length);
  }
  const after = touched.reduce((sum, r) => sum + rs.cost[r]!, 0);
  if (after < before - EPS * Math.max(1, Math.abs(before))) return true;
  touched.forEach((r, k) => rs.setRoute(r, old[k]!, old[k]!.length));
  return false;
}
