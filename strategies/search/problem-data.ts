import { isSymmetric, nearestNeighbours } from "../core/neighbours.js";
import { travelData, travelKey } from "./travel-data.js";
import { distanceProfiles, type DistanceProfiles } from "./distance-profiles.js";
import { shipmentRoles } from "../core/evaluate-loads.js";
import { windowsBindAgainst, type CompiledProblem, type LockedStops, type Reassignment } from "../core/problem.js";
import { arrivalClose, departureOpen, durationCap } from "../core/evaluate-rules.js";
import { buildFleetRules, compatibleNeighbours, rulesKey, type FleetRules } from "./fleet-rules.js";
import type { LoadDimension } from "./load-segment.js";
import { windowNeighbours } from "./window-neighbours.js";
import { fewerCopyNeighbours, routeCapacityBound } from "./trip-copies.js";

/** Hard time windows priced by time warp, and the working-hours cap on a route's duration (Infinity when none). */
export interface HardWindows {
  start: Float64Array;
  end: Float64Array;
  maxDuration: number;
}

/**
 * The problem as the search sees it, for every method: every vehicle of the request is one route
 * slot with its own capacity, fixed and unit cost, speed and start and end node; vehicles that
 * agree on all of these form a type. Nothing is assumed identical, so mixed fleets, several
 * depots, asymmetric matrices, speeds, windows (hard or soft) and working hours all fit. The
 * identical-vehicles methods build it through an IdenticalVehiclesView and read a single-type fleet as slot 0.
 */
export interface ProblemData {
  p: CompiledProblem;
  nodeCount: number;
  customers: Int32Array;
  /** The request's distances; a vehicle of a profile with its own reads `distances` (distance-profiles.ts). */
  dist: Float64Array;
  distances: DistanceProfiles;
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
  /** Hard windows priced by time warp (null without windows, or when they are soft or cannot bind in an identical-vehicles view). */
  windows: HardWindows | null;
  /**
   * Per node the price of leaving it out (optional stops, or required ones under
   * allow_unassigned; Infinity: must be served); null when every customer must be served.
   */
  skipPrice: Float64Array | null;
  /** Whether the distances the search prices are the same both ways. */
  symmetric: boolean;
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
  /** Backhaul order and shipment pairing to keep on every route (null when neither applies). */
  order: LoadOrder | null;
  /** Stops locked at the head of routes (route-locks.ts); null when none is, and in an identical-vehicles view. */
  locks: LockedStops | null;
  /**
   * The price of serving a stop of the given plan on another vehicle (route-reassignment.ts); null
   * without it, and in an identical-vehicles view.
   */
  reassignment: Reassignment | null;
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
  /**
   * Long routes under binding windows (identical-vehicles model: strategies/settings.ts
   * neighbourhoodSettings), whose local search differs.
   */
  longWindowRoutes: boolean;
  /**
   * Per route slot its travel minutes (n x n, row-major) when it drives on a duration matrix (the
   * request's duration_matrix or its profile's), null for distance / speed; null as a whole when
   * no slot has one. Route times (route-times.ts) read travel minutes through it alone.
   */
  durationOf: (Float64Array | null)[] | null;
  /** Per route slot the price of a minute of route duration (vehicle_unit_time_costs); null when none. */
  timeCostPerMin: Float64Array | null;
  /**
   * Several windows per stop or driver breaks: a visit's service start is no longer one window's
   * clamp, so the route model prices time on the trusted evaluator's schedule, stored per route
   * (route-schedules.ts, and route-breaks.ts for a vehicle's breaks), the way it prices soft
   * windows, its hard lateness and breaks without a place as time warp.
   */
  visitTimes: boolean;
}

const GRANULARITY = 20;
/** Of the GRANULARITY neighbours under backhauls, this many of the customer's own kind (the rest the nearest of any). */
const SAME_KIND = 14;

/**
 * The order rules of constraints.md's second table, checked on the route model (route-loads.ts):
 * under backhauls no delivery node may follow a pickup node; a shipment's two stops share a
 * route, pickup first. Candidates that break them are refused (priced at Infinity), as PyVRP
 * forbids a backhaul -> linehaul arc; pair moves (moves/pair-*.ts) move shipments whole.
 */
export interface LoadOrder {
  /** Per node: 1 delivers (linehaul), 2 picks up (backhaul), 0 neither; null without backhauls. */
  backhaul: Uint8Array | null;
  /** Per node: the other stop of its shipment, -1 none; null without shipments. */
  partner: Int32Array | null;
  /** Per node: 1 a shipment's pickup, -1 its delivery, 0 none. */
  role: Int8Array;
}

/**
 * The load dimensions and order rules of a problem with load rules (p.loads): dimension 0
 * delivers node_demands and picks up node_pickups plus each shipment as a signed pickup (+amount
 * at its pickup, -amount at its delivery), which gives the exact load on board whenever the pair
 * is on one route in order (the order check's job); one delivered dimension per extra dimension.
 */
function loadModel(p: CompiledProblem): { loads: LoadDimension[]; order: LoadOrder | null } {
  const rules = p.loads;
  if (!rules) return { loads: [{ delivery: p.demand, pickup: null, capacity: p.capacity }], order: null };
  const pickup = new Float64Array(p.nodeCount);
  for (let i = 0; i < p.nodeCount; i++) pickup[i] = rules.pickup[i]! + rules.shipmentLoad[i]!;
  const loads: LoadDimension[] = [{ delivery: p.demand, pickup, capacity: p.capacity }];
  const D = rules.extraDims;
  for (let d = 0; d < D; d++) {
    const delivery = new Float64Array(p.nodeCount);
    for (let i = 0; i < p.nodeCount; i++) delivery[i] = rules.extraDemand[i * D + d]!;
    const capacity = new Float64Array(p.vehicleCount);
    for (let v = 0; v < p.vehicleCount; v++) capacity[v] = rules.extraCapacity[v * D + d]!;
    loads.push({ delivery, pickup: null, capacity });
  }
  let backhaul: Uint8Array | null = null;
  if (rules.pickupsAfterDeliveries) {
    backhaul = new Uint8Array(p.nodeCount);
    for (let i = 0; i < p.nodeCount; i++) backhaul[i] = p.demand[i]! > 0 ? 1 : rules.pickup[i]! > 0 ? 2 : 0;
  }
  const partner = rules.shipments.length > 0 ? rules.partner : null;
  const order = backhaul || partner ? { backhaul, partner, role: shipmentRoles(rules) } : null;
  return { loads, order };
}

/**
 * How the identical-vehicles search (identical-vehicles-model.ts) sees the same problem: fewer route slots (never
 * more than customers), its own neighbour lists, and windows that cannot bind turned into an
 * additive duration cap (`windows` false, `durationLimit` finite).
 */
export interface IdenticalVehiclesView {
  routes: number;
  neighbours: Int32Array[];
  windows: boolean;
  durationLimit: number;
  /** Long routes under binding windows (strategies/settings.ts, neighbourhoodSettings). */
  longWindowRoutes?: boolean;
  /** The optional stops' skip prices (the view carries no other rules). */
  skipPrice: Float64Array | null;
  symmetric: boolean;
}

/** Vehicles that differ in an extra load dimension's capacity are different types. */
function extraCapacityKey(p: CompiledProblem, v: number): string {
  const dims = p.loads?.extraDims ?? 0;
  return dims > 0 ? `|${Array.from(p.loads!.extraCapacity.subarray(v * dims, (v + 1) * dims)).join(",")}` : "";
}

export function buildProblemData(p: CompiledProblem, view?: IdenticalVehiclesView): ProblemData {
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
  // The identical-vehicles view never has rules (identical-vehicles-model.ts refuses problems with them).
  const rules = view ? null : buildFleetRules(p, maxDistance);
  for (let v = 0; v < routes; v++) {
    const key =
      `${p.capacity[v]}|${p.fixedCost[v]}|${p.unitCost[v]}|${speed[v]}|` +
      `${p.startNode[v]}|${p.endNode[v]}${rulesKey(rules, v)}${extraCapacityKey(p, v)}${travelKey(p, v)}`;
    // Under a reassignment cost vehicles of one type still differ by the stops homed on them: the
    // vehicle change moves routes home (moves/vehicle-change.ts). A type per vehicle made every
    // move into an empty vehicle and every recreate try each of them, several times slower.
    let type = keys.get(key);
    if (type === undefined) {
      type = slots.length;
      keys.set(key, type);
      slots.push([]);
    }
    typeOf[v] = type;
    slots[type]!.push(v);
  }
  const { loads, order } = loadModel(p);
  let maxDemand = 0;
  for (const c of p.customers) maxDemand = Math.max(maxDemand, p.demand[c]!);
  // Pickups and shipment amounts count as demands for the scale of the load price.
  const pickups = loads[0]!.pickup;
  if (pickups) for (const c of p.customers) maxDemand = Math.max(maxDemand, Math.abs(pickups[c]!));
  let unit = 0;
  let speedSum = 0;
  for (let v = 0; v < routes; v++) {
    unit += p.unitCost[v]!;
    speedSum += speed[v]!;
  }
  const binding = !view && t !== null && [...new Set(p.startNode)].some((d) => windowsBindAgainst(p, d));
  // Skills: neighbours that may share a route (fleet-rules.ts), from a list twice as long; each
  // list costs a pass over every pair of customers, so only the list used is built.
  let neighbours = rules?.allowed
    ? compatibleNeighbours(
        rules,
        p.nodeCount,
        binding ? windowNeighbours(p, 2 * GRANULARITY) : nearestNeighbours(p, 2 * GRANULARITY),
        GRANULARITY,
      )
    : view
      ? view.neighbours
      : binding
        ? windowNeighbours(p, GRANULARITY)
        : nearestNeighbours(p, GRANULARITY);
  if (!view && order?.backhaul) neighbours = sameKindFirst(p, order.backhaul, GRANULARITY, neighbours);
  if (p.trips?.copyOf) neighbours = fewerCopyNeighbours(p.trips.copyOf, neighbours);
  const timed = t !== null && (!view || view.windows) ? t : null;
  const perVehicle = (f: (v: number) => number) => (timed ? Float64Array.from({ length: routes }, (_, v) => f(v)) : null);
  return {
    p,
    nodeCount: p.nodeCount,
    customers: p.customers,
    dist: p.dist,
    distances: distanceProfiles(p, routes),
    demand: p.demand,
    service,
    twStart: timed ? timed.twStartMin : null,
    twEnd: timed ? timed.twEndMin : null,
    maxDuration: timed ? timed.maxRouteMin : Number.POSITIVE_INFINITY,
    departOpen: perVehicle((v) => departureOpen(p, v)),
    arriveClose: perVehicle((v) => arrivalClose(p, v)),
    maxDurationOf: perVehicle((v) => durationCap(p, v)),
    rules,
    windows:
      timed && timed.latePenaltyPerMin === 0 ? { start: timed.twStartMin, end: timed.twEndMin, maxDuration: timed.maxRouteMin } : null,
    skipPrice: view ? view.skipPrice : rules && rules.anyOptional ? rules.skipPrice : null,
    symmetric: view ? view.symmetric : isSymmetric(p),
    durationLimit: view ? view.durationLimit : Number.POSITIVE_INFINITY,
    longWindowRoutes: view?.longWindowRoutes === true,
    latePenalty: timed && timed.latePenaltyPerMin > 0 ? timed.latePenaltyPerMin : 0,
    routes,
    // Vehicles that reload hold capacity per trip (route-trips.ts): no bound on the route's total.
    capacity: p.trips ? routeCapacityBound(p) : p.capacity,
    loads,
    richLoads: p.loads != null,
    order,
    locks: view ? null : (p.locks ?? null),
    reassignment: view ? null : (p.reassignment ?? null),
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
    ...travelData(p, timed !== null ? routes : 0),
  };
}

/**
 * Backhauls: a delivery and a pickup meet on a route only where its deliveries end, so most
 * moves between the two kinds are refused; as PyVRP's proximity does once backhaul -> linehaul
 * arcs are forbidden, each customer's granular neighbours are the nearest of its own kind
 * (customers with neither kind are every kind's).
 */
export function sameKindFirst(p: CompiledProblem, kind: Uint8Array, k: number, near: Int32Array[]): Int32Array[] {
  const n = p.nodeCount;
  const lists: Int32Array[] = new Array(n);
  const customers = Array.from(p.customers);
  for (const c of customers) {
    const others = customers.filter((o) => o !== c && (kind[o] === 0 || kind[c] === 0 || kind[o] === kind[c]));
    const key = (o: number) => p.dist[c * n + o]! + p.dist[o * n + c]!;
    others.sort((a, b) => key(a) - key(b));
    const mixed = new Set(others.slice(0, SAME_KIND));
    for (const o of near[c]!) if (mixed.size < k) mixed.add(o);
    lists[c] = Int32Array.from(mixed);
  }
  return lists;
}
