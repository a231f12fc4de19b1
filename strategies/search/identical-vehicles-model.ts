import { isSymmetric, nearestNeighbours } from "../core/neighbours.js";
import { loadReference, timeReference } from "../core/penalty-scale.js";
import { windowsBindAgainst, type CompiledProblem } from "../core/problem.js";
import { buildProblemData, type ProblemData } from "./problem-data.js";
import { buildFleetRules } from "./fleet-rules.js";
import type { Penalties } from "./penalties.js";
import { TimeSegment } from "./time-segment.js";
import { windowNeighbours } from "./window-neighbours.js";
import { neighbourhoodSettings } from "../settings.js";

/**
 * The identical-vehicles methods (genetic search, identical-vehicles iterated local search) work on the one problem
 * data (problem-data.ts) built through an IdenticalVehiclesView: one depot, identical vehicles (read as
 * slot 0), and constraints that are additive along a route (load, and duration = driving +
 * service), so every move is priced in O(1) from prefix sums; binding hard windows are priced by
 * time warp, and optional stops carry their skip prices.
 */
export type ModelOutcome = { ok: true; model: ProblemData } | { ok: false; reason: string };

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
 * Why the genetic search's identical-vehicles model does not fit (null when it does: one depot, identical
 * vehicles, hard windows if any, no rules); cheap, for the selection table. `loadsAllowed`: the
 * load rules are the caller's business (backhaul-model.ts).
 */
export function identicalVehiclesMismatch(p: CompiledProblem, loadsAllowed = false): string | null {
  // Optional stops, skills, shifts and route limits: the selection table sends every problem with rules to hgs.
  if (p.rules) return "optional stops, skills, shifts or route limits";
  return modelMismatch(p, loadsAllowed);
}

/**
 * Whether the only rules are optional stops (node_skip_penalties) and allow_unassigned: no
 * skills, shifts, distance or stop caps, and every vehicle under the request-wide working hours.
 * Those the identical-vehicles model carries (ProblemData.skipPrice): a customer's absence is priced on the
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

/**
 * As identicalVehiclesMismatch, but problems whose only rules are optional stops fit (the
 * identical-vehicles iterated local search prices them).
 */
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
  if (p.loads && !loadsAllowed)
    return "pickups, shipments or extra load dimensions (the identical-vehicles model carries one delivered load)";
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
export function assembleModel(p: CompiledProblem, arcs?: { dist: Float64Array; neighbours: Int32Array[] }): ModelOutcome {
  const depot = p.startNode[0]!;
  const limit = durationLimitOf(p, depot);
  if (typeof limit === "string" && limit !== "windows") return { ok: false, reason: limit };
  const t = p.time;
  const windows = limit === "windows" && t !== null;
  let maxDistance = 0;
  for (let i = 0; i < p.dist.length; i++) maxDistance = Math.max(maxDistance, p.dist[i]!);
  // More routes than customers is never useful, and each route costs memory in the search.
  const vehicles = Math.min(p.vehicleCount, Math.max(1, p.customers.length));
  // Its neighbourhood, by the length of routes under windows (strategies/settings.ts).
  const view = neighbourhoodSettings(p, !arcs && windows);
  const neighbours = arcs ? arcs.neighbours : windows ? windowNeighbours(p, view.granularity) : nearestNeighbours(p, view.granularity);
  const durationLimit = typeof limit === "number" ? limit : Number.POSITIVE_INFINITY;
  const fleetRules = buildFleetRules(p, maxDistance);
  const skipPrice = fleetRules && fleetRules.anyOptional ? fleetRules.skipPrice : null;
  const symmetric = !arcs && isSymmetric(p);
  const built = buildProblemData(p, {
    routes: vehicles,
    neighbours,
    windows,
    durationLimit,
    longWindowRoutes: view.longWindowRoutes,
    skipPrice,
    symmetric,
  });
  // The order rule is priced by the arcs: the route model must not refuse it as well.
  // The route model reads every slot's distances from `distances`: the priced arcs replace the one matrix there too.
  const distances = { matrices: [arcs?.dist ?? built.dist], indexOf: built.distances.indexOf };
  return { ok: true, model: arcs ? { ...built, dist: arcs.dist, distances, order: null } : built };
}

/**
 * Starting prices of infeasibility, scale-free (core/penalty-scale.ts): a unit of excess load
 * about as dear as the longest edge per unit of the largest demand, a minute as a minute's driving.
 */
export function initialPenalties(m: ProblemData): Penalties {
  const unitCost = m.unitCost[0]!;
  const time = timeReference(unitCost, m.speed[0]!);
  return { load: loadReference(unitCost, m.maxDistance, m.maxDemand), duration: time, timeWarp: time };
}

/** The time segment of a whole route (customers route[0..count), depot at both ends), from scratch. */
export function routeSegment(m: ProblemData, route: ArrayLike<number>, count: number, seg: TimeSegment): TimeSegment {
  const w = m.windows!;
  const n = m.nodeCount;
  const depot = m.start[0]!;
  const speed = m.speed[0]!;
  seg.setNode(depot, w.start[depot]!, w.end[depot]!, 0);
  for (let k = 0; k <= count; k++) {
    const c = k < count ? route[k]! : depot;
    seg.append(m.dist[seg.last * n + c]! / speed, m.service[c]!, 0, w.start[c]!, w.end[c]!, c);
  }
  return seg;
}
