import { evaluateRoute, type RouteScore } from "../core/evaluator.js";
import { hasDenseMatrix, type CompiledProblem } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import type { Workspace } from "../core/workspace.js";
import { LocalSearch } from "../search/local-search.js";
import { PenaltyManager } from "../search/penalty-manager.js";
import type { PerVehiclePricing } from "../search/pricing/per-vehicle.js";
import { buildProblemData, type ProblemData } from "../search/problem-data.js";
import { Routes } from "../search/routes.js";
import { looksFeasible, recordOutcome, snapshot } from "./snapshot.js";

/** Raised prices for a second and third try when an education ends infeasible (as the general iterated search repairs). */
const REPAIR_FACTORS = [10, 100] as const;
const EPS = 1e-9;

/**
 * The one local search (search/local-search.ts, priced per vehicle) on a Workspace's routes, for the
 * searches that keep their solutions as evaluator-scored lists (ALNS, the sweep construction).
 * The search runs on a penalised cost with adaptive prices (search/penalty-manager.ts); its routes come
 * back into the Workspace only when the trusted evaluator finds them no worse on the Workspace's
 * own objective and within what it allows (never over capacity; late or too long only when a
 * violation weight is set), so a caller that works in the feasible space stays there.
 */
export class WorkspaceSearch {
  readonly m: ProblemData;
  readonly rs: Routes;
  readonly ls: LocalSearch<PerVehiclePricing>;
  private readonly penalties: PenaltyManager;

  constructor(readonly p: CompiledProblem) {
    this.m = buildProblemData(p);
    this.rs = new Routes(this.m);
    this.ls = LocalSearch.perVehicle(this.rs);
    this.penalties = PenaltyManager.forProblem(this.m);
    this.rs.penalties = this.penalties.current;
  }

  /**
   * Educates ws's routes to a local optimum of the one search (or until `stop()`), repairing an
   * infeasible outcome at raised prices; writes the result back when the evaluator accepts it.
   * Only routes rewritten since the last call are searched again (the search's modification marks).
   * Whether ws changed.
   */
  educate(ws: Workspace, rng: Rng, stop: () => boolean): boolean {
    const { rs, ls, penalties } = this;
    if (penalties.adapt()) {
      rs.penalties = penalties.current;
      rs.reprice();
      ls.forget();
    }
    rs.loadRoutes(ws.routes);
    ls.run(rng, stop);
    let result = snapshot(rs);
    recordOutcome(penalties, result);
    if (!looksFeasible(result) && ws.violationWeight <= 0) {
      for (const factor of REPAIR_FACTORS) {
        rs.penalties = penalties.scaled(factor);
        rs.reprice();
        ls.revisitViolating();
        ls.run(rng, stop);
        result = snapshot(rs);
        if (looksFeasible(result)) break;
      }
      rs.penalties = penalties.current;
      rs.reprice();
      ls.revisitViolating();
    }
    return this.writeBack(ws, result.routes);
  }

  /**
   * Improves each route of ws by its own moves alone (relocate, swap, 2-opt within it): a
   * construction's polish. Each route is judged on its own: kept when the evaluator finds it
   * allowed and no dearer (without a time dimension such a move only shortens a route).
   */
  polishRoutes(ws: Workspace): void {
    const { rs, ls } = this;
    rs.loadRoutes(ws.routes);
    for (let v = 0; v < ws.routes.length; v++) {
      if (ws.routes[v]!.length < 3) continue;
      ls.improveWithin(v);
      const routes = ws.routes.slice();
      routes[v] = Array.from(rs.seq[v]!.subarray(1, rs.length[v]! + 1));
      this.writeBack(ws, routes);
    }
  }

  /** Writes `routes` into ws if the evaluator finds the changed routes allowed and no dearer in sum; whether it did. */
  private writeBack(ws: Workspace, routes: number[][]): boolean {
    const p = this.p;
    const changed: number[] = [];
    const scores: RouteScore[] = [];
    let before = 0;
    let after = 0;
    for (let v = 0; v < ws.routes.length; v++) {
      const route = routes[v]!;
      if (route === ws.routes[v] || sameList(ws.routes[v]!, route)) continue;
      const score = evaluateRoute(p, v, route);
      if (score.capacityExcess > EPS || (!score.feasible && ws.violationWeight <= 0)) return false;
      changed.push(v);
      scores.push(score);
      before += ws.searchCost(ws.scores[v]!);
      after += ws.searchCost(score);
    }
    if (changed.length === 0 || after > before + EPS) return false;
    changed.forEach((v, k) => ws.setRoute(v, routes[v]!, scores[k]!));
    return true;
  }
}

/** The feasibility phase's polish of its packed routes (core/feasibility.ts RoutePolish): where the matrix is whole. */
export function polishRoutes(ws: Workspace): void {
  if (hasDenseMatrix(ws.p)) new WorkspaceSearch(ws.p).polishRoutes(ws);
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
