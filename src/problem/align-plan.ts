import { evaluateAnswer, type AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import type { SolveRequestInput } from "./request-types.js";

/** Per-vehicle fields that are the plan itself, not a property of the vehicle. */
const PLAN_FIELDS = new Set(["initial_routes", "vehicle_locked_stops"]);

/**
 * Vehicles that differ in nothing (same start and end, capacities, costs, speeds, skills, shifts,
 * limits: every per-vehicle field of the request) serve each other's routes at the same cost.
 * Returns a class id per vehicle; a vehicle with locked stops is a class of its own.
 */
function interchangeable(request: SolveRequestInput): number[] {
  const count = request.vehicle_num;
  const fields = Object.entries(request).filter(
    ([key, value]) =>
      !PLAN_FIELDS.has(key) && Array.isArray(value) && value.length === count && /^(vehicle|start_nodes|end_nodes)/.test(key),
  );
  const locked = (request as { vehicle_locked_stops?: number[] }).vehicle_locked_stops;
  const ids = new Map<string, number>();
  return Array.from({ length: count }, (_, v) => {
    const key = (locked?.[v] ?? 0) > 0 ? `locked ${v}` : JSON.stringify(fields.map(([, value]) => (value as unknown[])[v]));
    if (!ids.has(key)) ids.set(key, ids.size);
    return ids.get(key)!;
  });
}

/**
 * A re-plan's answer with its routes handed to the vehicles that drove most of their stops in the
 * given plan, among vehicles that are interchangeable, so that a driver keeps what nothing forces
 * away from them. Only routes move between identical vehicles, so the cost is the same; the
 * result is evaluated and the answer is left as it was if anything differs. The assignment is
 * greedy by the stops in common (largest first), not an optimal matching. Returns the evaluation
 * of the answer kept.
 */
export function alignAnswer(
  problem: CompiledProblem,
  request: SolveRequestInput,
  answer: AnswerEvaluation,
  plan: Solution,
): AnswerEvaluation {
  const solution = answer.solution;
  const routes = alignedRoutes(problem, request, solution, plan);
  if (routes.every((route, v) => sameRoute(route, solution.routes[v]!))) return answer;
  const before = answer.score;
  const aligned = evaluateAnswer(problem, { routes });
  const after = aligned.score;
  const same = after.feasible === before.feasible && Math.abs(after.cost - before.cost) <= 1e-9 * Math.max(1, Math.abs(before.cost));
  return same ? aligned : answer;
}

/** alignAnswer for a caller that holds the solution only: it is evaluated here. */
export function alignWithPlan(problem: CompiledProblem, request: SolveRequestInput, solution: Solution, plan: Solution): Solution {
  return alignAnswer(problem, request, evaluateAnswer(problem, solution), plan).solution;
}

function sameRoute(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((c, k) => c === b[k]);
}

/** Each class of interchangeable vehicles' routes, handed to the vehicles with the most stops in common. */
function alignedRoutes(problem: CompiledProblem, request: SolveRequestInput, solution: Solution, plan: Solution): number[][] {
  const classOf = interchangeable(request);
  const previous = new Int32Array(problem.nodeCount).fill(-1);
  plan.routes.forEach((route, v) => route.forEach((c) => (previous[c] = v)));
  const routes: number[][] = solution.routes.map((r) => r.slice());
  const classes = new Map<number, number[]>();
  classOf.forEach((k, v) => classes.set(k, [...(classes.get(k) ?? []), v]));
  for (const members of classes.values()) {
    if (members.length < 2) continue;
    const pairs: { route: number; vehicle: number; common: number }[] = [];
    for (const r of members) {
      const common = new Map<number, number>();
      for (const c of solution.routes[r]!) if (previous[c]! >= 0) common.set(previous[c]!, (common.get(previous[c]!) ?? 0) + 1);
      for (const v of members) pairs.push({ route: r, vehicle: v, common: common.get(v) ?? 0 });
    }
    pairs.sort((a, b) => b.common - a.common || a.route - b.route || a.vehicle - b.vehicle);
    const routeDone = new Set<number>();
    const vehicleTaken = new Set<number>();
    for (const p of pairs) {
      if (p.common === 0 || routeDone.has(p.route) || vehicleTaken.has(p.vehicle)) continue;
      routeDone.add(p.route);
      vehicleTaken.add(p.vehicle);
      routes[p.vehicle] = solution.routes[p.route]!.slice();
    }
    // The other routes go to the other vehicles of the class, in their order.
    const freeVehicles = members.filter((v) => !vehicleTaken.has(v));
    members.filter((r) => !routeDone.has(r)).forEach((r, k) => (routes[freeVehicles[k]!] = solution.routes[r]!.slice()));
  }
  return routes;
}
