import { nearestNeighbours } from "../core/neighbours.js";
import { distanceBetween, type CompiledProblem } from "../core/problem.js";
import { windowProximity } from "../search/window-neighbours.js";

/** Customers by distance among which the time-aware neighbours are chosen. */
const CANDIDATES = 60;
/** Neighbours kept per customer (the decomposition's spatial lists have 20 as well). */
const KEPT = 20;

/**
 * The decomposition's neighbour lists under binding windows: each customer's
 * CANDIDATES nearest by distance, re-ranked by the time-window proximity of the search's own
 * granular neighbourhood (search/window-neighbours.ts: distance plus weighted least waiting and
 * time warp, the smaller of both directions), the KEPT best kept. Groups of routes grown on
 * these links (decomposition/group.ts) are close in space and compatible in time, so that the
 * sub-search can move customers between them; with spatial links alone, a group can gather
 * routes that pass the same streets at hours too far apart to exchange anything. Needs no
 * matrix (nearest candidates on the grid, distances on demand).
 */
export function windowAwareNeighbours(p: CompiledProblem): Int32Array[] {
  const t = p.time!;
  const speed = t.speed[0]!;
  const spatial = nearestNeighbours(p, CANDIDATES);
  const lists: Int32Array[] = new Array(p.nodeCount);
  for (const c of p.customers) {
    const candidates = Array.from(spatial[c]!);
    const key = new Map<number, number>();
    for (const o of candidates) {
      key.set(
        o,
        Math.min(windowProximity(t, speed, distanceBetween(p, c, o), c, o), windowProximity(t, speed, distanceBetween(p, o, c), o, c)),
      );
    }
    candidates.sort((a, b) => key.get(a)! - key.get(b)! || a - b);
    lists[c] = Int32Array.from(candidates.slice(0, KEPT));
  }
  return lists;
}
