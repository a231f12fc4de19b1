import { evaluateRoute, type RouteScore } from "./evaluator.js";
import { nearestNeighbours } from "./neighbours.js";
import type { Workspace } from "./workspace.js";

const EPS = 1e-7;
const NEIGHBOURS = 12;
/** Or-opt moves chains of this many consecutive customers (single ones are relocate's). */
const OR_OPT_LENGTHS = [2, 3] as const;

/**
 * Granular local search over relocate, or-opt, swap and 2-opt* moves between a customer and its
 * nearest neighbours (intra- and inter-route), first improvement, until no move improves. Every candidate
 * route is scored by the evaluator, so time windows, working hours, heterogeneous vehicles and
 * costs are all respected with no move-specific bookkeeping to get wrong.
 */
export function localSearch(ws: Workspace, maxPasses = 20): void {
  const p = ws.p;
  if (p.customers.length < 2) return;
  const near = nearestNeighbours(p, NEIGHBOURS);
  const position = new Int32Array(p.nodeCount);
  const reindex = (v: number) => ws.routes[v]!.forEach((c, i) => (position[c] = i));
  ws.routes.forEach((_, v) => reindex(v));

  const accept = (vA: number, routeA: number[], vB: number, routeB: number[] | null): boolean => {
    const oldCost = ws.searchCost(ws.scores[vA]!) + (routeB && vB !== vA ? ws.searchCost(ws.scores[vB]!) : 0);
    const scoreA = evaluateRoute(p, vA, routeA);
    if (!allowed(scoreA)) return false;
    let scoreB: RouteScore | null = null;
    if (routeB && vB !== vA) {
      scoreB = evaluateRoute(p, vB, routeB);
      if (!allowed(scoreB)) return false;
    }
    const newCost = ws.searchCost(scoreA) + (scoreB ? ws.searchCost(scoreB) : 0);
    if (newCost >= oldCost - EPS) return false;
    ws.routes[vA] = routeA;
    ws.scores[vA] = scoreA;
    for (const c of routeA) ws.routeOf[c] = vA;
    reindex(vA);
    if (routeB && scoreB) {
      ws.routes[vB] = routeB;
      ws.scores[vB] = scoreB;
      for (const c of routeB) ws.routeOf[c] = vB;
      reindex(vB);
    }
    return true;
  };
  const allowed = (s: RouteScore) => s.capacityExcess <= 1e-9 && (s.feasible || ws.violationWeight > 0);

  /** Or-opt: the chain of customers starting at u moved right after w, as it is or reversed. */
  const orOpt = (u: number, w: number): boolean => {
    const ru = ws.routeOf[u]!;
    const rw = ws.routeOf[w]!;
    const A = ws.routes[ru]!;
    const i = position[u]!;
    for (const length of OR_OPT_LENGTHS) {
      if (i + length > A.length) return false;
      const chain = A.slice(i, i + length);
      if (chain.includes(w)) return false;
      const rest = A.slice(0, i).concat(A.slice(i + length));
      for (const piece of [chain, chain.slice().reverse()]) {
        if (ru === rw) {
          const at = rest.indexOf(w) + 1;
          if (accept(ru, rest.slice(0, at).concat(piece, rest.slice(at)), ru, null)) return true;
        } else {
          const B = ws.routes[rw]!;
          const at = position[w]! + 1;
          if (accept(ru, rest, rw, B.slice(0, at).concat(piece, B.slice(at)))) return true;
        }
      }
    }
    return false;
  };

  for (let pass = 0; pass < maxPasses; pass++) {
    let improved = false;
    for (const u of p.customers) {
      for (const w of near[u]!) {
        const ru = ws.routeOf[u]!;
        const rw = ws.routeOf[w]!;
        if (ru < 0 || rw < 0 || u === w) continue;
        const A = ws.routes[ru]!;
        const B = ws.routes[rw]!;
        const i = position[u]!;
        const j = position[w]!;
        if (ru === rw) {
          // Relocate u right after w, within the route.
          const moved = A.filter((c) => c !== u);
          moved.splice(moved.indexOf(w) + 1, 0, u);
          if (accept(ru, moved, ru, null) || orOpt(u, w)) improved = true;
          continue;
        }
        // Relocate u right after w, and right before w.
        for (const offset of [1, 0]) {
          const newA = A.slice(0, i).concat(A.slice(i + 1));
          const newB = B.slice();
          newB.splice(j + offset, 0, u);
          if (accept(ru, newA, rw, newB)) {
            improved = true;
            break;
          }
        }
        if (ws.routeOf[u] !== ru) continue;
        if (orOpt(u, w)) {
          improved = true;
          continue;
        }
        // Swap u and w.
        const swapA = A.slice();
        const swapB = B.slice();
        swapA[i] = w;
        swapB[j] = u;
        if (accept(ru, swapA, rw, swapB)) {
          improved = true;
          continue;
        }
        // 2-opt*: exchange the tails after u and after w, so u is followed by w's successor... and
        // the variant that makes u followed by w.
        const tailA = A.slice(0, i + 1).concat(B.slice(j + 1));
        const tailB = B.slice(0, j + 1).concat(A.slice(i + 1));
        if (accept(ru, tailA, rw, tailB)) {
          improved = true;
          continue;
        }
        const crossA = A.slice(0, i + 1).concat(B.slice(j));
        const crossB = B.slice(0, j).concat(A.slice(i + 1));
        if (accept(ru, crossA, rw, crossB)) improved = true;
      }
    }
    if (!improved) break;
  }
}
