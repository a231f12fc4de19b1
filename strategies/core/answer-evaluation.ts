import {
  breaksAny,
  loadBreaches,
  routeBreaches,
  shipmentBreaches,
  type LoadBreaches,
  type RuleBreaches,
  type ShipmentBreach,
} from "./evaluate-breaches.js";
import { isReloadStop } from "./evaluate-trips.js";
import { groupBreaches, loadConflicts, rideExcess, type GroupBreach, type VisitBreaches } from "./evaluate-visits.js";
import { evaluateStops, type StopEvaluation } from "./evaluate-stops.js";
import { evaluateSolution, type RouteSchedule, type RouteScore, type SolutionScore } from "./evaluator.js";
import type { CompiledProblem, Solution } from "./problem.js";

export type { StopEvaluation } from "./evaluate-stops.js";
export type { LoadBreaches, RuleBreaches, ShipmentBreach } from "./evaluate-breaches.js";
export type { GroupBreach, VisitBreaches } from "./evaluate-visits.js";

/** A route's cost split by term; `total` is the evaluator's route cost (their sum). */
export interface CostTerms {
  fixed: number;
  distance: number;
  lateness: number;
  /** Cost per working minute (travel rules), 0 without it. */
  time: number;
  /** Stops served on another vehicle than the given plan's, at reassignment_cost each. */
  reassignment: number;
  total: number;
}

/** One vehicle's route in the answer, evaluated once. */
export interface RouteEvaluation {
  vehicle: number;
  /** The customers (and reload stops) in order, as the answer gives them. */
  route: readonly number[];
  /** The evaluator's score of the route: totals, excesses and its verdict. */
  score: RouteScore;
  /** The evaluator's schedule: start node, stops, end node (times, loads, loads on board, breaks). */
  schedule: RouteSchedule;
  /** Positions 1.. of the schedule, read off it. */
  stops: StopEvaluation[];
  costs: CostTerms;
  /** Skills, shifts, working hours and route limits (all nothing without those rules). */
  rules: RuleBreaches;
  /** The evaluator finds the route feasible and it breaks none of `rules`: the service accepts it. */
  acceptable: boolean;
  /** Load rules, for a non-empty route of a problem that has them; null otherwise. */
  loads: LoadBreaches | null;
  /** The route's stops that the given plan had on another vehicle, in route order, with that vehicle. */
  reassigned: { node: number; previousVehicle: number }[];
  /** Entries that are no customer of this route: out of range, or a depot that is not one of its reload stops. */
  foreignNodes: number[];
  /** Ride-time limits and incompatible goods, for a non-empty route of a problem that has them; null otherwise. */
  visits: VisitBreaches | null;
}

/**
 * The answer of a request evaluated once, by the evaluator that scores every solution the search
 * meets: everything judging, the failure reasons and the result read. A new rule is evaluated in
 * evaluator.ts (or its evaluate-*.ts parts) and its breaches added here, once.
 */
export interface AnswerEvaluation {
  solution: Solution;
  /** The evaluator's score of the whole plan (totals, missing, duplicated and skipped customers, verdict). */
  score: SolutionScore;
  routes: RouteEvaluation[];
  /** Customers on no route, optional and required, ascending. */
  unserved: number[];
  /** Shipments not served by one vehicle with the pickup first (load rules only). */
  shipments: ShipmentBreach[];
  /** Same-vehicle groups split over vehicles or served in part (none without groups). */
  groups: GroupBreach[];
}

/** Evaluates a solution once: the plan's score, each route's schedule, stops, costs and breaches. */
export function evaluateAnswer(p: CompiledProblem, solution: Solution): AnswerEvaluation {
  const schedules: RouteSchedule[] = [];
  const score = evaluateSolution(p, solution, schedules);
  const routes = score.routes.map((routeScore, v) => evaluateRouteOf(p, v, solution.routes[v] ?? [], routeScore, schedules[v]!));
  const unserved = [...score.skipped, ...score.missing].sort((a, b) => a - b);
  const shipments = p.loads ? shipmentBreaches(p.loads, solution, p.nodeCount) : [];
  const groups = groupBreaches(p, solution);
  return { solution, score, routes, unserved, shipments, groups };
}

function evaluateRouteOf(
  p: CompiledProblem,
  v: number,
  route: readonly number[],
  score: RouteScore,
  schedule: RouteSchedule,
): RouteEvaluation {
  const reassigned: RouteEvaluation["reassigned"] = [];
  const foreignNodes: number[] = [];
  const home = p.reassignment?.home;
  for (const node of route) {
    if (node < 0 || node >= p.nodeCount || (p.isDepot[node] && !(p.trips && isReloadStop(p.trips, v, node)))) foreignNodes.push(node);
    const previousVehicle = home ? (home[node] ?? -1) : -1;
    if (previousVehicle >= 0 && previousVehicle !== v) reassigned.push({ node, previousVehicle });
  }
  const used = route.length > 0;
  const costs: CostTerms = {
    fixed: used ? p.fixedCost[v]! : 0,
    distance: p.unitCost[v]! * score.distance,
    lateness: score.latePenalty,
    time: score.timeCost ?? 0,
    reassignment: p.reassignment ? p.reassignment.price * reassigned.length : 0,
    total: score.cost,
  };
  const rules = routeBreaches(p, v, route, score);
  return {
    vehicle: v,
    route,
    score,
    schedule,
    stops: evaluateStops(p, v, schedule),
    costs,
    rules,
    acceptable: score.feasible && !breaksAny(rules),
    loads: p.loads && used ? loadBreaches(p, p.loads, v, route, schedule) : null,
    reassigned,
    foreignNodes,
    visits: p.visits && used ? { rides: ridesOf(p, schedule), conflicts: loadConflicts(p, v, route) } : null,
  };
}

function ridesOf(p: CompiledProblem, schedule: RouteSchedule): VisitBreaches["rides"] {
  const rides: VisitBreaches["rides"] = [];
  rideExcess(p, schedule, rides);
  return rides;
}
