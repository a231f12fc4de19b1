import { onBoardOf } from "./onboard-view.js";
import type { SolveRequest, SolvedResult } from "./types.js";

/** One node of a route with its schedule in minutes after `base_start_time`. */
export interface Stop {
  node: number;
  arrive: number | null;
  serviceStart: number | null;
  leave: number | null;
  waiting: number;
  service: number;
  lateness: number;
  window: [number, number] | null;
  /** The stop's several windows (node_time_window_sets), null when it has one. */
  windows: [number, number][] | null;
  /** A customer served here (false at the start node, at a reload stop, and at the end node of a route that returns). */
  served: boolean;
  /** A reload stop (vehicle_reload_nodes): back at a depot between two trips, the load back at 0. */
  reload: boolean;
  /** One of the first `vehicle_locked_stops[v]` stops of `initial_routes[v]`, kept in place. */
  locked: boolean;
  load: number;
  /** Load on board after the stop (`loads_on_board`), null when the result has none. */
  onBoard: number | null;
}

export interface VehiclePlan {
  label: string;
  vehicle: number;
  color: string;
  route: number[];
  /** Customers served (the route without its start node, its reload stops and, unless the route is open, its end node). */
  customers: number;
  /** Trips: one more than its reload stops. */
  trips: number;
  /** The largest load of one trip (the route's load when it has one trip). */
  peakTripLoad: number;
  distance: number;
  cost: number;
  load: number;
  capacity: number;
  stops: Stop[];
  /** `loads_on_board` / `extra_loads_on_board` of this vehicle (null for requests without load fields). */
  onBoard: number[] | null;
  extraOnBoard: number[][] | null;
  /** Departure from the start node and arrival at the end node (null without the time dimension). */
  depart: number | null;
  finish: number | null;
  lateness: number;
  /** The vehicle's shift [earliest departure, latest return] (vehicle_time_windows; null: none or untimed). */
  shift: [number, number] | null;
  /** Its working-hours cap in minutes (vehicle_max_working_hours, else max_working_hours; null: none). */
  capMinutes: number | null;
  /** The breaks the result gives it (`breaks`), in minutes after `base_start_time`. */
  breaks: Break[];
  /** The road network it drives on (vehicle_profiles; null: the request's own). */
  profile: string | null;
}

/** A driver's break: when it starts and ends, and the node after whose service it is taken. */
export interface Break {
  start: number;
  end: number;
  afterNode: number;
}

/** A customer the plan leaves unserved, and why (the result's `unassigned`). */
export interface Unassigned {
  reason: string;
  message: string;
}

export interface PlanView {
  vehicles: VehiclePlan[];
  timed: boolean;
  workingCapMinutes: number | null;
  totals: { distance: number; cost: number; load: number; lateness: number; customers: number };
  /** Which vehicle visits a node, and at which position of its route. */
  visits: Map<number, { plan: VehiclePlan; stop: Stop }>;
  /** Customers left unserved, by node (empty when the request lets none be left out). */
  unassigned: Map<number, Unassigned>;
  /** The skip penalties of those customers, in total_cost (null when the result has none). */
  skipPenaltyTotal: number | null;
}

/** One clearly distinct colour per vehicle (golden-angle hues), as #rrggbb so tests can find it. */
export function vehicleColor(index: number): string {
  const hue = (index * 137.508) % 360;
  return hslToHex(hue, 0.7, 0.42);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function baseMinutes(request: SolveRequest): number {
  const [h, m, s] = request.base_start_time ?? [9, 0, 0];
  return h * 60 + m + s / 60;
}

/** "HH:MM:SS" (hours may pass 23) as minutes after `base_start_time`, like the request's windows. */
export function clockToMinutes(clock: string, base: number): number {
  const [h = 0, m = 0, s = 0] = clock.split(":").map(Number);
  return h * 60 + m + s / 60 - base;
}

export function minutesToClock(minutes: number, base: number): string {
  const total = Math.round((minutes + base) * 60);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h, m, s].map((x) => String(x).padStart(2, "0")).join(":");
}

/** Whether the request has the time dimension: windows, service times, and speeds or a duration matrix. */
export function isTimed(request: SolveRequest): boolean {
  const travel = Array.isArray(request.vehicle_speeds) || Array.isArray(request.duration_matrix);
  return Array.isArray(request.node_time_windows) && Array.isArray(request.node_service_time) && travel;
}

/** The load each trip delivers: the cumulative load before each reload stop and at the end. */
function tripLoads(stops: Stop[]): number[] {
  const out: number[] = [];
  stops.forEach((stop, i) => {
    if (stop.reload) out.push(stops[i - 1]?.load ?? 0);
  });
  out.push(stops[stops.length - 1]?.load ?? 0);
  return out;
}

/** The result's `breaks` of one vehicle, read as minutes. */
function breaksOf(result: SolvedResult, label: string, base: number): Break[] {
  const all = (result as { breaks?: Record<string, { start: string; end: string; after_node: number }[]> }).breaks;
  return (all?.[label] ?? []).map((b) => ({
    start: clockToMinutes(b.start, base),
    end: clockToMinutes(b.end, base),
    afterNode: b.after_node,
  }));
}

/** The nodes vehicle `v` keeps locked at the head of its route (initial_routes, vehicle_locked_stops). */
function lockedNodes(request: SolveRequest, v: number): Set<number> {
  const routes = request.initial_routes as (number[] | null)[] | undefined;
  const counts = request.vehicle_locked_stops as number[] | undefined;
  return new Set((routes?.[v] ?? []).slice(0, counts?.[v] ?? 0));
}

/** The result read against its request: per vehicle the schedule, cost and load, and the totals. */
export function buildPlanView(request: SolveRequest, result: SolvedResult): PlanView {
  const timed = isTimed(request) && Object.keys(result.time_windows ?? {}).length > 0;
  const base = baseMinutes(request);
  // min_vehicles prices by the cost arrays when it gives any (its second figure), as min_total_cost does.
  const costArrays = [request.vehicle_fixed_costs, request.vehicle_unit_distance_costs, request.vehicle_unit_time_costs];
  const priced = request.objective === "min_vehicles" && costArrays.some((costs) => costs != null);
  const costObjective = request.objective === "min_total_cost" || priced;
  const soft = timed && (request.late_penalty_per_min ?? 0) > 0;
  const labels = Object.keys(result.routes).sort((a, b) => vehicleId(a) - vehicleId(b));
  const visits = new Map<number, { plan: VehiclePlan; stop: Stop }>();
  const vehicles = labels.map((label, k): VehiclePlan => {
    const vehicle = vehicleId(label);
    const route = result.routes[label] ?? [];
    const loads = result.loads[label] ?? [];
    const times = result.time_windows[label] ?? [];
    const { onBoard, extraOnBoard } = onBoardOf(result, label);
    const locked = lockedNodes(request, vehicle);
    // An open route (vehicle_return_to_end false) ends at its last customer: every node after the first is a stop.
    const open = (request.vehicle_return_to_end as boolean[] | undefined)?.[vehicle] === false;
    const isStop = (i: number) => i > 0 && (open || i < route.length - 1);
    const windowSets = request.node_time_window_sets as ([number, number][] | null)[] | undefined;
    const reloadNodes = new Set((request.vehicle_reload_nodes as (number[] | null)[] | undefined)?.[vehicle] ?? []);
    const stops = route.map((node, i): Stop => {
      const reload = isStop(i) && reloadNodes.has(node);
      const window = timed ? (request.node_time_windows?.[node] ?? null) : null;
      const windows = timed && isStop(i) ? (windowSets?.[node] ?? null) : null;
      // The document types each pair as a string array of exactly two items.
      const pair = timed ? times[i] : undefined;
      const arrive = pair?.[0] !== undefined ? clockToMinutes(pair[0], base) : null;
      const leave = pair?.[1] !== undefined ? clockToMinutes(pair[1], base) : null;
      const service = timed && isStop(i) ? (request.node_service_time?.[node] ?? 0) : 0;
      const serviceStart = leave === null ? null : !isStop(i) && i > 0 ? arrive : leave - service;
      const waiting = arrive !== null && serviceStart !== null ? Math.max(0, serviceStart - arrive) : 0;
      const lateness = serviceStart !== null && window && i > 0 ? Math.max(0, serviceStart - window[1]) : 0;
      const isLocked = isStop(i) && locked.has(node);
      const load = loads[i] ?? 0;
      return {
        node,
        arrive,
        serviceStart,
        leave,
        waiting,
        service,
        lateness,
        window,
        windows,
        served: isStop(i) && !reload,
        reload,
        locked: isLocked,
        load,
        onBoard: onBoard?.[i] ?? null,
      };
    });
    const distance = result.distances[k] ?? 0;
    const fixed = costObjective ? (request.vehicle_fixed_costs?.[vehicle] ?? 0) : 0;
    const unit = costObjective ? (request.vehicle_unit_distance_costs?.[vehicle] ?? 1) : 1;
    const lateness = stops.reduce((s, stop) => s + stop.lateness, 0);
    const depart = stops[0]?.leave ?? null;
    const last = stops[stops.length - 1];
    const finish = (open ? last?.leave : last?.arrive) ?? null;
    const perHour = costObjective ? ((request.vehicle_unit_time_costs as number[] | undefined)?.[vehicle] ?? 0) : 0;
    const timeCost = perHour > 0 && depart !== null && finish !== null ? (perHour * (finish - depart)) / 60 : 0;
    const shiftPair = request.vehicle_time_windows;
    const shift = timed && Array.isArray(shiftPair) && Array.isArray(shiftPair[vehicle]) ? (shiftPair[vehicle] as [number, number]) : null;
    const ownHours = (request.vehicle_max_working_hours as (number | null)[] | undefined)?.[vehicle];
    const hours = typeof ownHours === "number" ? ownHours : request.max_working_hours;
    const plan: VehiclePlan = {
      label,
      vehicle,
      color: vehicleColor(vehicle),
      route,
      customers: stops.filter((s) => s.served).length,
      trips: 1 + stops.filter((s) => s.reload).length,
      distance,
      cost: fixed + unit * distance + timeCost + (soft ? lateness * (request.late_penalty_per_min ?? 0) : 0),
      load: tripLoads(stops).reduce((a, b) => a + b, 0),
      peakTripLoad: Math.max(0, ...tripLoads(stops)),
      capacity: request.vehicles_capacity[vehicle] ?? 0,
      stops,
      onBoard,
      extraOnBoard,
      depart,
      finish,
      lateness,
      shift,
      capMinutes: timed && typeof hours === "number" && hours > 0 ? hours * 60 : null,
      breaks: timed ? breaksOf(result, label, base) : [],
      profile: (request.vehicle_profiles as (string | null)[] | undefined)?.[vehicle] ?? null,
    };
    stops.forEach((stop, i) => {
      if (isStop(i)) visits.set(stop.node, { plan, stop });
    });
    return plan;
  });
  const sum = (f: (v: VehiclePlan) => number) => vehicles.reduce((s, v) => s + f(v), 0);
  const cap =
    timed && typeof request.max_working_hours === "number" && request.max_working_hours > 0 ? request.max_working_hours * 60 : null;
  return {
    vehicles,
    timed,
    workingCapMinutes: cap,
    totals: {
      distance: sum((v) => v.distance),
      cost: sum((v) => v.cost),
      load: sum((v) => v.load),
      lateness: sum((v) => v.lateness),
      customers: visits.size,
    },
    visits,
    unassigned: new Map((result.unassigned ?? []).map((u) => [u.node, { reason: u.reason, message: u.message }])),
    skipPenaltyTotal: result.skip_penalty_total ?? null,
  };
}

export function vehicleId(label: string): number {
  return Number(label.replace(/^Vehicle /, ""));
}
