import type { components } from "../../generated/api.js";
import type { AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import { routeAcceptable } from "../../strategies/core/evaluate-breaches.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { isAllowed, mustServe } from "./service-diagnostics.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";
import { groupUnassigned } from "./visit-violations.js";

export type UnassignedNode = components["schemas"]["UnassignedNode"];
type Infeasibility = components["schemas"]["Infeasibility"];
type Reason = UnassignedNode["reason"];

/** The proven kinds that name a node, best first, and the `unassigned` reason each becomes. */
const PROVEN: [Infeasibility["kind"], Reason][] = [
  ["no_vehicle_with_skills", "no_vehicle_with_skills"],
  ["demand_exceeds_capacity", "demand_exceeds_capacity"],
  ["window_unreachable", "window_unreachable"],
  // The end node's window cannot be reached after serving it: its windows rule it out too.
  ["return_too_late", "window_unreachable"],
  ["shift_too_short", "shift_too_short"],
  ["working_hours_too_short", "working_hours_too_short"],
  ["distance_limit", "distance_limit"],
];

/**
 * Route evaluations (in customers visited) spent pricing insertions, per result: enough for a
 * few hundred unserved customers against a plan of a thousand, small beside a solve.
 */
export const DEFAULT_PRICING_BUDGET = 4_000_000;

/**
 * One entry per unserved customer, ascending by node: the proven reason when the pre-check has
 * one (the same message and evidence as the validate report), else what the returned plan shows
 * (every allowed vehicle at its stops cap; the cheapest feasible insertion against the skip
 * penalty; no feasible insertion at all).
 */
export function unassignedEntries(
  p: CompiledProblem,
  answer: AnswerEvaluation,
  unserved: readonly number[],
  proven: readonly Infeasibility[],
  budget = DEFAULT_PRICING_BUDGET,
): UnassignedNode[] {
  const byNode = new Map<number, Infeasibility[]>();
  for (const i of proven) if (i.node !== undefined) byNode.set(i.node, [...(byNode.get(i.node) ?? []), i]);
  const s = answer.solution;
  let work = 0;
  for (const route of s.routes) work += (route.length + 1) * (route.length + 2);
  const priceable = work * unserved.length <= budget;
  const routeCosts = priceable ? answer.routes.map((r) => r.score.cost) : [];
  return [...unserved]
    .sort((a, b) => a - b)
    .map((c) => {
      const reasons = byNode.get(c) ?? [];
      for (const [kind, reason] of PROVEN) {
        const found = reasons.find((i) => i.kind === kind);
        if (found) return { node: c, reason, message: found.message, evidence: found.evidence };
      }
      return groupUnassigned(p, c) ?? planReason(p, s, c, priceable ? routeCosts : null);
    });
}

function planReason(p: CompiledProblem, s: Solution, c: number, routeCosts: number[] | null): UnassignedNode {
  const rules = p.rules!;
  const allowed = allowedVehicles(p, c);
  if (allowed.length > 0 && allowed.every((v) => s.routes[v]!.length >= rules.maxStops[v]!)) {
    const total = allowed.reduce((sum, v) => sum + rules.maxStops[v]!, 0);
    return {
      node: c,
      reason: "stops_limit",
      message:
        `node ${c} was left out: every vehicle allowed to serve it already visits its ` +
        `vehicle_max_stops (${allowed.length} vehicle(s), ${total} stops in all)`,
      evidence: { allowed_vehicles: allowed.length, total_max_stops: total },
    };
  }
  const insertion = routeCosts ? (cheapestInsertion(p, s, c, allowed, routeCosts)?.delta ?? null) : undefined;
  if (insertion === null) {
    return {
      node: c,
      reason: "no_feasible_insertion",
      message: `node ${c} was left out: no route of this plan, a new one included, can take it without breaking a hard constraint`,
      evidence: {},
    };
  }
  if (!mustServe(p, c)) {
    const penalty = rules.skipPenalty[c]!;
    if (insertion === undefined) {
      return {
        node: c,
        reason: "skipped_cheaper",
        message: `node ${c} is optional and was left out at its skip penalty ${evidenceNumber(penalty)}`,
        evidence: { skip_penalty: penalty },
      };
    }
    const cost = withoutDust(insertion);
    const message =
      cost >= penalty
        ? `node ${c} is optional and was left out: its skip penalty ` +
          `${evidenceNumber(penalty)} is less than the ${evidenceNumber(cost)} its ` +
          `cheapest feasible insertion into this plan would add`
        : `node ${c} is optional and was left out at its skip penalty ` +
          `${evidenceNumber(penalty)} (its cheapest feasible insertion into this plan ` +
          `would add ${evidenceNumber(cost)})`;
    return { node: c, reason: "skipped_cheaper", message, evidence: { skip_penalty: penalty, insertion_cost: cost } };
  }
  // A required customer with a feasible insertion is placed before the result is built (complete-plan.ts);
  // here only when the plan was too large to price.
  return {
    node: c,
    reason: "no_feasible_insertion",
    message: `node ${c} was left out: the solver found no feasible route that takes it`,
    evidence: {},
  };
}

/** The vehicles with every skill customer c needs. */
export function allowedVehicles(p: CompiledProblem, c: number): number[] {
  const allowed: number[] = [];
  for (let v = 0; v < p.vehicleCount; v++) if (isAllowed(p, v, c)) allowed.push(v);
  return allowed;
}

export interface Insertion {
  vehicle: number;
  position: number;
  /** What the insertion adds to the routes' cost. */
  delta: number;
}

/**
 * The cheapest feasible insertion of c over the given vehicles and every position (an empty
 * route included: a new route); null when none is feasible. `routeCosts[v]` is route v's cost now.
 */
export function cheapestInsertion(
  p: CompiledProblem,
  s: Solution,
  c: number,
  allowed: readonly number[],
  routeCosts: readonly number[],
): Insertion | null {
  let best: Insertion | null = null;
  for (const v of allowed) {
    const route = s.routes[v]!;
    const candidate = [...route, c];
    for (let k = route.length; k >= 0; k--) {
      // candidate = route with c at position k
      if (k < route.length) {
        candidate[k + 1] = route[k]!;
        candidate[k] = c;
      }
      const score = evaluateRoute(p, v, candidate);
      if (!routeAcceptable(p, v, candidate, score)) continue;
      const delta = score.cost - routeCosts[v]!;
      if (best === null || delta < best.delta) best = { vehicle: v, position: k, delta };
    }
  }
  return best;
}
