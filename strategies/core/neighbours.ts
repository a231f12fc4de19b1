import type { CompiledProblem } from "./problem.js";

/**
 * For every customer, its k nearest other customers (symmetrised distance): the granular
 * neighbourhood that keeps insertion and local search near-linear on large problems.
 */
const cache = new WeakMap<CompiledProblem, Map<number, Int32Array[]>>();

export function nearestNeighbours(p: CompiledProblem, k: number): Int32Array[] {
  let perProblem = cache.get(p);
  if (!perProblem) cache.set(p, (perProblem = new Map()));
  const cached = perProblem.get(k);
  if (cached) return cached;
  // A longer list already computed holds this one as its prefix (same nearest-first order).
  for (const [longer, lists] of perProblem) {
    if (longer < k) continue;
    const prefix = lists.map((list) => list.subarray(0, Math.min(k, list.length)));
    perProblem.set(k, prefix);
    return prefix;
  }
  const computed = computeNearest(p, k);
  perProblem.set(k, computed);
  return computed;
}

/**
 * Top-k selection by insertion into a sorted buffer: O(n) per customer for small k instead of a
 * full sort. Ties keep customer order, exactly as a stable sort would.
 */
function computeNearest(p: CompiledProblem, k: number): Int32Array[] {
  const n = p.nodeCount;
  const customers = p.customers;
  const lists: Int32Array[] = new Array(n);
  const count = Math.min(k, Math.max(0, customers.length - 1));
  const keys = new Float64Array(count + 1);
  const ids = new Int32Array(count + 1);
  for (const c of customers) {
    let size = 0;
    for (let t = 0; t < customers.length; t++) {
      const o = customers[t]!;
      if (o === c) continue;
      const key = p.dist[c * n + o]! + p.dist[o * n + c]!;
      if (size === count && !(key < keys[size - 1]!)) continue;
      let at = size < count ? size : size - 1;
      while (at > 0 && keys[at - 1]! > key) {
        keys[at] = keys[at - 1]!;
        ids[at] = ids[at - 1]!;
        at--;
      }
      keys[at] = key;
      ids[at] = o;
      if (size < count) size++;
    }
    lists[c] = ids.slice(0, size);
  }
  return lists;
}

export function isSymmetric(p: CompiledProblem): boolean {
  const n = p.nodeCount;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(p.dist[i * n + j]! - p.dist[j * n + i]!) > 1e-9) return false;
  return true;
}
