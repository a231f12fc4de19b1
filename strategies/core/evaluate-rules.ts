import type { CompiledProblem, ServiceRules, Solution } from "./problem.js";

/**
 * The evaluator's part for optional stops, skills, shifts and route limits (constraints.md, first
 * table; CompiledProblem.rules). Every function here is the identity of today's rule when the
 * problem has no rules, so evaluator.ts calls them unconditionally and problems without the
 * fields evaluate with exactly the same numbers as before.
 */

/**
 * Earliest departure of vehicle v: its start node's window opening, or its shift start when that
 * is later (constraints.md: "leaves its start node no earlier than the first").
 */
export function departureOpen(p: CompiledProblem, v: number): number {
  const open = p.time!.twStartMin[p.startNode[v]!]!;
  const shift = p.rules ? p.rules.shiftStartMin[v]! : Number.NEGATIVE_INFINITY;
  return shift > open ? shift : open;
}

/** Latest arrival at vehicle v's end node: the node's window close, or the shift end when earlier. */
export function arrivalClose(p: CompiledProblem, v: number): number {
  const close = p.time!.twEndMin[p.endNode[v]!]!;
  const shift = p.rules ? p.rules.shiftEndMin[v]! : Number.POSITIVE_INFINITY;
  return shift < close ? shift : close;
}

/** Route duration cap of vehicle v in minutes: its own working hours, else the request-wide one. */
export function durationCap(p: CompiledProblem, v: number): number {
  return p.rules ? p.rules.maxDurationMin[v]! : p.time!.maxRouteMin;
}

/** What a route breaks of the per-vehicle limits and skills (all 0 without rules). */
export interface RouteRuleExcess {
  /** Route distance above the vehicle's cap. */
  distanceExcess: number;
  /** Customers above the vehicle's stop cap. */
  stopsExcess: number;
  /** Customers on the route whose skills the vehicle lacks. */
  forbidden: number;
}

/** Nothing broken: shared, so problems without rules allocate nothing per evaluated route. */
const NO_EXCESS: Readonly<RouteRuleExcess> = Object.freeze({ distanceExcess: 0, stopsExcess: 0, forbidden: 0 });

export function routeRuleExcess(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  distance: number,
): Readonly<RouteRuleExcess> {
  const rules = p.rules;
  if (!rules || len === 0) return NO_EXCESS;
  const cap = rules.maxDistance[v]!;
  const distanceExcess = distance > cap ? distance - cap : 0;
  const stopsExcess = Math.max(0, len - rules.maxStops[v]!);
  let forbidden = 0;
  const allowed = rules.allowed;
  if (allowed) {
    const row = v * p.nodeCount;
    for (let k = 0; k < len; k++) if (allowed[row + route[k]!] === 0) forbidden++;
  }
  return { distanceExcess, stopsExcess, forbidden };
}

/** Whether a customer may stay unserved at its skip price (an optional node). */
export function isOptional(rules: ServiceRules | null | undefined, node: number): boolean {
  return !!rules && rules.skipPenalty[node]! !== Number.POSITIVE_INFINITY;
}

/** The customers a solution leaves unserved, split by kind. */
export interface Unserved {
  /** Optional customers left out: each adds its skip penalty to the objective. */
  skipped: number[];
  /** Required customers left out: infeasible unless the problem allows unassigned nodes. */
  required: number[];
  /** Sum of the skipped customers' penalties. */
  skipPenaltyTotal: number;
}

/**
 * Which customers are served by no route of `s`, ascending by node: optional ones (skipped) and
 * required ones. Exported for completing a plan before it is evaluated (src/problem/complete-plan.ts).
 */
export function unservedNodes(p: CompiledProblem, s: Solution): Unserved {
  const seen = new Uint8Array(p.nodeCount);
  for (const route of s.routes) for (const c of route) if (c >= 0 && c < p.nodeCount) seen[c] = 1;
  return unservedFromSeen(p, seen);
}

/** As unservedNodes, from a visit count per node. */
export function unservedFromSeen(p: CompiledProblem, seen: ArrayLike<number>): Unserved {
  const skipped: number[] = [];
  const required: number[] = [];
  let skipPenaltyTotal = 0;
  const rules = p.rules;
  for (const c of p.customers) {
    if (seen[c] !== 0) continue;
    if (isOptional(rules, c)) {
      skipped.push(c);
      skipPenaltyTotal += rules!.skipPenalty[c]!;
    } else required.push(c);
  }
  const ascending = (a: number, b: number) => a - b;
  return { skipped: skipped.sort(ascending), required: required.sort(ascending), skipPenaltyTotal };
}

/**
 * The refusal of a strategy that does not know the rules (optional stops, skills, shifts, route
 * limits), for problems that have them; null when the problem has none. Only hgs's general
 * search knows them (search/route-rules.ts, operators/insert-unserved.ts).
 */
export function rulesRefusal(p: CompiledProblem, strategy: string): string | null {
  if (!p.rules) return null;
  return (
    `the ${strategy} strategy does not handle optional stops, skills, shifts or route limits ` +
    "(node_skip_penalties, allow_unassigned, node_skills, vehicle_time_windows, vehicle_max_distance, " +
    "vehicle_max_working_hours, vehicle_max_stops); use hgs"
  );
}
