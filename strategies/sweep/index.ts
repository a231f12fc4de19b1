import { baseRulesRefusal } from "../core/base-rules-refusal.js";
import type { Budget } from "../core/budget.js";
import { denseMatrixRefusal, type CompiledProblem, type Solution } from "../core/problem.js";
import { regretInsertion } from "../core/repair.js";
import type { Strategy } from "../core/strategy.js";
import { WorkspaceSearch } from "../ils/workspace-search.js";
import { Workspace } from "../core/workspace.js";

/**
 * Polar sweep: customers ordered by angle around the first vehicle's depot, cut into routes
 * that fill the vehicles largest first (each customer at its cheapest feasible position in the
 * current route), for several starting angles. Needs coordinates.
 */
export function sweepSolution(p: CompiledProblem, startIndex: number, polish: WorkspaceSearch | null): Solution {
  const coords = p.coords!;
  const depot = p.startNode[0]!;
  const cx = coords[2 * depot]!;
  const cy = coords[2 * depot + 1]!;
  const byAngle = Array.from(p.customers).sort(
    (a, b) => Math.atan2(coords[2 * a + 1]! - cy, coords[2 * a]! - cx) - Math.atan2(coords[2 * b + 1]! - cy, coords[2 * b]! - cx),
  );
  const order = byAngle.slice(startIndex).concat(byAngle.slice(0, startIndex));
  const vehicles = Array.from({ length: p.vehicleCount }, (_, v) => v).sort((a, b) => p.capacity[b]! - p.capacity[a]!);
  const ws = new Workspace(p);
  let k = 0;
  for (const c of order) {
    while (k < vehicles.length) {
      const v = vehicles[k]!;
      const best = ws.bestInsertions(c, 1, [v])[0];
      if (best && Number.isFinite(best.delta)) {
        ws.insert(c, v, best.position);
        break;
      }
      if (ws.routes[v]!.length === 0) break; // fits no fresh vehicle of this kind: leave for repair
      k++;
    }
  }
  regretInsertion(ws, 2);
  polish?.polishRoutes(ws);
  return ws.solution();
}

export const sweep: Strategy = {
  name: "sweep",
  kind: "construction",
  features: ["capacities", "time_windows", "multiple_depots", "mixed_fleet", "min_vehicles"],
  supports: (p) => {
    if (!p.coords) return { ok: false, reason: "the sweep strategy needs node_positions (coordinates)" };
    const refusal = denseMatrixRefusal(p, "sweep") ?? baseRulesRefusal(p, "sweep", sweep.features);
    return refusal ? { ok: false, reason: refusal } : { ok: true };
  },
  solve(p: CompiledProblem, budget: Budget): Solution {
    const count = p.customers.length;
    const tries = Math.min(count, 24);
    // Without a time dimension each route is polished by the one search's moves within it.
    const polish = p.time ? null : new WorkspaceSearch(p);
    let best: Solution | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    for (let t = 0; t < Math.max(1, tries); t++) {
      const candidate = sweepSolution(p, Math.floor((t * count) / Math.max(1, tries)), polish);
      const cost = new Workspace(p, candidate).cost();
      if (cost < bestCost) {
        bestCost = cost;
        best = candidate;
      }
      if (budget.tick()) break;
    }
    return best!;
  },
};
