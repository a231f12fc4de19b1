import type { CompiledProblem } from "./problem.js";

/**
 * Intra-route 2-opt with O(1) deltas, for symmetric matrices without a time dimension (where
 * reversing a segment changes only its two end edges). Improves `route` in place; returns the
 * distance saved. Property-tested against the evaluator.
 */
export function twoOptRoute(p: CompiledProblem, v: number, route: number[]): number {
  const n = p.nodeCount;
  const d = p.dist;
  const len = route.length;
  if (len < 3) return 0;
  const node = (k: number) => (k < 0 ? p.startNode[v]! : k >= len ? p.endNode[v]! : route[k]!);
  let saved = 0;
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < len - 1; i++) {
      const a = node(i - 1);
      const b = node(i);
      for (let j = i + 1; j < len; j++) {
        const c = node(j);
        const e = node(j + 1);
        const delta = d[a * n + c]! + d[b * n + e]! - d[a * n + b]! - d[c * n + e]!;
        if (delta < -1e-9) {
          for (let x = i, y = j; x < y; x++, y--) [route[x], route[y]] = [route[y]!, route[x]!];
          saved -= delta;
          improved = true;
          break;
        }
      }
      if (improved) break;
    }
  }
  return saved;
}
