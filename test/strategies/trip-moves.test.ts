import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { GeneralLocalSearch } from "../../strategies/search/general/local-search.js";
import { GeneralMovePricing } from "../../strategies/search/general/move-pricing.js";
import { insertReload, moveReload } from "../../strategies/search/moves/reload-insert.js";
import { Relocate } from "../../strategies/search/operators/relocate.js";
import { RelocateWithin } from "../../strategies/search/operators/relocate-within.js";
import { RemoveOptional } from "../../strategies/search/operators/remove-optional.js";
import { Swap } from "../../strategies/search/operators/swap.js";
import { SwapWithin } from "../../strategies/search/operators/swap-within.js";
import { TwoOpt } from "../../strategies/search/operators/two-opt.js";
import { TwoOptStar } from "../../strategies/search/operators/two-opt-star.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { applyPair, applyWithin } from "./operator-calls.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { expandTrips } from "../../strategies/search/trip-copies.js";

/** Random multi-trip instances: small capacity (several trips), windows, release times, one or two reload depots. */
const tripArb = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  customers: fc.integer({ min: 4, max: 10 }),
  vehicles: fc.integer({ min: 1, max: 3 }),
  timed: fc.boolean(),
  soft: fc.boolean(),
  twoDepots: fc.boolean(),
  maxReloads: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
});

type TripOptions = typeof tripArb extends fc.Arbitrary<infer T> ? T : never;

function tripRequest(o: TripOptions): SolveRequestInput {
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

const penaltyArb = fc.record({
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
function scratchPrice(q: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(q, v, route);
  let cost = q.fixedCost[v]! + q.unitCost[v]! * score.distance + pen.load * score.capacityExcess;
  expect(score.forbidden, `route ${v} holds only its own copies`).to.equal(0);
  if (!q.time) return cost;
  if (q.time.latePenaltyPerMin > 0) return cost + score.latePenalty + pen.duration * score.durationExcessMin;
  const { warp, duration } = scratchWarp(q, v, route);
  if (warp <= 1e-9) expect(score.lateMinutes, "no warp: not late").to.equal(0);
  else expect(score.lateMinutes, "warp: late").to.be.greaterThan(0);
  cost += pen.timeWarp * warp + pen.duration * Math.max(0, duration - q.time.maxRouteMin);
  return cost;
}

function setup(o: TripOptions, pen: Penalties) {
  const p = compileRequest(tripRequest(o)).problem;
  const q = expandTrips(p);
  const rng = new Rng(o.seed);
  const rs = new Routes(buildProblemData(q));
  rs.penalties = pen;
  // Random routes: every customer on a random vehicle, each vehicle's copies scattered in its own route.
  const lists: number[][] = Array.from({ length: q.vehicleCount }, () => []);
  for (const c of rng.shuffle(Array.from(p.customers))) lists[rng.int(q.vehicleCount)]!.push(c);
  q.trips!.reloadNodes.forEach((copies, v) => {
    for (const c of copies) if (rng.next() < 0.4 && lists[v]!.length > 0) lists[v]!.splice(rng.int(lists[v]!.length + 1), 0, c);
  });
  rs.loadRoutes(lists);
  return { p, q, rng, rs };
}

function checkCommits(q: CompiledProblem, rs: Routes, ls: GeneralMovePricing, pen: Penalties, count: () => void) {
  let total = rs.totalCost();
  expect(total).to.be.closeTo(
    rs.routes().reduce((s, r, v) => s + scratchPrice(q, v, pen, r), 0),
    1e-6 * Math.max(1, total),
  );
  ls.onCommit = (predicted, ra, rb) => {
    count();
    const now = rs.routes();
    const actual = scratchPrice(q, ra, pen, now[ra]!) + (rb >= 0 ? scratchPrice(q, rb, pen, now[rb]!) : 0);
    expect(predicted, `routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
    expect(rs.totalCost()).to.be.lessThan(total + 1e-9);
    total = rs.totalCost();
  };
}

type Move = (ls: GeneralMovePricing, ru: number, i: number, rv: number, j: number) => boolean;
const MOVES: { name: string; move: Move }[] = [
  { name: "relocate between routes", move: (ls, ru, i, rv, j) => ru !== rv && applyPair(new Relocate(ls), ru, i, rv, j) },
  {
    name: "relocate within a route",
    move: (ls, ru, i, rv, j) => ru === rv && j !== i && j !== i - 1 && applyWithin(new RelocateWithin(ls), ru, i, j),
  },
  { name: "swap between routes", move: (ls, ru, i, rv, j) => ru !== rv && j > 0 && applyPair(new Swap(ls), ru, i, rv, j) },
  {
    name: "swap within a route",
    move: (ls, ru, i, rv, j) => ru === rv && j > 0 && j !== i && j !== i - 1 && applyWithin(new SwapWithin(ls), ru, i, j),
  },
  { name: "2-opt*", move: (ls, ru, i, rv, j) => ru !== rv && applyPair(new TwoOptStar(ls), ru, i, rv, j) },
  { name: "2-opt", move: (ls, ru, i, rv, j) => ru === rv && i < j && applyWithin(new TwoOpt(ls), ru, i, j) },
];

describe("moves with reload stops and release times, priced against a from-scratch price", function () {
  this.timeout(300_000);

  for (const { name, move } of MOVES) {
    it(`${name}: every applied move priced as the routes are priced from scratch`, () => {
      let commits = 0;
      fc.assert(
        fc.property(tripArb, penaltyArb, (o, pen) => {
          const { q, rng, rs } = setup(o, pen);
          const ls = new GeneralMovePricing(rs);
          checkCommits(q, rs, ls, pen, () => commits++);
          for (const u of rng.shuffle(Array.from(q.customers))) {
            if (rs.routeOf[u]! < 0) continue;
            for (let rv = 0; rv < rs.m.routes; rv++) {
              for (let j = 0; j <= rs.length[rv]!; j++) {
                const ru = rs.routeOf[u]!;
                ls.before = rs.cost[ru]! + rs.cost[rv]!;
                move(ls, ru, rs.pos[u]!, rv, j);
              }
            }
          }
        }),
        { numRuns: 60 },
      );
      expect(commits, "some candidates improved and were applied").to.be.greaterThan(0);
    });
  }

  it("reload insertion, removal and move: every applied one priced as the route is priced from scratch", () => {
    let inserted = 0;
    let removed = 0;
    let moved = 0;
    fc.assert(
      fc.property(tripArb, penaltyArb, (o, pen) => {
        const { q, rng, rs } = setup(o, pen);
        const ls = new GeneralMovePricing(rs);
        let commits = 0;
        checkCommits(q, rs, ls, pen, () => commits++);
        for (const u of q.customers) {
          const owner = rs.trips!.ownerOf[u]!;
          if (owner < 0) continue;
          const before = commits;
          if (rs.routeOf[u]! >= 0 && rng.next() < 0.5) {
            moveReload(ls, u);
            if (commits > before) moved++;
            continue;
          }
          if (rs.routeOf[u]! >= 0) {
            const remove = new RemoveOptional(ls);
            if (remove.evaluate(u)) remove.apply();
          } else insertReload(ls, u, owner);
          if (commits > before) rs.routeOf[u]! >= 0 ? inserted++ : removed++;
        }
      }),
      { numRuns: 200 },
    );
    expect(inserted, "reloads inserted").to.be.greaterThan(0);
    expect(removed, "reloads removed").to.be.greaterThan(0);
    expect(moved, "reloads moved").to.be.greaterThan(0);
  });

  it("the whole local search with ruin and recreate keeps every route priced exactly", () => {
    let commits = 0;
    fc.assert(
      fc.property(tripArb, penaltyArb, (o, pen) => {
        const { q, rng, rs } = setup(o, pen);
        const ls = new GeneralLocalSearch(rs);
        checkCommits(q, rs, ls, pen, () => commits++);
        ls.run(rng);
        ls.onCommit = null;
        const removed = ruin(rs, rng, 3);
        recreate(ls, rng, removed);
        checkCommits(q, rs, ls, pen, () => commits++);
        ls.run(rng);
      }),
      { numRuns: 60 },
    );
    expect(commits).to.be.greaterThan(0);
  });
});
