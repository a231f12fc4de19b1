import { checkRouteLoads } from "./evaluate-loads.js";
import { evaluateTripRoute, isReloadStop } from "./evaluate-trips.js";
import { conflictingLegs, groupBreaches, rideExcess } from "./evaluate-visits.js";
import { keepsLocks } from "./evaluate-locks.js";
import { reassignedCount } from "./evaluate-reassignment.js";
import { balanceCost, routeWorkload } from "./evaluate-balance.js";
import { routeRuleExcess, unservedFromSeen } from "./evaluate-rules.js";
import { timeRoute } from "./schedule.js";
import { returnsToEnd } from "./travel.js";
import { travelDistance, travelScore } from "./travel-score.js";
import type { RouteSchedule, RouteTimes } from "./schedule-types.js";
import type { RouteScore } from "./route-score.js";
import { distanceBetween, type CompiledProblem, type Solution } from "./problem.js";

export type { RouteScore } from "./route-score.js";
export type { RouteSchedule } from "./schedule-types.js";

export interface SolutionScore {
  cost: number;
  distance: number;
  lateMinutes: number;
  latePenalty: number;
  routes: RouteScore[];
  /**
   * Required customers visited zero times (every customer is required without rules), and
   * customers visited more than once. Missing required customers make the solution infeasible
   * unless the problem allows unassigned nodes (rules.allowUnassigned): then it is "feasible
   * with unassigned" and the caller reports them.
   */
  missing: number[];
  duplicated: number[];
  /** Optional customers left unserved, and the sum of their skip penalties (included in `cost`). */
  skipped: number[];
  skipPenaltyTotal: number;
  /** With same-vehicle groups only: the groups split over vehicles or served in part (infeasible). */
  splitGroups?: number[];
  /** With balance only: each vehicle's workload (0 when unused) and the balance term (included in `cost`). */
  balance?: { workloads: number[]; cost: number };
  feasible: boolean;
}

/**
 * Scores vehicle `v` driving `route` (customers only, `len` of them). The one place where
 * distance, cost, load, schedule, lateness and working hours are computed.
 */
export function evaluateRoute(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len = route.length,
  schedule?: RouteSchedule,
): RouteScore {
  if (!p.visits || len === 0) return scoreRoute(p, v, route, len, schedule);
  // Ride times are read off the schedule, so a route with a limited shipment always gets one.
  const own = schedule ?? (p.visits.maxRide && p.time ? { nodes: [], arrive: [], leave: [], loads: [] } : undefined);
  const score = scoreRoute(p, v, route, len, own);
  score.rideExcessMin = own ? rideExcess(p, own) : 0;
  score.conflictLegs = conflictingLegs(p, v, route, len);
  if (score.rideExcessMin > 1e-7 || score.conflictLegs > 0) score.feasible = false;
  return score;
}

function scoreRoute(p: CompiledProblem, v: number, route: ArrayLike<number>, len: number, schedule?: RouteSchedule): RouteScore {
  const start = p.startNode[v]!;
  const end = p.endNode[v]!;
  if (len === 0) {
    if (schedule) {
      schedule.nodes = [];
      schedule.arrive = [];
      schedule.leave = [];
      schedule.loads = [];
      if (p.loads) {
        schedule.onBoard = [];
        schedule.extraOnBoard = [];
      }
    }
    return {
      distance: 0,
      cost: 0,
      load: 0,
      capacityExcess: 0,
      lateMinutes: 0,
      latePenalty: 0,
      durationMin: 0,
      durationExcessMin: 0,
      departureMin: 0,
      distanceExcess: 0,
      stopsExcess: 0,
      forbidden: 0,
      feasible: keepsLocks(p, v, route, 0),
    };
  }
  if (p.trips) return evaluateTripRoute(p, v, route, len, schedule);
  let distance = 0;
  let load = 0;
  let prev = start;
  if (p.travel) distance = travelDistance(p, v, route, len);
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    if (!p.travel) distance += distanceBetween(p, prev, c);
    load += p.demand[c]!;
    prev = c;
  }
  if (!p.travel) distance += distanceBetween(p, prev, end);
  let capacityExcess = Math.max(0, load - p.capacity[v]!);
  const loadCheck = p.loads
    ? checkRouteLoads(p, p.loads, v, route, len, schedule ? (schedule as Required<RouteSchedule>) : undefined)
    : null;
  if (loadCheck) capacityExcess = loadCheck.excess;

  let lateMinutes = 0;
  let latePenalty = 0;
  let durationMin = 0;
  let durationExcessMin = 0;
  let departureMin = 0;
  let times: RouteTimes | null = null;
  const t = p.time;
  if (t) {
    times = timeRoute(p, v, route, len, schedule);
    ({ lateMinutes, latePenalty, durationMin, durationExcessMin, departureMin } = times);
  } else if (schedule) {
    schedule.nodes = [start];
    schedule.arrive = [0];
    schedule.leave = [0];
    schedule.loads = [0];
    let cumulativeLoad = 0;
    for (let k = 0; k < len; k++) {
      cumulativeLoad += p.demand[route[k]!]!;
      schedule.nodes.push(route[k]!);
      schedule.arrive.push(0);
      schedule.leave.push(0);
      schedule.loads.push(cumulativeLoad);
    }
    if (returnsToEnd(p, v)) {
      schedule.nodes.push(end);
      schedule.arrive.push(0);
      schedule.leave.push(0);
      schedule.loads.push(cumulativeLoad);
    }
  }
  const hardLate = t !== null && t.latePenaltyPerMin <= 0 && lateMinutes > 1e-7;
  // A stop the given plan had on another vehicle costs reassignment_cost (0 without it).
  const reassigned = p.reassignment ? p.reassignment.price * reassignedCount(p.reassignment, v, route, len) : 0;
  const cost = p.fixedCost[v]! + p.unitCost[v]! * distance + latePenalty + reassigned;
  const { distanceExcess, stopsExcess, forbidden } = routeRuleExcess(p, v, route, len, distance);
  const feasible =
    capacityExcess <= 1e-9 &&
    !hardLate &&
    durationExcessMin <= 1e-7 &&
    distanceExcess <= 1e-9 &&
    stopsExcess === 0 &&
    forbidden === 0 &&
    (loadCheck === null || loadCheck.orderViolations === 0) &&
    keepsLocks(p, v, route, len);
  const score: RouteScore = loadCheck
    ? {
        distance,
        cost,
        load,
        capacityExcess,
        lateMinutes,
        latePenalty,
        durationMin,
        durationExcessMin,
        departureMin,
        distanceExcess,
        stopsExcess,
        forbidden,
        peakOnBoard: loadCheck.peakOnBoard,
        orderViolations: loadCheck.orderViolations,
        feasible,
      }
    : {
        distance,
        cost,
        load,
        capacityExcess,
        lateMinutes,
        latePenalty,
        durationMin,
        durationExcessMin,
        departureMin,
        distanceExcess,
        stopsExcess,
        forbidden,
        feasible,
      };
  return p.travel ? travelScore(p, v, score, times, schedule) : score;
}

/**
 * Scores a whole solution: every route from scratch plus "every customer exactly once". With
 * `schedules`, each vehicle's schedule is written there too (answer-evaluation.ts reads them).
 */
export function evaluateSolution(p: CompiledProblem, s: Solution, schedules?: RouteSchedule[]): SolutionScore {
  const seen = new Uint16Array(p.nodeCount);
  const routes: RouteScore[] = [];
  let cost = 0;
  let distance = 0;
  let lateMinutes = 0;
  let latePenalty = 0;
  let feasible = s.routes.length === p.vehicleCount;
  const duplicated: number[] = [];
  for (let v = 0; v < p.vehicleCount; v++) {
    const route = s.routes[v] ?? [];
    for (const c of route) {
      if (c < 0 || c >= p.nodeCount || p.isDepot[c]) {
        // A reload stop (evaluate-trips.ts) is the one depot a route may visit inside.
        if (!(p.trips && c >= 0 && c < p.nodeCount && isReloadStop(p.trips, v, c))) feasible = false;
        continue;
      }
      if (seen[c]! > 0) duplicated.push(c);
      seen[c] = seen[c]! + 1;
    }
    let schedule: RouteSchedule | undefined;
    if (schedules) schedules.push((schedule = { nodes: [], arrive: [], leave: [], loads: [] }));
    const score = evaluateRoute(p, v, route, route.length, schedule);
    routes.push(score);
    cost += score.cost;
    distance += score.distance;
    lateMinutes += score.lateMinutes;
    latePenalty += score.latePenalty;
    if (!score.feasible) feasible = false;
  }
  // Optional customers left out cost their skip penalty; required ones left out are missing.
  const unserved = unservedFromSeen(p, seen);
  const missing = unserved.required;
  if ((missing.length > 0 && !p.rules?.allowUnassigned) || duplicated.length > 0) feasible = false;
  cost += unserved.skipPenaltyTotal;
  const splitGroups = p.visits?.groupOf ? groupBreaches(p, s).map((b) => b.group) : undefined;
  if (splitGroups && splitGroups.length > 0) feasible = false;
  // The largest workload is a term of the plan, in no route's cost.
  const b = p.balance;
  const workloads = b ? routes.map((score, v) => routeWorkload(p, b, v, s.routes[v] ?? [], score)) : null;
  const balance = b && workloads ? { workloads, cost: balanceCost(b, workloads) } : null;
  if (balance) cost += balance.cost;
  return {
    ...(splitGroups ? { splitGroups } : {}),
    cost,
    distance,
    lateMinutes,
    latePenalty,
    routes,
    missing,
    duplicated,
    skipped: unserved.skipped,
    skipPenaltyTotal: unserved.skipPenaltyTotal,
    ...(balance ? { balance } : {}),
    feasible,
  };
}
