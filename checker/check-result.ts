import { expect } from "chai";
import { checkLoadRules, type LoadFieldsOfRequest } from "./check-loads.js";
import { checkTripRules, type TripFieldsOfRequest } from "./check-trips.js";
import { checkVisitRules, type VisitFieldsOfRequest } from "./check-visits.js";
import { balanceCheck, type BalanceFieldsOfRequest } from "./check-balance.js";

/** The fields of a capacity-only request that the result checks read. */
export interface PlainCvrpRequest {
  node_num: number;
  distance_matrix: number[][];
  node_positions?: number[][];
  start_nodes: number[];
  end_nodes: number[];
  node_demands: number[];
  vehicles_capacity: number[];
}

/**
 * The constraint fields of constraints.md's first table, as the checker reads them (a plain
 * request has none of them).
 */
export interface ConstraintRequestFields {
  node_skip_penalties?: (number | null)[] | null;
  allow_unassigned?: boolean | null;
  node_skills?: (string[] | null)[] | null;
  vehicle_skills?: (string[] | null)[] | null;
  vehicle_time_windows?: (number[] | null)[] | null;
  vehicle_max_distance?: (number | null)[] | null;
  vehicle_max_working_hours?: (number | null)[] | null;
  vehicle_max_stops?: (number | null)[] | null;
  max_working_hours?: number | string | null;
  base_start_time?: number[];
  initial_routes?: (number[] | null)[] | null;
  vehicle_locked_stops?: number[] | null;
  reassignment_cost?: number | null;
}

interface PlainResult {
  total_cost: number;
  routes: Record<string, number[]>;
  distances: number[];
  loads: Record<string, number[]>;
  time_windows?: Record<string, string[][]>;
  unassigned?: { node: number; reason: string; message: string; evidence: Record<string, unknown> }[];
  skip_penalty_total?: number;
  route_details?: Record<string, { cost: number; balance_measure?: number }>;
  loads_on_board?: Record<string, number[]>;
  extra_loads_on_board?: Record<string, number[][]>;
  reassigned_stops?: { node: number; previous_vehicle: number; vehicle: number }[];
  reassignment_cost_total?: number;
  balance_cost?: number;
}

const REASONS = new Set([
  "skipped_cheaper",
  "demand_exceeds_capacity",
  "no_vehicle_with_skills",
  "window_unreachable",
  "shift_too_short",
  "distance_limit",
  "working_hours_too_short",
  "stops_limit",
  "same_vehicle_group",
  "no_feasible_insertion",
]);

/** Minutes after base_start_time of an HH:MM:SS clock time. */
function minutesOf(clock: string, base: number[]): number {
  const [h, m, s] = clock.split(":").map(Number) as [number, number, number];
  const [bh = 9, bm = 0, bs = 0] = base;
  return (h * 3600 + m * 60 + s - (bh * 3600 + bm * 60 + bs)) / 60;
}

/**
 * An independent, deliberately naive check of a distance-objective result: every customer exactly
 * once (or, where the request lets customers be left out, listed in `unassigned` instead), routes
 * from start to end depot, capacity, loads, distances and total cost recomputed from the request;
 * and the constraint fields when the request has them: skills, stop and distance caps, shifts and
 * per-vehicle working hours (read off `time_windows`, to the second), skip penalties in
 * `total_cost` and `skip_penalty_total`, `unassigned` ascending with known reasons, locked stops
 * (vehicle_locked_stops) at the head of their vehicle's route, stops served on another vehicle
 * than initial_routes' priced at reassignment_cost in `total_cost` and listed, the balance term
 * (check-balance.ts) in `total_cost` and apart; and the load
 * rules (pickups, backhauls, shipments, extra dimensions: check-loads.ts) when the request has
 * them, their absence otherwise.
 */
export function checkDistanceResult(
  request: PlainCvrpRequest &
    ConstraintRequestFields &
    Partial<LoadFieldsOfRequest> &
    TripFieldsOfRequest &
    VisitFieldsOfRequest &
    BalanceFieldsOfRequest,
  result: PlainResult,
): void {
  const n = request.node_num;
  const d = (i: number, j: number): number => {
    const pos = request.node_positions;
    if (pos && pos.length === n) return Math.hypot(pos[i]![0]! - pos[j]![0]!, pos[i]![1]! - pos[j]![1]!);
    return request.distance_matrix[i]![j]!;
  };
  const depots = new Set([...request.start_nodes, ...request.end_nodes]);
  const seen = new Map<number, number>();
  const labels = Object.keys(result.routes);
  const ids = labels.map((l) => Number(/^Vehicle (\d+)$/.exec(l)![1]));
  expect(ids, "route keys ascending by vehicle id").to.deep.equal([...ids].sort((a, b) => a - b));
  expect(result.distances).to.have.length(labels.length);
  let total = 0;
  const routeDistances: Record<string, number> = {};
  // A vehicle with locked stops is used: its route must be in the result.
  (request.vehicle_locked_stops ?? []).forEach((k, v) => {
    if (k > 0) expect(ids, `Vehicle ${v} serves its locked stops`).to.include(v);
  });
  labels.forEach((label, k) => {
    const v = ids[k]!;
    const route = result.routes[label]!;
    expect(route[0], `${label} starts at its start node`).to.equal(request.start_nodes[v]);
    expect(route[route.length - 1], `${label} ends at its end node`).to.equal(request.end_nodes[v]);
    let load = 0;
    let dist = 0;
    const loads: number[] = [];
    // Several trips: a reload stop of the vehicle ends a trip, whose load must fit; the next starts empty.
    const reload = new Set(request.vehicle_reload_nodes?.[v] ?? []);
    route.forEach((node, i) => {
      if (i > 0) dist += d(route[i - 1]!, node);
      if (i > 0 && i < route.length - 1 && reload.has(node)) {
        expect(load, `${label} trip ending at position ${i} within capacity`).to.be.at.most(request.vehicles_capacity[v]!);
        load = 0;
      } else if (i > 0 && i < route.length - 1) {
        expect(depots.has(node), `${label} visits depot ${node} as a customer`).to.equal(false);
        seen.set(node, (seen.get(node) ?? 0) + 1);
        load += request.node_demands[node]!;
      }
      loads.push(load);
    });
    expect(load, `${label} delivered load within capacity`).to.be.at.most(request.vehicles_capacity[v]!);
    expect(result.loads[label]).to.deep.equal(loads);
    expect(result.distances[k]).to.be.closeTo(dist, 1e-6 * Math.max(1, dist));
    checkRouteRules(request, result, label, v, route, dist);
    checkTripRules(request, result, label, v, route);
    total += dist;
    routeDistances[label] = dist;
  });
  const unassigned = result.unassigned;
  const mayLeaveOut =
    request.allow_unassigned === true ||
    (request.node_skip_penalties ?? []).some((x, i) => x !== null && x !== undefined && !depots.has(i));
  expect(unassigned !== undefined, "unassigned present exactly when a customer may be left out").to.equal(mayLeaveOut);
  expect(result.skip_penalty_total !== undefined, "skip_penalty_total present exactly with unassigned").to.equal(mayLeaveOut);
  const left = new Set((unassigned ?? []).map((u) => u.node));
  const nodes = (unassigned ?? []).map((u) => u.node);
  expect(nodes, "unassigned ascending by node, each once").to.deep.equal([...new Set(nodes)].sort((a, b) => a - b));
  let penalties = 0;
  for (const u of unassigned ?? []) {
    expect(REASONS.has(u.reason), `reason ${u.reason}`).to.equal(true);
    expect(u.message, `node ${u.node} has a message`).to.match(new RegExp(`node ${u.node}\\b`));
    const penalty = request.node_skip_penalties?.[u.node];
    if (penalty === null || penalty === undefined)
      expect(request.allow_unassigned, `required node ${u.node} left out without allow_unassigned`).to.equal(true);
    else penalties += penalty;
    if (u.reason === "skipped_cheaper") expect(penalty, `skipped_cheaper node ${u.node} is optional`).to.be.a("number");
  }
  for (let node = 0; node < n; node++) {
    if (depots.has(node)) continue;
    const expected = left.has(node) ? 0 : 1;
    expect(
      seen.get(node) ?? 0,
      left.has(node) ? `unassigned customer ${node} on no route` : `customer ${node} visited exactly once`,
    ).to.equal(expected);
  }
  if (mayLeaveOut) expect(result.skip_penalty_total).to.be.closeTo(penalties, 1e-6 * Math.max(1, penalties));
  const expectedCost = total + penalties + reassignmentCheck(request, result) + balanceCheck(request, result, routeDistances);
  expect(result.total_cost).to.be.closeTo(expectedCost, 1e-6 * Math.max(1, expectedCost));
  if (result.route_details && mayLeaveOut) {
    const routeCosts = Object.values(result.route_details).reduce((s, r) => s + r.cost, 0);
    expect(result.total_cost, "total_cost = route costs + skip penalties").to.be.closeTo(
      routeCosts + penalties + (result.balance_cost ?? 0),
      1e-6 * Math.max(1, expectedCost),
    );
  }
  checkLoadRules(request, result);
  checkVisitRules(request, result);
}

/**
 * The stops served on another vehicle than in initial_routes, from the routes: listed in
 * `reassigned_stops` (ascending by node) with their price in `reassignment_cost_total` exactly
 * when the request prices them; returns that price, which `total_cost` includes.
 */
function reassignmentCheck(request: ConstraintRequestFields, result: PlainResult): number {
  const price = request.reassignment_cost ?? 0;
  expect(result.reassigned_stops !== undefined, "reassigned_stops present exactly with a reassignment cost").to.equal(price > 0);
  expect(result.reassignment_cost_total !== undefined, "reassignment_cost_total present exactly with a reassignment cost").to.equal(
    price > 0,
  );
  if (!(price > 0)) return 0;
  const home = new Map<number, number>();
  // Reload stops (depots) in the plan serve nobody: they have no vehicle to keep.
  const depots = new Set([...(request as PlainCvrpRequest).start_nodes, ...(request as PlainCvrpRequest).end_nodes]);
  (request.initial_routes ?? []).forEach((route, v) => (route ?? []).forEach((c) => depots.has(c) || home.set(c, v)));
  const moved: { node: number; previous_vehicle: number; vehicle: number }[] = [];
  for (const [label, route] of Object.entries(result.routes)) {
    const v = Number(label.replace("Vehicle ", ""));
    for (const node of route.slice(1, -1)) {
      const h = home.get(node);
      if (h !== undefined && h !== v) moved.push({ node, previous_vehicle: h, vehicle: v });
    }
  }
  moved.sort((a, b) => a.node - b.node);
  expect(result.reassigned_stops, "reassigned_stops").to.deep.equal(moved);
  expect(result.reassignment_cost_total).to.be.closeTo(price * moved.length, 1e-6 * Math.max(1, price * moved.length));
  return price * moved.length;
}

/** Skills, stop and distance caps, shifts and per-vehicle working hours of one route. */
function checkRouteRules(
  request: ConstraintRequestFields,
  result: PlainResult,
  label: string,
  v: number,
  route: number[],
  dist: number,
): void {
  const customers = route.slice(1, -1).filter((c) => !(request as TripFieldsOfRequest).vehicle_reload_nodes?.[v]?.includes(c));
  const has = new Set(request.vehicle_skills?.[v] ?? []);
  for (const c of customers) {
    for (const skill of request.node_skills?.[c] ?? []) expect(has.has(skill), `${label} lacks skill ${skill} of node ${c}`).to.equal(true);
  }
  // Locked stops: the route begins with the first k stops of its initial route (reload stops among them), in that order.
  const locked = (request.initial_routes?.[v] ?? []).slice(0, request.vehicle_locked_stops?.[v] ?? 0);
  expect(route.slice(1, 1 + locked.length), `${label} begins with its locked stops`).to.deep.equal(locked);
  const maxStops = request.vehicle_max_stops?.[v];
  if (maxStops != null) expect(customers.length, `${label} stops`).to.be.at.most(maxStops);
  const maxDistance = request.vehicle_max_distance?.[v];
  if (maxDistance != null) expect(dist, `${label} distance`).to.be.at.most(maxDistance + 1e-6);
  const times = result.time_windows?.[label];
  if (!times || times.length === 0) return;
  const base = request.base_start_time ?? [9, 0, 0];
  const departure = minutesOf(times[0]![1]!, base);
  const arrival = minutesOf(times[times.length - 1]![0]!, base);
  // Clock times are rounded to the second.
  const slack = 1 / 60 + 1e-9;
  const shift = request.vehicle_time_windows?.[v];
  if (shift) {
    expect(departure, `${label} leaves before its shift`).to.be.at.least(shift[0]! - slack);
    expect(arrival, `${label} returns after its shift`).to.be.at.most(shift[1]! + slack);
  }
  const hours =
    request.vehicle_max_working_hours?.[v] ?? (typeof request.max_working_hours === "number" ? request.max_working_hours : null);
  if (hours != null) expect(arrival - departure, `${label} working minutes`).to.be.at.most(hours * 60 + 2 * slack);
}
