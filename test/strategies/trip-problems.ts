import { expect } from "chai";
import fc from "fast-check";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { reassignmentCost } from "./fleet-problems.js";

/** Random multi-trip instances: small capacity (several trips), windows, release times, one or two reload depots. */
export const tripArb = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  customers: fc.integer({ min: 4, max: 10 }),
  vehicles: fc.integer({ min: 1, max: 3 }),
  timed: fc.boolean(),
  soft: fc.boolean(),
  twoDepots: fc.boolean(),
  maxReloads: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
});

export type TripOptions = typeof tripArb extends fc.Arbitrary<infer T> ? T : never;

export function tripRequest(o: TripOptions): SolveRequestInput {
  const rng = new Rng(o.seed);
  const depots = o.twoDepots ? 2 : 1;
  const n = depots + o.customers;
  const xy = Array.from({ length: n }, () => [rng.int(100), rng.int(100)]);
  const req: Record<string, unknown> = {
    node_num: n,
    vehicle_num: o.vehicles,
    node_positions: xy,
    distance_matrix: [],
    start_nodes: Array.from({ length: o.vehicles }, () => 0),
    end_nodes: Array.from({ length: o.vehicles }, (_, v) => (v === 1 && o.twoDepots ? 1 : 0)),
    node_demands: xy.map((_, i) => (i < depots ? 0 : 1 + rng.int(5))),
    vehicles_capacity: Array.from({ length: o.vehicles }, () => 6 + rng.int(4)),
    vehicle_reload_nodes: Array.from({ length: o.vehicles }, (_, v) => (v === 2 ? null : o.twoDepots ? [0, 1] : [0])),
    vehicle_max_reloads: Array.from({ length: o.vehicles }, () => o.maxReloads),
  };
  if (o.timed) {
    req.node_time_windows = xy.map((_, i) => (i < depots ? [0, 1000] : [rng.int(300), 350 + rng.int(400)]));
    req.node_service_time = xy.map((_, i) => (i < depots ? 0 : 5));
    req.vehicle_speeds = Array.from({ length: o.vehicles }, () => 1);
    req.node_release_times = xy.map((_, i) => (i < depots || rng.next() < 0.5 ? 0 : rng.int(300)));
    // Soft windows: lateness priced per minute, by the evaluator's own simulation in the route model.
    if (o.soft) req.late_penalty_per_min = 2;
  }
  return req as unknown as SolveRequestInput;
}

export const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
  distance: fc.constant(1),
  stops: fc.constant(1),
});

/**
 * Time warp and duration of vehicle v's route, from scratch: a forward time-warp simulation in
 * which each depot visit (the start node, a reload stop) opens at its trip's release and takes no
 * service; the least warp is that of leaving as early as allowed, the duration that of the latest
 * departure with that warp (bisection).
 */
function scratchWarp(q: CompiledProblem, v: number, route: number[]): { warp: number; duration: number } {
  const t = q.time!;
  const trips = q.trips!;
  const isStop = (c: number) => trips.reloadNodes[v]!.includes(c);
  const rel = route.map(() => Number.NEGATIVE_INFINITY);
  let latest = Number.NEGATIVE_INFINITY;
  for (let k = route.length - 1; k >= 0; k--) {
    if (isStop(route[k]!)) {
      rel[k] = latest;
      latest = Number.NEGATIVE_INFINITY;
    } else latest = Math.max(latest, trips.release?.[route[k]!] ?? 0);
  }
  const start = q.startNode[v]!;
  const end = q.endNode[v]!;
  const open = Math.max(t.twStartMin[start]!, latest);
  const close = t.twEndMin[start]!;
  const startWarp = Math.max(0, open - close);
  const d = (i: number, j: number) => q.dist[i * q.nodeCount + j]!;
  const simulate = (departure: number) => {
    let clock = departure;
    let prev = start;
    let warp = startWarp;
    route.forEach((c, k) => {
      const arrive = clock + d(prev, c) / t.speed[v]!;
      const opens = isStop(c) ? Math.max(t.twStartMin[c]!, rel[k]!) : t.twStartMin[c]!;
      let begin = Math.max(arrive, opens);
      if (begin > t.twEndMin[c]!) {
        warp += begin - t.twEndMin[c]!;
        begin = t.twEndMin[c]!;
      }
      clock = begin + (isStop(c) ? 0 : t.serviceMin[c]!);
      prev = c;
    });
    let arrive = clock + d(prev, end) / t.speed[v]!;
    if (arrive > t.twEndMin[end]!) {
      warp += arrive - t.twEndMin[end]!;
      arrive = t.twEndMin[end]!;
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

/** The penalised price of route v from scratch: the evaluator's distance and per-trip excess, the warp above. */
export function scratchPrice(q: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(q, v, route);
  let cost = q.fixedCost[v]! + q.unitCost[v]! * score.distance + pen.load * score.capacityExcess + reassignmentCost(q, v, route);
  expect(score.forbidden, `route ${v} holds only its own copies`).to.equal(0);
  if (!q.time) return cost;
  if (q.time.latePenaltyPerMin > 0) return cost + score.latePenalty + pen.duration * score.durationExcessMin;
  const { warp, duration } = scratchWarp(q, v, route);
  if (warp <= 1e-9) expect(score.lateMinutes, "no warp: not late").to.equal(0);
  else expect(score.lateMinutes, "warp: late").to.be.greaterThan(0);
  cost += pen.timeWarp * warp + pen.duration * Math.max(0, duration - q.time.maxRouteMin);
  return cost;
}

/** Depot 0 and customers 1..6 around it, demand 2 each; vehicles of capacity 4 reloading at 0. */
export function star(extra: Record<string, unknown> = {}): SolveRequestInput {
  const xy = [
    [0, 0],
    [10, 0],
    [12, 3],
    [0, 10],
    [-3, 12],
    [-10, 0],
    [-12, -3],
  ];
  return {
    node_num: 7,
    vehicle_num: 2,
    node_positions: xy,
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 2, 2, 2, 2, 2, 2],
    vehicles_capacity: [4, 4],
    vehicle_reload_nodes: [[0], null],
    ...extra,
  } as SolveRequestInput;
}
