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
  const computed = computeNearest(p, k);
  perProblem.set(k, computed);
  return computed;
}

function computeNearest(p: CompiledProblem, k: number): Int32Array[] {
  const n = p.nodeCount;
  const customers = Array.from(p.customers);
  const lists: Int32Array[] = new Array(n);
  const count = Math.min(k, Math.max(0, customers.length - 1));
  for (const c of customers) {
    const key = new Float64Array(n);
    for (const o of customers) key[o] = p.dist[c * n + o]! + p.dist[o * n + c]!;
    const others = customers.filter((o) => o !== c);
    others.sort((a, b) => key[a]! - key[b]!);
    lists[c] = Int32Array.from(others.slice(0, count));
  }
  return lists;
}

export function isSymmetric(p: CompiledProblem): boolean {
  const n = p.nodeCount;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(p.dist[i * n + j]! - p.dist[j * n + i]!) > 1e-9) return false;
  return true;
}
