import { Budget } from "../core/budget.js";
import { travelRefusal } from "../core/travel.js";
import { evaluateSolution } from "../core/evaluator.js";
import { nearestNeighbours } from "../core/neighbours.js";
import {
  cloneSolution,
  loadRulesRefusal,
  lockedStopsRefusal,
  tripRulesRefusal,
  visitRulesRefusal,
  type CompiledProblem,
  type Solution,
} from "../core/problem.js";
import type { Strategy } from "../core/strategy.js";
import { hgs } from "../hgs/index.js";
import { pickRouteGroup } from "../decomposition/group.js";
import { RouteRotation } from "../decomposition/rotation.js";
import { decompositionRefusal, extractSubProblem, liftRoutes, MatrixPool } from "../decomposition/subproblem.js";
import { firstRoundShare } from "./settings.js";
import { decompositionSettings } from "../settings.js";
import { identicalVehiclesMismatch } from "../search/identical-vehicles-model.js";
import { bestLargeStart } from "./start.js";
import { FleetSqueeze, fleetFloor } from "./squeeze.js";
import { solverNow } from "../core/clock.js";
import { windowAwareNeighbours } from "../decomposition/window-near.js";
import { better, HelperGroups, standing, type GroupContext } from "./cooperative.js";
import { balanceRefusal } from "../core/evaluate-balance.js";

/** Up to this size the whole problem goes to hgs at once (it has the matrix there). */
const WHOLE_PROBLEM_CUSTOMERS = 300;

/** Why the large strategy cannot take a problem, or null. */
function refusal(p: CompiledProblem): string | null {
  if (p.customers.length < 2) return "it needs at least two customers";
  if (p.vehicleCount === 0) return "there are no vehicles";
  return decompositionRefusal(p);
}

/**
 * Empty vehicles offered to a group, so that it can open a route: one of each kind (depots,
 * capacity, costs, speed) among the empty vehicles that start at one of the group's depots (any
 * depot when none does), at most MAX_SPARE_KINDS. With identical vehicles: the first empty one.
 */
const MAX_SPARE_KINDS = 3;
function spareVehicles(p: CompiledProblem, routes: readonly number[][], group: readonly number[]): number[] {
  const depots = new Set(group.map((v) => p.startNode[v]!));
  const kinds = new Map<string, number>();
  const others = new Map<string, number>();
  for (let v = 0; v < routes.length && kinds.size < MAX_SPARE_KINDS; v++) {
    if (routes[v]!.length > 0) continue;
    const kind = `${p.startNode[v]},${p.endNode[v]},${p.capacity[v]},${p.fixedCost[v]},${p.unitCost[v]},${p.time?.speed[v] ?? 0}`;
    const into = depots.has(p.startNode[v]!) ? kinds : others;
    if (!into.has(kind)) into.set(kind, v);
  }
  if (kinds.size > 0) return [...kinds.values()];
  return [...others.values()].slice(0, 1);
}

/**
 * Large problems (thousands of customers): a first solution from the savings (largeStart; a
 * feasible solution within seconds even at 30,000 customers), then improvement by
 * decomposition: a group of neighbouring routes with about SUB_PROBLEM_CUSTOMERS customers (and
 * at least three routes; settings.ts), seeded by a route that goes round the solution
 * (decomposition/rotation.ts), becomes a small problem of its own with a dense matrix, in which
 * every route keeps its vehicle (depots, capacity, costs, speed) and every stop its window and
 * service time (decomposition/subproblem.ts); hgs searches it for SUB_SECONDS (more for a larger
 * group) from the group's current routes, and the result replaces the group when it is cheaper
 * (or, while the start breaks hard rules, when fewer of its routes do). Windows, several depots
 * and mixed fleets are the sub-problem's own; the large problem needs no full matrix (distances
 * from coordinates). On identical vehicles without windows, some groups instead try to eliminate
 * the least-loaded route while the solution uses more routes than the demand needs (squeeze.ts).
 */
export const large: Strategy = {
  name: "large",
  kind: "search",
  cooperative: true,
  features: ["capacities", "distance_matrix", "time_windows", "multiple_depots", "mixed_fleet", "min_vehicles"],
  supports(p) {
    const reason =
      refusal(p) ??
      loadRulesRefusal(p, "large") ??
      lockedStopsRefusal(p, "large") ??
      balanceRefusal(p, "large") ??
      tripRulesRefusal(p, "large") ??
      visitRulesRefusal(p, "large") ??
      travelRefusal(p, "large", large.features);
    return reason ? { ok: false, reason: `the large strategy cannot take this request: ${reason}` } : { ok: true };
  },
  solve(p: CompiledProblem, budget: Budget, initial?: Solution): Solution {
    const startedMs = solverNow();
    // A problem that one sub-problem would cover is hgs's own (it also stops early on tiny ones).
    if (p.customers.length <= WHOLE_PROBLEM_CUSTOMERS && hgs.supports(p).ok) return hgs.solve(p, budget, initial);
    const settings = decompositionSettings(p, identicalVehiclesMismatch(p) === null, budget.overrides);
    // A given plan (initial_routes) that serves every customer once is the start; else the built one.
    const given = initial ? evaluateSolution(p, initial) : null;
    const current =
      initial && given!.missing.length === 0 && given!.duplicated.length === 0 && initial.routes.length === p.vehicleCount
        ? cloneSolution(initial)
        : bestLargeStart(p, startedMs, budget.deadlineMs, () => budget.exhausted(), settings.startShare);
    const score = evaluateSolution(p, current);
    if (score.feasible) budget.improved(cloneSolution(current));
    if (score.missing.length > 0 && hgs.supports(p).ok) {
      // Decomposition only reshuffles routes; it cannot place customers the savings left out (a
      // fleet too small for its routes). hgs can, searching through overloaded routes, when it
      // has the matrix; without it, the groups can still mend broken routes below.
      return hgs.solve(p, budget, current);
    }

    // hgs through its Strategy interface only: a black box on each small dense sub-problem.
    const subSolver: Strategy = hgs;
    const near = settings.windowGroups ? windowAwareNeighbours(p) : nearestNeighbours(p, 20);
    const routeOf = new Int32Array(p.nodeCount).fill(-1);
    current.routes.forEach((r, v) => r.forEach((c) => (routeOf[c] = v)));
    const target = Math.min(settings.customers, p.customers.length);
    let broken = score.routes.filter((r) => !r.feasible).length;
    const complete = score.missing.length === 0 && score.duplicated.length === 0;

    // Full rounds the rest of the budget allows (a round: every route in one group of `target` customers).
    const roundSeconds = (settings.seconds * p.customers.length) / Math.max(1, target);
    const firstShare = firstRoundShare(settings, (budget.deadlineMs - solverNow()) / 1000 / roundSeconds);
    const pool = new MatrixPool();
    const rotation = settings.rotation ? new RouteRotation(p.vehicleCount) : null;
    const floor = settings.squeeze ? fleetFloor(p) : null;
    const squeeze = floor === null ? null : new FleetSqueeze(floor, p.vehicleCount);
    // Other workers' help (cooperative.ts): absent, or with none available, nothing below changes.
    const helped = budget.helpers ? new HelperGroups(budget.helpers, p.vehicleCount) : null;
    const adopt = (vehicles: number[], routes: number[][], mended: number) => {
      squeeze?.changed(vehicles);
      routes.forEach((route, k) => {
        const v = vehicles[k]!;
        current.routes[v] = route;
        for (const c of route) routeOf[c] = v;
      });
      broken -= mended;
      // No other route changed: the whole is feasible when no route breaks a rule any more.
      if (broken === 0 && complete) budget.improved(cloneSolution(current));
    };
    const shared: GroupContext = {
      p,
      current,
      routeOf,
      near,
      target,
      seconds: settings.seconds,
      rng: budget.rng,
      deadlineMs: budget.deadlineMs,
      rotation,
      spares: (group) => spareVehicles(p, current.routes, group),
    };
    while (!budget.tick()) {
      if (helped) {
        helped.merge(shared, adopt);
        helped.offer(shared);
      }
      // Route elimination (squeeze.ts) once the first round has harvested the easy gains.
      if (squeeze && broken === 0 && (rotation?.rounds ?? 2) >= 2 && squeeze.due(current.routes)) {
        const context = { p, current, routeOf, near, target, seconds: settings.seconds, solver: subSolver, pool, budget };
        if (squeeze.attempt(context) && complete) budget.improved(cloneSolution(current));
        continue;
      }
      const seed = rotation ? rotation.next(current.routes, budget.rng) : -1;
      if (helped?.isReserved(seed)) continue;
      const group = pickRouteGroup(current.routes, helped?.visible(routeOf) ?? routeOf, near, target, budget.rng, seed);
      rotation?.cover(group);
      const vehicles = [...group, ...spareVehicles(p, current.routes, group)];
      const sub = extractSubProblem(
        p,
        vehicles,
        vehicles.map((v) => current.routes[v]!),
        pool,
      );
      if (sub.problem.customers.length < 2) continue;
      const before = standing(sub.problem, sub.start);
      const share = rotation && rotation.rounds <= 1 ? firstShare : 1;
      const seconds = (share * settings.seconds * Math.max(target, sub.problem.customers.length)) / target;
      const subBudget = new Budget(
        Math.min(budget.deadlineMs, solverNow() + seconds * 1000),
        budget.rng.int(2 ** 31),
        Number.POSITIVE_INFINITY,
        () => budget.exhausted(),
        budget.overrides,
      );
      const found = subSolver.solve(sub.problem, subBudget, sub.start);
      const after = standing(sub.problem, found);
      if (!better(after, before)) continue;
      adopt(vehicles, liftRoutes(sub, found), before.broken - after.broken);
    }
    if (squeeze) budget.overrides.trace?.(`squeeze: ${squeeze.successes} of ${squeeze.attempts} attempts eliminated a route`);
    return current;
  },
};
