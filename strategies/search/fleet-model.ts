import { nearestNeighbours } from "../core/neighbours.js";
import { windowsBindAgainst, type CompiledProblem } from "../core/problem.js";
import { arrivalClose, departureOpen, durationCap } from "../core/evaluate-rules.js";
import { buildFleetRules, compatibleNeighbours, rulesKey, type FleetRules } from "./fleet-rules.js";
import type { LoadDimension } from "./load-segment.js";
import { windowNeighbours } from "./window-neighbours.js";

/**
 * The view of a problem that the general search (ils.ts) works on: every vehicle of the request
 * is one route slot with its own capacity, fixed and unit cost, speed and start and end node;
 * vehicles that agree on all of these form a type. Nothing is assumed identical, so mixed fleets,
 * several depots, asymmetric matrices, speeds, windows (hard or soft) and working hours all fit.
 */
export interface FleetModel {
  p: CompiledProblem;
  nodeCount: number;
  customers: Int32Array;
  dist: Float64Array;
  demand: Float64Array;
  /** Service minutes per node (0 at depots and without a time dimension). */
  service: Float64Array;
  /** Time windows (null without a time dimension). */
  twStart: Float64Array | null;
  twEnd: Float64Array | null;
  /** Working-hours cap in minutes under time windows (Infinity when none). */
  maxDuration: number;
  /**
   * Per route slot under time windows (null without): earliest departure and latest arrival
   * back (the start and end nodes' windows, narrowed by the vehicle's shift), and the vehicle's
   * working-hours cap (maxDuration unless it has its own).
   */
  departOpen: Float64Array | null;
  arriveClose: Float64Array | null;
  maxDurationOf: Float64Array | null;
  /** Optional stops, skills, route limits (null when the problem has no rules). */
  rules: FleetRules | null;
  /**
   * Without time windows to price (twStart null): the longest allowed route in minutes, duration
   * being additive (driving + service); Infinity when unconstrained.
   */
  durationLimit: number;
  /** Soft windows: price per late minute (0: hard windows, priced by time warp while searching). */
  latePenalty: number;
  /** Route slots = vehicles. */
  routes: number;
  capacity: Float64Array;
  /**
   * Load dimensions: the first is `demand` / `capacity` delivered from the start; more
   * dimensions or pickups (constraints.md: node_pickups, node_extra_demands) make `richLoads`
   * true, and the route model then prices every dimension's peak on board (route-loads.ts).
   */
  loads: LoadDimension[];
  richLoads: boolean;
  fixedCost: Float64Array;
  unitCost: Float64Array;
  speed: Float64Array;
  start: Int32Array;
  end: Int32Array;
  typeOf: Int32Array;
  /** Route slots of each type, in vehicle order. */
  typeSlots: Int32Array[];
  neighbours: Int32Array[];
  maxDistance: number;
  maxDemand: number;
  meanUnitCost: number;
  meanSpeed: number;
}

const GRANULARITY = 20;

/**
 * How the textbook search (textbook-model.ts) sees the same problem: fewer route slots (never
 * more than customers), its own neighbour lists, and windows that cannot bind turned into an
 * additive duration cap (`windows` false, `durationLimit` finite).
 */
export interface TextbookView {
  routes: number;
  neighbours: Int32Array[];
  windows: boolean;
  durationLimit: number;
}

export function buildFleetModel(p: CompiledProblem, view?: TextbookView): FleetModel {
  const t = p.time;
  const routes = view ? view.routes : p.vehicleCount;
  const speed = new Float64Array(routes).fill(1);
  if (t) for (let v = 0; v < routes; v++) speed[v] = t.speed[v]!;
  const service = t ? Float64Array.from(t.serviceMin) : new Float64Array(p.nodeCount);
  for (let i = 0; i < p.nodeCount; i++) if (p.isDepot[i]) service[i] = 0;
  const typeOf = new Int32Array(routes);
  const keys = new Map<string, number>();
  const slots: number[][] = [];
  let maxDistance = 0;
  for (let i = 0; i < p.dist.length; i++) maxDistance = Math.max(maxDistance, p.dist[i]!);
  // The textbook view never has rules (textbook-model.ts refuses problems with them).
  const rules = view ? null : buildFleetRules(p, maxDistance);
  for (let v = 0; v < routes; v++) {
    const key = `${p.capacity[v]}|${p.fixedCost[v]}|${p.unitCost[v]}|${speed[v]}|${p.startNode[v]}|${p.endNode[v]}${rulesKey(rules, v)}`;
    let type = keys.get(key);
    if (type === undefined) {
      type = slots.length;
      keys.set(key, type);
      slots.push([]);
    }
    typeOf[v] = type;
    slots[type]!.push(v);
  }
  let maxDemand = 0;
  for (const c of p.customers) maxDemand = Math.max(maxDemand, p.demand[c]!);
  let unit = 0;
  let speedSum = 0;
  for (let v = 0; v < routes; v++) {
    unit += p.unitCost[v]!;
    speedSum += speed[v]!;
  }
  const binding = !view && t !== null && [...new Set(p.startNode)].some((d) => windowsBindAgainst(p, d));
  let neighbours = view ? view.neighbours : binding ? windowNeighbours(p, GRANULARITY) : nearestNeighbours(p, GRANULARITY);
  // Skills: neighbours that may share a route (fleet-rules.ts), from a list twice as long.
  if (rules?.allowed) neighbours = compatibleNeighbours(rules, p.nodeCount, binding ? windowNeighbours(p, 2 * GRANULARITY) : nearestNeighbours(p, 2 * GRANULARITY), GRANULARITY);
  const timed = t !== null && (!view || view.windows) ? t : null;
  const perVehicle = (f: (v: number) => number) => (timed ? Float64Array.from({ length: routes }, (_, v) => f(v)) : null);
  return {
    p,
    nodeCount: p.nodeCount,
    customers: p.customers,
    dist: p.dist,
    demand: p.demand,
    service,
    twStart: timed ? timed.twStartMin : null,
    twEnd: timed ? timed.twEndMin : null,
    maxDuration: timed ? timed.maxRouteMin : Number.POSITIVE_INFINITY,
    departOpen: perVehicle((v) => departureOpen(p, v)),
    arriveClose: perVehicle((v) => arrivalClose(p, v)),
    maxDurationOf: perVehicle((v) => durationCap(p, v)),
    rules,
    durationLimit: view ? view.durationLimit : Number.POSITIVE_INFINITY,
    latePenalty: timed && timed.latePenaltyPerMin > 0 ? timed.latePenaltyPerMin : 0,
    routes,
    capacity: p.capacity,
    loads: [{ delivery: p.demand, pickup: null, capacity: p.capacity }],
    richLoads: false,
    fixedCost: p.fixedCost,
    unitCost: p.unitCost,
    speed,
    start: p.startNode,
    end: p.endNode,
    typeOf,
    typeSlots: slots.map((s) => Int32Array.from(s)),
    neighbours,
    maxDistance,
    maxDemand,
    meanUnitCost: unit / Math.max(1, routes),
    meanSpeed: speedSum / Math.max(1, routes),
  };
}
