import type { CompiledProblem, TimeBlock } from "../core/problem.js";

/** Weights of waiting and time warp in the time-window neighbourhood (Vidal et al. 2013). */
const WAIT_WEIGHT = 0.2;
const WARP_WEIGHT = 1;

/**
 * How close customer j is after customer i under time windows (Vidal et al. 2013): the distance
 * `distance` from i to j plus weighted least waiting and least time warp of serving j after i.
 */
export function windowProximity(t: TimeBlock, speed: number, distance: number, i: number, j: number): number {
  const travel = distance / speed;
  const wait = Math.max(t.twStartMin[j]! - travel - t.serviceMin[i]! - t.twEndMin[i]!, 0);
  const warp = Math.max(t.twStartMin[i]! + t.serviceMin[i]! + travel - t.twEndMin[j]!, 0);
  return distance + WAIT_WEIGHT * wait + WARP_WEIGHT * warp;
}

/**
 * Granular neighbourhood under time windows (Vidal et al. 2013): distance plus weighted least
 * waiting and least time warp of going from one customer to the other, symmetrised by taking
 * the smaller of both directions.
 */
export function windowNeighbours(p: CompiledProblem, k: number): Int32Array[] {
  const t = p.time!;
  const n = p.nodeCount;
  const speed = t.speed[0]!;
  const customers = p.customers;
  const proximity = (i: number, j: number): number => windowProximity(t, speed, p.dist[i * n + j]!, i, j);
  const lists: Int32Array[] = new Array(n);
  // The k best by (key, index), kept sorted by insertion: O(n k) at worst, where sorting every
  // other customer cost O(n log n) per customer (seconds at 4,000 customers).
  const bestNode = new Int32Array(k);
  const bestKey = new Float64Array(k);
  for (const c of customers) {
    let size = 0;
    for (const o of customers) {
      if (o === c) continue;
      const key = Math.min(proximity(c, o), proximity(o, c));
      if (size === k && !(key < bestKey[k - 1]! || (key === bestKey[k - 1]! && o < bestNode[k - 1]!))) continue;
      let at = size < k ? size++ : k - 1;
      while (at > 0 && (key < bestKey[at - 1]! || (key === bestKey[at - 1]! && o < bestNode[at - 1]!))) {
        bestKey[at] = bestKey[at - 1]!;
        bestNode[at] = bestNode[at - 1]!;
        at--;
      }
      bestKey[at] = key;
      bestNode[at] = o;
    }
    lists[c] = bestNode.slice(0, size);
  }
  return lists;
}
