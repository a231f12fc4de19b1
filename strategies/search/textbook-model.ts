import { isSymmetric, nearestNeighbours } from "../core/neighbours.js";
import { loadReference, timeReference } from "../core/penalty-scale.js";
import { windowsBindAgainst, type CompiledProblem } from "../core/problem.js";
import { buildProblemData, type ProblemData } from "./problem-data.js";
import { buildFleetRules } from "./fleet-rules.js";
import type { Penalties } from "./penalties.js";
import { TimeSegment } from "./time-segment.js";
import { windowNeighbours } from "./window-neighbours.js";
import { textbookSettings } from "../settings.js";

/** Hard time windows that bind: priced by time warp (and the working-hours cap on segment durations). */
export interface HgsWindows {
  start: Float64Array;
  end: Float64Array;
  /** Working-hours cap in minutes (Infinity when there is none). */
  maxDuration: number;
}

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
  /**
   * Without binding windows: longest allowed route in minutes (the working-hours cap or the
   * depot's opening span), duration being additive (driving + service). Infinity with windows.
   */
  durationLimit: number;
  /** Binding hard windows (null when none: then duration is additive, see durationLimit). */
  windows: HgsWindows | null;
  vehicles: number;
  symmetric: boolean;
  /** Granular neighbourhood: each customer's nearest customers. */
  neighbours: Int32Array[];
  maxDistance: number;
  maxDemand: number;
  /** The problem data the route model (routes.ts) works on; its vehicle values (capacity, costs, speed) are read as slot 0. */
  fleet: ProblemData;
  /**
   * Customers that may stay unserved (optional stops, or required ones under allow_unassigned):
   * per node the price of leaving it out (fleet-rules.ts skipPrice; Infinity: must be served).
   * null when every customer must be served, as in every problem without rules.
   */
  skipPrice: Float64Array | null;
}

export type ModelOutcome = { ok: true; model: HgsModel } | { ok: false; reason: string };

function allEqual(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}

/**
 * When no customer window can bind before the depot closes (every customer opens no later than
 * the depot and closes no earlier), duration is additive and the windows are a duration cap;
 * otherwise they are hard windows priced by time warp. Soft windows are not supported.
 */
function durationLimitOf(p: CompiledProblem, depot: number): number | "windows" | string {
  const t = p.time;
  if (!t) return Number.POSITIVE_INFINITY;
  if (t.latePenaltyPerMin > 0) return "soft time windows (late_penalty_per_min > 0) price lateness per customer";
  if (windowsBindAgainst(p, depot)) return "windows";
  return Math.min(t.maxRouteMin, t.twEndMin[depot]! - t.twStartMin[depot]!);
}

/**
 * Why the genetic search's textbook model does not fit (null when it does: one depot, identical
 * vehicles, hard windows if any, no rules); cheap, for the selection table. `loadsAllowed`: the
 * load rules are the caller's business (backhaul-model.ts).
 */
export function textbookMismatch(p: CompiledProblem, loadsAllowed = false): string | null {
  // Optional stops, skills, shifts and route limits: the selection table sends every problem with rules to hgs.
  if (p.rules) return "optional stops, skills, shifts or route limits";
  return modelMismatch(p, loadsAllowed);
}

/**
 * Whether the only rules are optional stops (node_skip_penalties) and allow_unassigned: no
 * skills, shifts, distance or stop caps, and every vehicle under the request-wide working hours.
 * Those the textbook model carries (HgsModel.skipPrice): a customer's absence is priced on the
 * solution, not on a route.
 */
export function onlyOptionalRules(p: CompiledProblem): boolean {
  const r = p.rules;
  if (!r) return true;
  if (r.allowed) return false;
  const cap = p.time ? p.time.maxRouteMin : Number.POSITIVE_INFINITY;
  for (let v = 0; v < p.vehicleCount; v++) {
    if (r.shiftStartMin[v] !== Number.NEGATIVE_INFINITY || r.shiftEndMin[v] !== Number.POSITIVE_INFINITY) return false;
    if (r.maxDistance[v] !== Number.POSITIVE_INFINITY || r.maxStops[v] !== 0x7fffffff || r.maxDurationMin[v] !== cap) return false;
  }
  return true;
}

/** As textbookMismatch, but problems whose only rules are optional stops fit (the textbook iterated local search prices them). */
function modelMismatch(p: CompiledProblem, loadsAllowed = false): string | null {
  if (p.vehicleCount === 0) return "there are no vehicles";
  if (!onlyOptionalRules(p)) return "skills, shifts or route limits (priced by the general search's route model only, route-rules.ts)";
  const depot = p.startNode[0]!;
  for (let v = 0; v < p.vehicleCount; v++) {
    if (p.startNode[v] !== depot || p.endNode[v] !== depot) return "vehicles start or end at different depots";
  }
  if (!allEqual(p.capacity) || !allEqual(p.fixedCost) || !allEqual(p.unitCost)) return "the fleet is heterogeneous";
  if (p.time && !allEqual(p.time.speed)) return "vehicle speeds differ";
  if (p.time && p.time.latePenaltyPerMin > 0) return "soft time windows (late_penalty_per_min > 0) price lateness per customer";
  if (p.loads && !loadsAllowed) return "pickups, shipments or extra load dimensions (the textbook model carries one delivered load)";
  return null;
}

export type { Penalties };

export function buildModel(p: CompiledProblem): ModelOutcome {
  const mismatch = modelMismatch(p);
  if (mismatch !== null) return { ok: false, reason: mismatch };
  return assembleModel(p);
}

/**
 * What a problem whose fleet fits (one depot, identical vehicles, no rules) becomes in this
 * model; `arcs` replaces the distances the search prices and its neighbour lists (the backhaul
 * transformation, backhaul-model.ts), the request's own being used everywhere else.
 */
export function assembleModel(p: CompiledProblem, arcs?: { dist: Float64Array; neighbours: Int32Array[]; maxDemand: number }): ModelOutcome {
  const depot = p.startNode[0]!;
  const limit = durationLimitOf(p, depot);
  if (typeof limit === "string" && limit !== "windows") return { ok: false, reason: limit };
  const t = p.time;
  const windows: HgsWindows | null = limit === "windows" && t ? { start: t.twStartMin, end: t.twEndMin, maxDuration: t.maxRouteMin } : null;
  // The evaluator never serves at a depot: neither does the model.
  const service = t ? Float64Array.from(t.serviceMin) : new Float64Array(p.nodeCount);
  service[depot] = 0;
  let maxDistance = 0;
  for (let i = 0; i < p.dist.length; i++) maxDistance = Math.max(maxDistance, p.dist[i]!);
  let maxDemand = arcs ? arcs.maxDemand : 0;
  for (const c of p.customers) maxDemand = Math.max(maxDemand, p.demand[c]!);
  const vehicles = Math.min(p.vehicleCount, Math.max(1, p.customers.length));
  // Its neighbourhood, by the length of routes under windows (strategies/settings.ts).
  const view = textbookSettings(p, !arcs && windows !== null);
  const neighbours = arcs ? arcs.neighbours : windows ? windowNeighbours(p, view.granularity) : nearestNeighbours(p, view.granularity);
  const durationLimit = typeof limit === "number" ? limit : Number.POSITIVE_INFINITY;
  const built = buildProblemData(p, { routes: vehicles, neighbours, windows: windows !== null, durationLimit, nearSwapStar: view.nearSwapStar });
  // The order rule is priced by the arcs: the route model must not refuse it as well.
  const fleet = arcs ? { ...built, dist: arcs.dist, order: null } : built;
  const fleetRules = buildFleetRules(p, maxDistance);
  const skipPrice = fleetRules && fleetRules.anyOptional ? fleetRules.skipPrice : null;
  return {
    ok: true,
    model: {
      nodeCount: p.nodeCount,
      depot,
      customers: p.customers,
      dist: arcs ? arcs.dist : p.dist,
      demand: p.demand,
      service,
      durationLimit,
      windows,
      // More routes than customers is never useful, and each route costs memory in the search.
      vehicles,
      symmetric: !arcs && isSymmetric(p),
      neighbours,
      maxDistance,
      maxDemand,
      fleet,
      skipPrice,
    },
  };
}

/**
 * Starting prices of infeasibility, scale-free (core/penalty-scale.ts): a unit of excess load
 * about as dear as the longest edge per unit of the largest demand, a minute as a minute's driving.
 */
export function initialPenalties(m: HgsModel): Penalties {
  const unitCost = m.fleet.unitCost[0]!;
  const time = timeReference(unitCost, m.fleet.speed[0]!);
  return { load: loadReference(unitCost, m.maxDistance, m.maxDemand), duration: time, timeWarp: time };
}

/** The time segment of a whole route (customers route[0..count), depot at both ends), from scratch. */
export function routeSegment(m: HgsModel, route: ArrayLike<number>, count: number, seg: TimeSegment): TimeSegment {
  const w = m.windows!;
  const n = m.nodeCount;
  const depot = m.depot;
  const speed = m.fleet.speed[0]!;
  seg.setNode(depot, w.start[depot]!, w.end[depot]!, 0);
  for (let k = 0; k <= count; k++) {
    const c = k < count ? route[k]! : depot;
    seg.append(m.dist[seg.last * n + c]! / speed, m.service[c]!, 0, w.start[c]!, w.end[c]!, c);
  }
  return seg;
}
