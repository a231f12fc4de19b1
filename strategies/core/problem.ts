import type { TrafficSlots } from "./traffic.js";

/** The time dimension; present only when windows, service times and speeds are all given. */
export interface TimeBlock {
  twStartMin: Float64Array;
  twEndMin: Float64Array;
  serviceMin: Float64Array;
  /** Distance units per minute, per vehicle. */
  speed: Float64Array;
  /** Route duration cap in minutes (Infinity when there is none). */
  maxRouteMin: number;
  /** > 0: soft windows priced per late minute; 0: hard windows. */
  latePenaltyPerMin: number;
}

/**
 * One problem, compiled once into typed arrays and never changed. Costs are already resolved:
 * under the distance objective every vehicle has fixed cost 0 and unit cost 1, so one formula
 * (fixed + unit x distance, plus lateness) scores both objectives.
 */
export interface CompiledProblem {
  nodeCount: number;
  vehicleCount: number;
  /** Nodes that are no vehicle's start or end: each must be visited exactly once. */
  customers: Int32Array;
  isDepot: Uint8Array;
  /**
   * Row-major: dist[i * nodeCount + j]. EMPTY (length 0) on large problems given by coordinates,
   * whose n x n matrix would not fit in memory: their distances come from `coords` on demand
   * (see `distanceBetween` / `hasDenseMatrix`).
   */
  dist: Float64Array;
  demand: Float64Array;
  capacity: Float64Array;
  fixedCost: Float64Array;
  unitCost: Float64Array;
  startNode: Int32Array;
  endNode: Int32Array;
  /** x, y per node when coordinates were given, else null. */
  coords: Float64Array | null;
  objective: "distance" | "cost";
  time: TimeBlock | null;
  /**
   * Optional stops, skills, shifts and route limits (constraints.md, first table). Absent or null
   * when the request uses none of them: then every customer is required and every vehicle may
   * serve every customer, exactly as before these fields existed.
   */
  rules?: ServiceRules | null;
  /**
   * Pickups, backhauls, shipments and extra load dimensions (constraints.md, second table).
   * Absent or null when the request uses none of them: loads then travel one way (delivered).
   */
  loads?: LoadRules | null;
  /**
   * Stops fixed at the head of vehicles' routes (vehicle_locked_stops). Absent or null when no
   * vehicle has one: then every visit may move, exactly as before the field existed.
   */
  locks?: LockedStops | null;
  /**
   * A price for serving a stop of the given plan on another vehicle (reassignment_cost). Absent
   * or null without it: then the vehicle a stop had before is no concern of the objective.
   */
  reassignment?: Reassignment | null;
  /**
   * Balanced workloads (balance): the objective gains a price per unit of the largest route
   * workload. Absent or null without it: no route's workload is priced.
   */
  balance?: Balance | null;
  /**
   * Travel times, profiles, cost per hour, several windows, breaks and open routes (constraints.md,
   * third table; see travel.ts). Absent or null when the request uses none of them: travel minutes
   * are then distance / speed and every route returns to its end node, exactly as before.
   */
  travel?: TravelRules | null;
  /**
   * Several trips a day and release times (constraints.md, "Plans that change during the day").
   * Absent or null when the request uses neither: a route then never visits a depot inside.
   */
  trips?: TripRules | null;
  /**
   * Objective min_vehicles: the fewest used vehicles first, then the cost (plan-order.ts). Absent
   * otherwise: plans are compared on their cost alone, exactly as before.
   */
  minVehicles?: boolean;
  /**
   * Ride-time limits, incompatible goods and same-vehicle groups (evaluate-visits.ts). Absent or
   * null when the request uses none of them: no stop then constrains another.
   */
  visits?: VisitRules | null;
}

/** Properties of visits and of what is on board between them. Arrays are full length or null when unused. */
export interface VisitRules {
  /** Per node: at a shipment's pickup its max_ride_minutes (Infinity elsewhere); null when no shipment has one. */
  maxRide: Float64Array | null;
  /** Per node: the bit of its goods type among the types incompatible pairs name (0: none); null without pairs. */
  typeBit: Int32Array | null;
  /** Per bit position k: the mask of the types that may not be on board with type k. */
  conflicts: Int32Array;
  /** Per node: its same-vehicle group, -1 in none; null without groups. */
  groupOf: Int32Array | null;
  /** Each group's nodes. */
  groups: Int32Array[];
}

/** The locked head of each route: same vehicle, same order, before every other stop. */
export interface LockedStops {
  /** Per vehicle: its locked stops in order (empty for most). */
  stops: Int32Array[];
  /** Per node: the vehicle it is locked to, -1 when it is free. */
  vehicle: Int32Array;
  /** Per node: its position on that vehicle's route, 1-based (0 when free). */
  position: Int32Array;
}

/** The vehicle each stop of the given plan was on, and the price of serving it on another one. */
/** What a route's workload is: its working minutes, its customers or its distance. */
export type BalanceMeasure = "duration" | "stops" | "distance";

/** The balance term: costPerUnit x the largest workload over the used routes. */
export interface Balance {
  measure: BalanceMeasure;
  /** > 0. */
  costPerUnit: number;
}

export interface Reassignment {
  /** Per node: its vehicle in the given plan, -1 when it was on none (or is a depot). */
  home: Int32Array;
  /** Cost added per stop served by a vehicle other than its home one (> 0). */
  price: number;
  /**
   * Only with the service's default price (src/problem/stability-price.ts): the answer moves at
   * most this share of the given plan's unlocked stops, whenever a feasible plan the search met
   * does, and is the cheapest such plan counted without the price. Absent: the answer is the
   * cheapest plan counted with the price.
   */
  movedShare?: number;
}

/** One driver break: it starts in [earliest, latest] and lasts `duration` minutes. */
export interface BreakRule {
  earliest: number;
  latest: number;
  duration: number;
}

/** Time and cost as partners measure them. Every array is full length; "none" is encoded, never null. */
export interface TravelRules {
  /** Per vehicle: travel minutes row-major (n x n), or null for distance / speed. Vehicles of one network share the array. */
  duration: (Float64Array | null)[];
  /** Per vehicle: distances row-major (n x n), or null for the request's own (dist / coordinates). */
  distance: (Float64Array | null)[];
  /** Per vehicle: the name of its profile, or null. */
  profile: (string | null)[];
  /** Per vehicle: currency per minute of route duration (0 without cost per hour or under the distance objective). */
  timeCostPerMin: Float64Array;
  /** Per node: its windows as [start0, end0, start1, end1, ...] when it has several; null: its one window. */
  windowSets: (Float64Array | null)[];
  /** Per vehicle: its breaks sorted by earliest start ([] for none). */
  breaks: BreakRule[][];
  /** Per vehicle: 1 returns to its end node, 0 an open route that ends at its last stop. */
  returnToEnd: Uint8Array;
  /** Traffic by time of day (time_dependent_durations, core/traffic.ts); absent or null: the same pace all day. */
  traffic?: TrafficSlots | null;
}

/** Reload stops and release times; evaluated by evaluate-trips.ts. */
export interface TripRules {
  /** Per vehicle: the depots it may visit between customers to start a new trip (empty: none). */
  reloadNodes: Int32Array[];
  /** Per vehicle: the most reload stops on its route (0x7fffffff: no limit). */
  maxReloads: Int32Array;
  /** Per node: minutes from which its goods are at the depot (0 at depots); null when every node is released at once. */
  release: Float64Array | null;
  /**
   * The search's expanded problem only (search/trip-copies.ts): per node, the reload node it is a
   * copy of, -1 for the problem's own nodes.
   */
  copyOf?: Int32Array;
}

/** Whether `node` is one of vehicle v's reload nodes. */
export function isReloadNode(p: CompiledProblem, v: number, node: number): boolean {
  const nodes = p.trips?.reloadNodes[v];
  return nodes !== undefined && nodes.includes(node);
}

/** Who may serve what, and when. Every array is full length; "none" is encoded, never null. */
export interface ServiceRules {
  /** Per node: the price of leaving the node unserved; Infinity = required (every depot). */
  skipPenalty: Float64Array;
  /** A required node that fits no feasible route is returned unassigned instead of failing. */
  allowUnassigned: boolean;
  /**
   * allowed[v * nodeCount + i] === 1 when vehicle v has every skill node i needs; null when no
   * node needs a skill (every vehicle may serve every node).
   */
  allowed: Uint8Array | null;
  /** Per vehicle: earliest departure from its start node, minutes (-Infinity: no shift start). */
  shiftStartMin: Float64Array;
  /** Per vehicle: latest arrival at its end node, minutes (Infinity: no shift end). */
  shiftEndMin: Float64Array;
  /** Per vehicle: route distance cap (Infinity: none). */
  maxDistance: Float64Array;
  /**
   * Per vehicle: route duration cap in minutes, same definition as TimeBlock.maxRouteMin, which it
   * replaces for that vehicle (vehicle_max_working_hours, else max_working_hours; Infinity: none).
   */
  maxDurationMin: Float64Array;
  /** Per vehicle: most customers on the route (0x7fffffff: none). */
  maxStops: Int32Array;
}

/** Loads that go both ways, paired stops, and more than one load dimension. */
export interface LoadRules {
  /** Per node: amount picked up and carried to the vehicle's end node (0 at depots). */
  pickup: Float64Array;
  /** Backhauls: on every route every node with a pickup follows every node with a delivery. */
  pickupsAfterDeliveries: boolean;
  /** The request's shipments: same vehicle, pickup before delivery, `amount` on board between. */
  shipments: { pickup: number; delivery: number; amount: number }[];
  /** Per node: the other node of its shipment, -1 when the node is in none. */
  partner: Int32Array;
  /** Per node: +amount at a shipment's pickup, -amount at its delivery, 0 otherwise. */
  shipmentLoad: Float64Array;
  /** D, the number of extra load dimensions (0 when none). */
  extraDims: number;
  /** Row-major extraDemand[i * D + k]: node i's delivered amount in extra dimension k. */
  extraDemand: Float64Array;
  /** Row-major extraCapacity[v * D + k]: vehicle v's capacity in extra dimension k. */
  extraCapacity: Float64Array;
}

/** A solution: the customers of each vehicle's route in visiting order (depots implicit). */
export interface Solution {
  routes: number[][];
}

export function emptySolution(p: CompiledProblem): Solution {
  return { routes: Array.from({ length: p.vehicleCount }, () => []) };
}

export function cloneSolution(s: Solution): Solution {
  return { routes: s.routes.map((r) => r.slice()) };
}

/**
 * Whether some customer's time window is narrower than `depot`'s: then windows can bind in the
 * middle of a route, instead of acting only as a cap on the route's duration.
 */
export function windowsBindAgainst(p: CompiledProblem, depot: number): boolean {
  const t = p.time;
  if (!t) return false;
  const open = t.twStartMin[depot]!;
  const close = t.twEndMin[depot]!;
  for (const c of p.customers) {
    if (t.twStartMin[c]! > open + 1e-9 || t.twEndMin[c]! < close - 1e-9) return true;
  }
  return false;
}

/**
 * A window that leaves a customer at least this share of the span in which a vehicle could start
 * serving it does not bind: it is the horizon rounded, not a wish of the customer.
 */
const UNBINDING_SHARE = 0.99;

/**
 * Share of the customers whose window binds: it leaves less than UNBINDING_SHARE of the span in
 * which a vehicle leaving `depot` at its opening (at its first vehicle's speed) and back by its
 * closing could start serving them. 0 without windows.
 */
export function bindingWindowShare(p: CompiledProblem, depot: number): number {
  const t = p.time;
  if (!t || p.customers.length === 0) return 0;
  const speed = t.speed[0]!;
  let binding = 0;
  for (const c of p.customers) {
    const earliest = t.twStartMin[depot]! + distanceBetween(p, depot, c) / speed;
    const latest = t.twEndMin[depot]! - distanceBetween(p, c, depot) / speed - t.serviceMin[c]!;
    const open = Math.min(latest, t.twEndMin[c]!) - Math.max(earliest, t.twStartMin[c]!);
    if (open < UNBINDING_SHARE * (latest - earliest)) binding++;
  }
  return binding / p.customers.length;
}

/** Euclidean distance between nodes i and j of an interleaved x, y array: THE formula for coordinates. */
export function euclidean(coords: Float64Array, i: number, j: number): number {
  const dx = coords[2 * i]! - coords[2 * j]!;
  const dy = coords[2 * i + 1]! - coords[2 * j + 1]!;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Whether `p.dist` holds the whole n x n matrix (false: distances are computed from coordinates). */
export function hasDenseMatrix(p: CompiledProblem): boolean {
  return p.dist.length === p.nodeCount * p.nodeCount;
}

/** Distance from i to j under either representation (the matrix, or coordinates on demand). */
export function distanceBetween(p: CompiledProblem, i: number, j: number): number {
  return p.dist.length > 0 ? p.dist[i * p.nodeCount + j]! : euclidean(p.coords!, i, j);
}

/**
 * The refusal of a strategy that indexes `p.dist` directly, for problems compiled without it;
 * null when the matrix is there.
 */
export function denseMatrixRefusal(p: CompiledProblem, strategy: string): string | null {
  if (hasDenseMatrix(p)) return null;
  return (
    `the ${strategy} strategy needs the full distance matrix, which is not built for ${p.nodeCount} nodes ` +
    "(distances are computed from node_positions on demand); use the large strategy"
  );
}

/**
 * The refusal of a strategy that knows no reload stops or release times, for problems with them;
 * null without them. Only hgs's general search prices trips (search/route-trips.ts).
 */
export function tripRulesRefusal(p: CompiledProblem, strategy: string): string | null {
  if (!p.trips) return null;
  return `the ${strategy} strategy does not handle vehicle_reload_nodes or node_release_times; use the hgs strategy`;
}

/**
 * The refusal of a strategy that knows no ride-time limits, incompatible goods or same-vehicle
 * groups; null without them. Only hgs's general search and the exhaustive search price them.
 */
export function visitRulesRefusal(p: CompiledProblem, strategy: string): string | null {
  if (!p.visits) return null;
  return `the ${strategy} strategy does not handle max_ride_minutes, incompatible_load_types or same_vehicle_groups; use the hgs strategy`;
}

/**
 * The refusal of a strategy whose moves do not keep locked stops in place (vehicle_locked_stops);
 * null without them.
 */
export function lockedStopsRefusal(p: CompiledProblem, strategy: string): string | null {
  if (!p.locks) return null;
  return `the ${strategy} strategy does not keep vehicle_locked_stops in place; use the hgs strategy`;
}

/**
 * The refusal of a strategy whose search knows only loads delivered from the start (no pickups,
 * backhaul order, shipments or extra dimensions), for problems with load rules; null without them.
 */
export function loadRulesRefusal(p: CompiledProblem, strategy: string): string | null {
  if (!p.loads) return null;
  return (
    `the ${strategy} strategy does not handle node_pickups, pickups_after_deliveries, shipments ` +
    "or extra load dimensions; use the hgs strategy"
  );
}

/** Whether any vehicle has breaks to take. */
export function hasBreaks(p: CompiledProblem): boolean {
  return p.travel?.breaks.some((list) => list.length > 0) ?? false;
}
