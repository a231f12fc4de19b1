import { evaluateRoute, type RouteScore } from "./evaluator.js";
import type { Rng } from "./rng.js";
import type { Workspace } from "./workspace.js";

/** Steps a customer placed by an ejection is protected from being ejected in turn (no ping-pong). */
const TABU_STEPS = 12;
/** Longest route whose pairs of customers are tried for a double ejection (quadratic in its length). */
const PAIR_EJECTION_MAX_ROUTE = 40;

/** How far a route is from feasible: excess load first, then minutes late or over the working hours. */
function violationKey(ws: Workspace, s: RouteScore): [number, number] {
  return [s.capacityExcess, ws.violation(s)];
}

/**
 * Makes every route feasible by removing customers (they become unassigned): each time the one
 * whose removal leaves the least excess load, then the fewest minutes late, then the smallest
 * demand, then saves the most cost. Each choice re-scores the route once per customer; once
 * `stop` says so, the last customer goes instead (linear, for very long routes).
 */
export function stripViolations(ws: Workspace, stop: () => boolean = () => false): void {
  const p = ws.p;
  for (let v = 0; v < p.vehicleCount; v++) {
    // Locked stops stay: only the customers after them are taken off.
    const head = ws.lockedCount(v);
    while (!ws.scores[v]!.feasible && ws.routes[v]!.length > head) {
      const route = ws.routes[v]!;
      if (stop()) {
        ws.remove(route[route.length - 1]!);
        continue;
      }
      let pick = -1;
      let pickKey: number[] = [];
      for (let i = head; i < route.length; i++) {
        const rest = route.slice(0, i).concat(route.slice(i + 1));
        const s = evaluateRoute(p, v, rest);
        const key = [...violationKey(ws, s), p.demand[route[i]!]!, s.cost];
        if (pick < 0 || lexLess(key, pickKey)) {
          pick = i;
          pickKey = key;
        }
      }
      ws.remove(route[pick]!);
    }
  }
}

/** Whether key a comes before key b (lexicographic, 1e-9 ties). */
export function lexLess(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! < b[i]! - 1e-9) return true;
    if (a[i]! > b[i]! + 1e-9) return false;
  }
  return false;
}

/** Cheapest feasible position of `c` in `route` on vehicle v, or null. */
function bestPosition(ws: Workspace, v: number, route: number[], c: number): { position: number; cost: number } | null {
  let best: { position: number; cost: number } | null = null;
  const trial = route.slice();
  trial.splice(0, 0, c);
  for (let pos = 0; pos <= route.length; pos++) {
    if (pos > 0) [trial[pos - 1], trial[pos]] = [trial[pos]!, trial[pos - 1]!];
    const s = evaluateRoute(ws.p, v, trial);
    if (s.feasible && (!best || s.cost < best.cost)) best = { position: pos, cost: s.cost };
  }
  return best;
}

interface Ejection {
  vehicle: number;
  ejected: number[];
  position: number;
  /** Demand ejected (with a little noise), then the route's new cost: smaller is better. */
  key: [number, number];
}

/**
 * Places the workspace's unassigned customers, largest demand first, as tight bin packing needs:
 * at their cheapest feasible position when there is one, otherwise into a route from which one
 * customer (or two) of smaller total demand is ejected to make room; the ejected customers are
 * unassigned in turn and placed the same way. A customer just placed is not ejected again for a
 * few steps. Stops when everyone is placed, after `maxSteps`, or when `stop` says so.
 */
export function ejectionRepair(ws: Workspace, rng: Rng, stop: () => boolean, maxSteps: number): void {
  const p = ws.p;
  const all = Array.from({ length: p.vehicleCount }, (_, v) => v);
  const tabuUntil = new Int32Array(p.nodeCount);
  for (let step = 1; step <= maxSteps && ws.unassigned.length > 0; step++) {
    if (stop()) return;
    let c = ws.unassigned[0]!;
    for (const u of ws.unassigned) if (p.demand[u]! > p.demand[c]! || (p.demand[u] === p.demand[c] && rng.next() < 0.5)) c = u;
    const direct = ws.bestInsertions(c, 1, all)[0];
    if (direct) {
      ws.insert(c, direct.vehicle, direct.position);
      continue;
    }
    const chosen = bestEjection(ws, c, step, tabuUntil, rng);
    if (!chosen) {
      // Fits nowhere even with an ejection: make room at random and try again later.
      const v = rng.int(p.vehicleCount);
      const route = ws.routes[v]!;
      const head = ws.lockedCount(v);
      if (route.length > head) ws.remove(route[head + rng.int(route.length - head)]!);
      continue;
    }
    for (const e of chosen.ejected) ws.remove(e);
    ws.insert(c, chosen.vehicle, chosen.position);
    tabuUntil[c] = step + TABU_STEPS;
  }
}

function bestEjection(ws: Workspace, c: number, step: number, tabuUntil: Int32Array, rng: Rng): Ejection | null {
  const p = ws.p;
  let best: Ejection | null = null;
  const consider = (v: number, ejected: number[], rest: number[]) => {
    if (ws.scores[v]!.load - ejected.reduce((a, e) => a + p.demand[e]!, 0) + p.demand[c]! > p.capacity[v]! + 1e-9) return;
    const at = bestPosition(ws, v, rest, c);
    if (!at) return;
    const demandOut = ejected.reduce((a, e) => a + p.demand[e]!, 0) * (1 + 0.1 * rng.next());
    const key: [number, number] = [demandOut, at.cost - ws.scores[v]!.cost];
    if (!best || lexLess(key, best.key)) best = { vehicle: v, ejected, position: at.position, key };
  };
  for (let v = 0; v < p.vehicleCount; v++) {
    if (p.capacity[v]! + 1e-9 < p.demand[c]!) continue;
    const route = ws.routes[v]!;
    for (let i = ws.lockedCount(v); i < route.length; i++) {
      const e = route[i]!;
      if (tabuUntil[e]! > step) continue;
      consider(v, [e], route.slice(0, i).concat(route.slice(i + 1)));
    }
  }
  if (best) return best;
  for (let v = 0; v < p.vehicleCount; v++) {
    const route = ws.routes[v]!;
    if (p.capacity[v]! + 1e-9 < p.demand[c]! || route.length > PAIR_EJECTION_MAX_ROUTE) continue;
    for (let i = ws.lockedCount(v); i < route.length; i++) {
      if (tabuUntil[route[i]!]! > step) continue;
      for (let j = i + 1; j < route.length; j++) {
        if (tabuUntil[route[j]!]! > step) continue;
        consider(
          v,
          [route[i]!, route[j]!],
          route.filter((_, k) => k !== i && k !== j),
        );
      }
    }
  }
  return best;
}
