import type { Budget } from "./budget.js";
import { ejectionRepair, stripViolations } from "./ejection-repair.js";
import { evaluateSolution } from "./evaluator.js";
import { regretInsertion } from "./repair.js";
import { packFleet } from "./fleet-packing.js";
import { normaliseScale } from "./normalise.js";
import { cloneSolution, type CompiledProblem, type Solution } from "./problem.js";
import type { Strategy } from "./strategy.js";
import { Workspace } from "./workspace.js";
import { comparePlans, planRank } from "./plan-order.js";
import { solverNow } from "./clock.js";
import { plansTrips, timeOrientedTrips } from "./time-oriented-trips.js";
import { repairTrips } from "./trip-repair.js";

/**
 * Share of the budget after which a search that has not reported a feasible solution yet is
 * paused for the feasibility phase (from scratch, at most PHASE_SHARE of the budget): when the
 * phase finds a feasible solution, the search is stopped and restarted from it for the rest of
 * the time; when it does not, the search goes on undisturbed (some searches find their first
 * feasible solution late, as ALNS can on large instances with binding windows).
 */
export const FEASIBILITY_CHECKPOINT = 0.5;
/**
 * A search still without a feasible solution at this share of the budget stops, so that the
 * phase can repair its answer with the time that is left.
 */
export const REPAIR_CHECKPOINT = 0.9;
/** Most of the budget the phase may take at FEASIBILITY_CHECKPOINT. */
const PHASE_SHARE = 0.15;
/** Ejection steps per customer in each repair (a safety bound; the deadline is the other). */
const STEPS_PER_CUSTOMER = 30;
/** The phase may overrun an exhausted budget by this much (it then has at least this long). */
const MIN_PHASE_MS = 100;

/**
 * Orders each route of a Workspace better in place, keeping it feasible (the caller's local search:
 * core/ sits below the searches, so the service passes the one search's polish, ils/workspace-search.ts).
 */
export type RoutePolish = (ws: Workspace) => void;

/** The better feasible of two solutions (plan-order.ts), or null when neither is feasible. */
function cheaperFeasible(p: CompiledProblem, a: Solution | null, b: Solution | null): Solution | null {
  const score = (s: Solution | null) => (s ? evaluateSolution(p, s) : null);
  const sa = score(a);
  const sb = score(b);
  if (sa?.feasible && (!sb?.feasible || comparePlans(planRank(p, a!, sa.cost), planRank(p, b!, sb.cost)) <= 0)) return a;
  return sb?.feasible ? b : null;
}

/**
 * Runs `strategy` so that it never ends infeasible while a feasible solution is within reach:
 * the feasibility phase (restoreFeasibility) runs at FEASIBILITY_CHECKPOINT from scratch, and at
 * the end (or at REPAIR_CHECKPOINT) from the strategy's answer, and the strategy continues from
 * what the phase found for the time that is left. The answer is the cheapest feasible solution
 * seen, if any. Every strategy's infeasible end goes through here (solveRequest calls it). The
 * problem is first brought to the scale the searches are made for (normalise.ts). `initial`: a
 * plan to start the search from (initial_routes).
 */
export function solveFeasibly(
  strategy: Strategy,
  original: CompiledProblem,
  budget: Budget,
  initial?: Solution,
  polish?: RoutePolish,
): Solution {
  // In units where the searches' tolerances fit (normalise.ts); the routes answer the original.
  const p = normaliseScale(original);
  const total = budget.deadlineMs - solverNow();
  let found: Solution | null = null;
  budget.setFeasibilityCheckpoint(FEASIBILITY_CHECKPOINT, () => {
    found = restoreFeasibility(p, budget, undefined, Math.min(budget.deadlineMs, solverNow() + PHASE_SHARE * total), polish);
    if (found) {
      budget.improved(cloneSolution(found));
      return true;
    }
    budget.setFeasibilityCheckpoint(REPAIR_CHECKPOINT);
    return false;
  });
  // A given plan (initial_routes) is where the search starts.
  const first = initial ? strategy.solve(p, budget, initial) : strategy.solve(p, budget);
  const interrupted = budget.checkpointReached;
  budget.setFeasibilityCheckpoint(null);
  let best = cheaperFeasible(p, first, found);
  if (!best) {
    best = restoreFeasibility(p, budget, first, budget.deadlineMs, polish);
    if (best) budget.improved(cloneSolution(best));
  }
  if (!interrupted || budget.exhausted()) return best ?? first;
  const second = strategy.solve(p, budget, best ?? first);
  return cheaperFeasible(p, second, best) ?? second;
}

/**
 * The feasibility phase: tries, in turn, (1) to salvage `from` (the search's infeasible answer):
 * customers are taken off violating routes and put back, largest demand first, with ejections
 * where nothing fits (ejection-repair.ts); (2) a construction from scratch by regret insertion,
 * completed the same way; (2b) a fleet-aware construction from scratch, the largest demands
 * placed first into the actual vehicles, with ejections; (3) without a time dimension,
 * a bin packing of the demands into the vehicles by capacity (fleet-packing.ts), each vehicle's
 * customers then ordered by cheapest insertion and `polish` (when given). Locked stops stay at their
 * routes' heads in (1)-(2b); (3) is skipped under them. Vehicles that reload get none of these,
 * which plan no reload stops: under hard windows and without locks, the time-oriented plan with
 * trips (time-oriented-trips.ts) instead, or when it leaves customers out, the trip repair
 * (trip-repair.ts) of `from` and then of that plan. The first feasible solution (checked by the evaluator)
 * is returned; null when none is found by `untilMs` (solverNow() clock; it has at least MIN_PHASE_MS).
 */
export function restoreFeasibility(
  p: CompiledProblem,
  budget: Budget,
  from?: Solution,
  untilMs = budget.deadlineMs,
  polish?: RoutePolish,
): Solution | null {
  const hardStop = Math.max(untilMs, solverNow() + MIN_PHASE_MS);
  const stop = () => solverNow() >= hardStop;
  const steps = STEPS_PER_CUSTOMER * Math.max(1, p.customers.length);
  const feasible = (s: Solution) => evaluateSolution(p, s).feasible;

  // The repairs and constructions below plan no reload stops. On vehicles that reload under hard
  // windows: the time-oriented plan with trips, else the trip repair of the search's answer, then of
  // that plan; otherwise the search's time is better spent.
  if (p.trips?.reloadNodes.some((nodes) => nodes.length > 0)) {
    if (!plansTrips(p)) return null;
    const plan = timeOrientedTrips(p);
    if (feasible(plan)) return plan;
    // The search's answer may have half the time: a repair that cannot finish it leaves the plan the rest.
    const half = solverNow() + (hardStop - solverNow()) / 2;
    // repairTrips answers only plans the evaluator calls feasible.
    const fromRepaired = from ? repairTrips(p, from, budget.rng, () => solverNow() >= half, steps) : null;
    return fromRepaired ?? repairTrips(p, plan, budget.rng, stop, steps);
  }
  if (from) {
    const ws = new Workspace(p, sanitised(p, from));
    stripViolations(ws, stop);
    ejectionRepair(ws, budget.rng, stop, steps);
    if (ws.isFeasible() && feasible(ws.solution())) return ws.solution();
  }
  if (stop()) return null;
  // From scratch (from the locked stops, which stay at their routes' heads): regret insertion
  // (which places hard-to-place customers first), then ejections.
  const fresh = new Workspace(p, lockedHeads(p));
  regretInsertion(fresh, 2);
  ejectionRepair(fresh, budget.rng, stop, steps);
  if (fresh.isFeasible() && feasible(fresh.solution())) return fresh.solution();
  if (stop()) return null;
  // From scratch again, the largest demands first: a fleet-aware bin packing with routes.
  const packing = new Workspace(p, lockedHeads(p));
  ejectionRepair(packing, budget.rng, stop, steps);
  if (packing.isFeasible() && feasible(packing.solution())) return packing.solution();

  // The bin packing knows no locked stops.
  if (p.time || p.locks || stop()) return null;
  const vehicleOf = packFleet(p, budget.rng, stop);
  if (!vehicleOf) return null;
  const packed = routesFromPacking(p, vehicleOf, polish);
  return feasible(packed) ? packed : null;
}

/** Each vehicle's customers as a route: cheapest insertion, then `polish` (the one search's moves within each route). */
function routesFromPacking(p: CompiledProblem, vehicleOf: Int32Array, polish?: RoutePolish): Solution {
  const ws = new Workspace(p);
  const byDemand = Array.from(p.customers).sort((a, b) => p.demand[b]! - p.demand[a]! || a - b);
  for (const c of byDemand) {
    const v = vehicleOf[c]!;
    const best = ws.bestInsertions(c, 1, [v])[0];
    ws.insert(c, v, best ? best.position : ws.routes[v]!.length);
  }
  polish?.(ws);
  return ws.solution();
}

/** Each vehicle's locked stops as its route (undefined without locks: every route empty). */
function lockedHeads(p: CompiledProblem): Solution | undefined {
  return p.locks ? { routes: p.locks.stops.map((head) => Array.from(head)) } : undefined;
}

/** `from` with one route per vehicle, customers only, each at most once. */
function sanitised(p: CompiledProblem, from: Solution): Solution {
  const seen = new Uint8Array(p.nodeCount);
  const routes = Array.from({ length: p.vehicleCount }, (_, v) =>
    (from.routes[v] ?? []).filter((c) => Number.isInteger(c) && c >= 0 && c < p.nodeCount && !p.isDepot[c] && !seen[c] && (seen[c] = 1)),
  );
  return { routes };
}
