import { expect } from "chai";
import fc from "fast-check";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { arrivalClose, departureOpen, durationCap } from "../../strategies/core/evaluate-rules.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import type { Penalties } from "../../strategies/search/penalties.js";

export interface FleetOptions {
  customers: number;
  /** Vehicle types (capacity, costs, speed, depots); each with 1-2 vehicles. */
  types: number;
  depots: number;
  mixedEnds: boolean;
  asymmetric: boolean;
  cost: boolean;
  time: "none" | "hard" | "soft";
  hours: boolean;
  speeds: boolean;
  seed: number;
}

/**
 * A random instance of the general search's kind: vehicle types (capacity, fixed and unit cost,
 * speed, start and end node) with counts, one to three depots, optionally different start and
 * end nodes, asymmetric distances, hard or soft windows with service times, working hours.
 */
export function fleetInstance(o: FleetOptions): SolveRequestInput {
  let s = o.seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = o.depots + o.customers;
  const pos = Array.from({ length: n }, () => [Math.round(rand() * 100), Math.round(rand() * 100)]);
  const demands = pos.map((_, i) => (i < o.depots ? 0 : 1 + Math.floor(rand() * 6)));
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity: number[] = [];
  const fixed: number[] = [];
  const unit: number[] = [];
  const speed: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (let t = 0; t < o.types; t++) {
    const count = 1 + Math.floor(rand() * 2);
    const cap = Math.max(6, Math.ceil(((0.6 + rand()) * total) / o.types));
    const f = o.cost ? Math.round(rand() * 60) : 0;
    const u = o.cost ? 0.5 + Math.round(rand() * 15) / 10 : 1;
    const sp = o.speeds ? 0.5 + Math.round(rand() * 20) / 10 : 1;
    const start = Math.floor(rand() * o.depots);
    const end = o.mixedEnds ? Math.floor(rand() * o.depots) : start;
    for (let k = 0; k < count; k++) {
      capacity.push(cap);
      fixed.push(f);
      unit.push(u);
      speed.push(sp);
      starts.push(start);
      ends.push(end);
    }
  }
  const req: SolveRequestInput = {
    objective: o.cost ? "min_total_cost" : "min_total_distance",
    node_num: n,
    vehicle_num: capacity.length,
    distance_matrix: pos.map((a, i) =>
      pos.map((b, j) => (i === j ? 0 : Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) * (o.asymmetric ? 0.7 + 0.6 * rand() : 1)))),
    ),
    start_nodes: starts,
    end_nodes: ends,
    node_demands: demands,
    vehicles_capacity: capacity,
  };
  if (o.cost) {
    req.vehicle_fixed_costs = fixed;
    req.vehicle_unit_distance_costs = unit;
  }
  if (o.time !== "none") {
    const horizon = 300 + Math.round(rand() * 600);
    req.node_time_windows = pos.map((_, i): [number, number] => {
      if (i < o.depots) return [Math.round(rand() * 30), horizon];
      const open = Math.round(rand() * 0.7 * horizon);
      return [open, Math.min(horizon, open + 10 + Math.round(rand() * (rand() < 0.3 ? 40 : 0.5 * horizon)))];
    });
    req.node_service_time = pos.map((_, i) => (i < o.depots ? 0 : Math.round(rand() * 15)));
    req.vehicle_speeds = speed;
    if (o.hours) req.max_working_hours = 1 + Math.round(rand() * 40) / 10;
    if (o.time === "soft") req.late_penalty_per_min = 0.5 + Math.round(rand() * 30) / 10;
  }
  return req;
}

export const fleetArb = (time: FleetOptions["time"], maxCustomers = 12): fc.Arbitrary<FleetOptions> =>
  fc.record({
    customers: fc.integer({ min: 2, max: maxCustomers }),
    types: fc.integer({ min: 1, max: 3 }),
    depots: fc.integer({ min: 1, max: 3 }),
    mixedEnds: fc.boolean(),
    asymmetric: fc.boolean(),
    cost: fc.boolean(),
    time: fc.constant(time),
    hours: fc.boolean(),
    speeds: fc.boolean(),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
  });

/**
 * Time warp and duration of vehicle v driving `route`, straight from decisions.md's clock and
 * independent of the segment algebra: leave the start node between `open` (default: its window's
 * opening; a shift may move it) and its closing, drive at the vehicle's speed, wait if early, take
 * lateness back when late (time warp; a departure forced after the start node closes counts too);
 * arrive at the end node by `arriveClose` (default: its window's closing), no wait there. The least
 * warp is that of leaving at `open`; the duration is that of the latest departure with that least
 * warp (bisection).
 */
export function plainWarp(
  p: CompiledProblem,
  v: number,
  route: number[],
  bounds: { open?: number; arriveClose?: number; minutes?: (a: number, b: number) => number; noReturn?: boolean } = {},
): { warp: number; duration: number } {
  const t = p.time!;
  const n = p.nodeCount;
  const start = p.startNode[v]!;
  const end = p.endNode[v]!;
  const speed = t.speed[v]!;
  const open = bounds.open ?? t.twStartMin[start]!;
  const close = t.twEndMin[start]!;
  const last = bounds.arriveClose ?? t.twEndMin[end]!;
  const startWarp = Math.max(0, open - close);
  // Travel minutes: the caller's (a duration matrix), else distance / speed; an open route has no way back.
  const minutes = bounds.minutes ?? ((a: number, b: number) => p.dist[a * n + b]! / speed);
  const simulate = (departure: number) => {
    let clock = departure;
    let prev = start;
    let warp = startWarp;
    for (const c of route) {
      const arrive = clock + minutes(prev, c);
      let begin = Math.max(arrive, t.twStartMin[c]!);
      if (begin > t.twEndMin[c]!) {
        warp += begin - t.twEndMin[c]!;
        begin = t.twEndMin[c]!;
      }
      clock = begin + t.serviceMin[c]!;
      prev = c;
    }
    let arrive = bounds.noReturn ? clock : clock + minutes(prev, end);
    if (!bounds.noReturn && arrive > last) {
      warp += arrive - last;
      arrive = last;
    }
    return { warp, duration: arrive - departure + warp - startWarp };
  };
  const least = simulate(open).warp;
  let lo = open;
  let hi = Math.max(open, close);
  if (simulate(hi).warp <= least + 1e-12) lo = hi;
  for (let k = 0; k < 200 && hi - lo > 1e-12; k++) {
    const mid = (lo + hi) / 2;
    if (simulate(mid).warp <= least + 1e-12) lo = mid;
    else hi = mid;
  }
  return { warp: least, duration: simulate(lo).duration };
}

/**
 * Penalised cost of vehicle v driving `route`, from scratch: the shared evaluator's distance,
 * cost, load and (soft windows) lateness and working hours; under hard windows the plain time warp
 * and duration, and where nothing warps a check that the evaluator agrees (on time, same duration).
 */
/** The reassignment cost of the route, counted here from the plan's homes (0 without it). */
export function reassignmentCost(p: CompiledProblem, v: number, route: readonly number[]): number {
  const r = p.reassignment;
  if (!r) return 0;
  return r.price * route.filter((c) => r.home[c]! >= 0 && r.home[c] !== v).length;
}

export function scratchRouteCost(p: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, v, route);
  let cost = p.fixedCost[v]! + p.unitCost[v]! * score.distance + pen.load * score.capacityExcess + reassignmentCost(p, v, route);
  const t = p.time;
  if (!t) return cost;
  if (t.latePenaltyPerMin > 0) return cost + score.latePenalty + pen.duration * score.durationExcessMin;
  const { warp, duration } = plainWarp(p, v, route);
  if (warp <= 1e-9) {
    expect(score.lateMinutes, "no warp: not late").to.equal(0);
    expect(score.durationMin, "no warp: the evaluator's duration").to.be.closeTo(duration, 1e-6);
  } else expect(score.lateMinutes, "warp: late").to.be.greaterThan(0);
  cost += pen.timeWarp * warp + pen.duration * Math.max(0, duration - t.maxRouteMin);
  return cost;
}

/** Random prices of infeasibility for the searches under rules (distance and stop caps included). */
export const rulesPenaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
  distance: fc.double({ min: 0.1, max: 50, noNaN: true }),
  stops: fc.double({ min: 0.1, max: 200, noNaN: true }),
});

/** Random rules on top of a fleet instance: skip penalties, two skills, shifts, distance, hours and stops caps. */
export function withRules(req: SolveRequestInput, seed: number, allowUnassigned: boolean): SolveRequestInput {
  const rng = new Rng(seed);
  const n = req.node_num;
  const m = req.vehicle_num;
  const depots = new Set([...(req.start_nodes ?? []), ...(req.end_nodes ?? [])]);
  const timed = req.node_time_windows != null;
  const horizon = timed ? Math.max(...req.node_time_windows!.map((w) => w[1]!)) : 0;
  const fields: ConstraintFields = {
    node_skip_penalties: Array.from({ length: n }, (_, i) => (depots.has(i) || rng.next() < 0.4 ? null : rng.int(120))),
    allow_unassigned: allowUnassigned,
    node_skills: Array.from({ length: n }, (_, i) => (depots.has(i) || rng.next() < 0.5 ? null : rng.next() < 0.5 ? ["a"] : ["b"])),
    vehicle_skills: Array.from({ length: m }, () => (rng.next() < 0.5 ? ["a", "b"] : rng.next() < 0.5 ? ["a"] : ["b"])),
    vehicle_max_distance: Array.from({ length: m }, () => (rng.next() < 0.5 ? null : 60 + rng.int(250))),
    vehicle_max_stops: Array.from({ length: m }, () => (rng.next() < 0.5 ? null : 1 + rng.int(4))),
  };
  if (timed) {
    fields.vehicle_time_windows = Array.from({ length: m }, () => {
      if (rng.next() < 0.4) return null;
      const start = rng.int(Math.round(horizon / 2));
      return [start, start + 30 + rng.int(horizon)];
    });
    fields.vehicle_max_working_hours = Array.from({ length: m }, () => (rng.next() < 0.5 ? null : 1 + rng.int(30) / 10));
  }
  return { ...req, ...fields } as SolveRequestInput;
}

/** Time warp and duration of vehicle v driving `route` under its shift (plainWarp with the shift's departure and arrival bounds). */
export function shiftWarp(p: CompiledProblem, v: number, route: number[]): { warp: number; duration: number } {
  return plainWarp(p, v, route, { open: departureOpen(p, v), arriveClose: arrivalClose(p, v) });
}

/** Penalised cost of vehicle v driving `route` from scratch, rules included (Infinity when a skill is missing). */
export function scratchCost(p: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, v, route);
  if (score.forbidden > 0) return Number.POSITIVE_INFINITY;
  let cost = p.fixedCost[v]! + p.unitCost[v]! * score.distance + pen.load * score.capacityExcess + reassignmentCost(p, v, route);
  cost += pen.distance! * score.distanceExcess + pen.stops! * score.stopsExcess;
  const t = p.time;
  if (!t) return cost;
  if (t.latePenaltyPerMin > 0) return cost + score.latePenalty + pen.duration * score.durationExcessMin;
  const { warp, duration } = shiftWarp(p, v, route);
  if (warp <= 1e-9) {
    expect(score.lateMinutes, "no warp: not late").to.equal(0);
    expect(score.durationMin, "no warp: the evaluator's duration").to.be.closeTo(duration, 1e-6);
  } else expect(score.lateMinutes, "warp: late").to.be.greaterThan(0);
  return cost + pen.timeWarp * warp + pen.duration * Math.max(0, duration - durationCap(p, v));
}

/** A small two-type fleet with skills, shifts and caps (withRules) under `time` windows: the settings tests' instance. */
export function smallRulesInstance(time: "hard" | "soft"): SolveRequestInput {
  const fleet = {
    customers: 10,
    types: 2,
    depots: 1,
    mixedEnds: false,
    asymmetric: false,
    cost: true,
    time,
    hours: false,
    speeds: false,
    seed: 4,
  };
  return withRules(fleetInstance(fleet), 4, false);
}
