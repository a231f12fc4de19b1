import type { CompiledProblem } from "../core/problem.js";

/** Weights of waiting and time warp in the time-window neighbourhood (Vidal et al. 2013). */
const WAIT_WEIGHT = 0.2;
const WARP_WEIGHT = 1;

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
  const proximity = (i: number, j: number): number => {
    const travel = p.dist[i * n + j]! / speed;
    const wait = Math.max(t.twStartMin[j]! - travel - t.serviceMin[i]! - t.twEndMin[i]!, 0);
    const warp = Math.max(t.twStartMin[i]! + t.serviceMin[i]! + travel - t.twEndMin[j]!, 0);
    return p.dist[i * n + j]! + WAIT_WEIGHT * wait + WARP_WEIGHT * warp;
  };
  const lists: Int32Array[] = new Array(n);
  const others = new Int32Array(customers.length);
  const keys = new Float64Array(n);
  for (const c of customers) {
    let size = 0;
    for (const o of customers) {
      if (o === c) continue;
      keys[o] = Math.min(proximity(c, o), proximity(o, c));
      others[size++] = o;
    }
    const sorted = Array.from(others.subarray(0, size)).sort((a, b) => keys[a]! - keys[b]! || a - b);
    lists[c] = Int32Array.from(sorted.slice(0, Math.min(k, size)));
  }
  return lists;
}
