import { isSymmetric, nearestNeighbours } from "../core/neighbours.js";
import type { CompiledProblem } from "../core/problem.js";

/**
 * The view of a problem that the genetic search works on: one depot, identical vehicles, and
 * constraints that are additive along a route (load, and duration = driving + service), so
 * every move is priced in O(1) from prefix sums.
 */
export interface HgsModel {
  nodeCount: number;
  depot: number;
  customers: Int32Array;
  dist: Float64Array;
  demand: Float64Array;
  /** Service minutes per node (zeros without a time dimension). */
  service: Float64Array;
  capacity: number;
  /** Distance units per minute (1 without a time dimension, where duration is unconstrained). */
  speed: number;
  /** Longest allowed route in minutes: the working-hours cap or the depot's opening span. */
  durationLimit: number;
  fixedCost: number;
  unitCost: number;
  vehicles: number;
  symmetric: boolean;
  /** Granular neighbourhood: each customer's nearest customers. */
  neighbours: Int32Array[];
  maxDistance: number;
  maxDemand: number;
}

export type ModelOutcome = { ok: true; model: HgsModel } | { ok: false; reason: string };

const GRANULARITY = 20;

function allEqual(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}

/**
 * Time windows are representable only when none can bind before the depot closes: every
 * customer opens no later than the depot (no waiting) and closes no earlier (no lateness before
 * the route is already late at the depot), and lateness is a hard limit rather than priced.
 */
function durationLimitOf(p: CompiledProblem, depot: number): number | string {
  const t = p.time;
  if (!t) return Number.POSITIVE_INFINITY;
  if (t.latePenaltyPerMin > 0) return "soft time windows price lateness per customer";
  const open = t.twStartMin[depot]!;
  const close = t.twEndMin[depot]!;
  for (const c of p.customers) {
    if (t.twStartMin[c]! > open + 1e-9 || t.twEndMin[c]! < close - 1e-9) return "customer time windows are narrower than the depot's";
  }
  return Math.min(t.maxRouteMin, close - open);
}

export function buildModel(p: CompiledProblem): ModelOutcome {
  if (p.vehicleCount === 0) return { ok: false, reason: "there are no vehicles" };
  const depot = p.startNode[0]!;
  for (let v = 0; v < p.vehicleCount; v++) {
    if (p.startNode[v] !== depot || p.endNode[v] !== depot) return { ok: false, reason: "vehicles start or end at different depots" };
  }
  if (!allEqual(p.capacity) || !allEqual(p.fixedCost) || !allEqual(p.unitCost)) return { ok: false, reason: "the fleet is heterogeneous" };
  if (p.time && !allEqual(p.time.speed)) return { ok: false, reason: "vehicle speeds differ" };
  const limit = durationLimitOf(p, depot);
  if (typeof limit === "string") return { ok: false, reason: limit };
  let maxDistance = 0;
  for (let i = 0; i < p.dist.length; i++) maxDistance = Math.max(maxDistance, p.dist[i]!);
  let maxDemand = 0;
  for (const c of p.customers) maxDemand = Math.max(maxDemand, p.demand[c]!);
  return {
    ok: true,
    model: {
      nodeCount: p.nodeCount,
      depot,
      customers: p.customers,
      dist: p.dist,
      demand: p.demand,
      service: p.time ? p.time.serviceMin : new Float64Array(p.nodeCount),
      capacity: p.capacity[0]!,
      speed: p.time ? p.time.speed[0]! : 1,
      durationLimit: limit,
      fixedCost: p.fixedCost[0]!,
      unitCost: p.unitCost[0]!,
      // More routes than customers is never useful, and each route costs memory in the search.
      vehicles: Math.min(p.vehicleCount, Math.max(1, p.customers.length)),
      symmetric: isSymmetric(p),
      neighbours: nearestNeighbours(p, GRANULARITY),
      maxDistance,
      maxDemand,
    },
  };
}

/** Penalty prices per unit of excess load and per minute of excess duration. */
export interface Penalties {
  load: number;
  duration: number;
}

/** Cost of one route from its totals: the fixed and distance cost plus priced excesses. */
export function routeCost(m: HgsModel, pen: Penalties, customers: number, distance: number, load: number, service: number): number {
  if (customers === 0) return 0;
  let cost = m.fixedCost + m.unitCost * distance;
  if (load > m.capacity) cost += pen.load * (load - m.capacity);
  if (m.durationLimit !== Number.POSITIVE_INFINITY) {
    const excess = distance / m.speed + service - m.durationLimit;
    if (excess > 0) cost += pen.duration * excess;
  }
  return cost;
}
