import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { hgs } from "../../strategies/hgs/index.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildModel, type Penalties } from "../../strategies/search/identical-vehicles-model.js";
import type { ProblemData } from "../../strategies/search/problem-data.js";
import { split } from "../../strategies/genetic/split.js";
import { referenceCost } from "./reference-evaluator.js";

/**
 * A random single-depot instance with identical vehicles (what HGS supports): symmetric or
 * asymmetric matrix, optionally a time dimension whose only binding limit is the route duration
 * (windows no narrower than the depot's, service times, working hours).
 */
function instance(o: {
  customers: number;
  vehicles: number;
  seed: number;
  asymmetric: boolean;
  duration: boolean;
  cost: boolean;
}): SolveRequestInput {
  let s = o.seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = o.customers + 1;
  const pos = Array.from({ length: n }, () => [Math.round(rand() * 100), Math.round(rand() * 100)]);
  const demands = pos.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 6)));
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity = Math.max(6, Math.ceil((1.3 * total) / o.vehicles));
  const req: SolveRequestInput = {
    objective: o.cost ? "min_total_cost" : "min_total_distance",
    node_num: n,
    vehicle_num: o.vehicles,
    distance_matrix: pos.map((a, i) =>
      pos.map((b, j) => (i === j ? 0 : Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) * (o.asymmetric ? 0.7 + 0.6 * rand() : 1)))),
    ),
    start_nodes: Array(o.vehicles).fill(0),
    end_nodes: Array(o.vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array(o.vehicles).fill(capacity),
  };
  if (o.cost) {
    req.vehicle_fixed_costs = Array(o.vehicles).fill(20);
    req.vehicle_unit_distance_costs = Array(o.vehicles).fill(1.5);
  }
  if (o.duration) {
    req.node_time_windows = pos.map((): [number, number] => [0, 100_000]);
    req.node_service_time = pos.map((_, i) => (i === 0 ? 0 : Math.round(rand() * 10)));
    req.vehicle_speeds = Array(o.vehicles).fill(2);
    // Tight enough that many random routes exceed it.
    req.max_working_hours = 1.5 + Math.round(rand() * 20) / 10;
  }
  return req;
}

const instanceArb = fc.record({
  customers: fc.integer({ min: 2, max: 14 }),
  vehicles: fc.integer({ min: 1, max: 5 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  asymmetric: fc.boolean(),
  duration: fc.boolean(),
  cost: fc.boolean(),
});

/**
 * A random single-depot instance with binding hard windows: customer windows inside the depot's,
 * some narrow, service times, a random common speed, and sometimes a working-hours cap (tight
 * enough to bind on some routes).
 */
function windowInstance(o: {
  customers: number;
  vehicles: number;
  seed: number;
  asymmetric: boolean;
  cost: boolean;
  hours: boolean;
}): SolveRequestInput {
  const req = instance({ ...o, duration: false });
  let s = o.seed ^ 0x5bd1e995;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const horizon = 200 + Math.round(rand() * 800);
  req.node_time_windows = req.node_demands.map((_, i): [number, number] => {
    if (i === 0) return [0, horizon];
    const open = Math.round(rand() * 0.8 * horizon);
    return [open, Math.min(horizon, open + 5 + Math.round(rand() * (rand() < 0.3 ? 30 : 0.5 * horizon)))];
  });
  req.node_service_time = req.node_demands.map((_, i) => (i === 0 ? 0 : Math.round(rand() * 15)));
  req.vehicle_speeds = Array(o.vehicles).fill(0.5 + Math.round(rand() * 30) / 10);
  if (o.hours) req.max_working_hours = 1 + Math.round(rand() * 40) / 10;
  return req;
}

const windowArb = fc.record({
  customers: fc.integer({ min: 2, max: 14 }),
  vehicles: fc.integer({ min: 1, max: 5 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  asymmetric: fc.boolean(),
  cost: fc.boolean(),
  hours: fc.boolean(),
});

/**
 * Time warp and duration of a route straight from decisions.md's clock, independent of the
 * segment algebra: drive, wait if early, and when late take the lateness back (time warp) to
 * serve at the window end. Leaving later never warps less, so the least warp is that of leaving
 * at the depot's opening; the duration (driving, service, waiting) is the one of the latest
 * departure with that least warp, found by bisection.
 */
function plainWarp(p: CompiledProblem, route: number[]): { warp: number; duration: number } {
  const t = p.time!;
  const n = p.nodeCount;
  const depot = p.startNode[0]!;
  const speed = t.speed[0]!;
  const simulate = (departure: number) => {
    let clock = departure;
    let prev = depot;
    let warp = 0;
    let duration = 0;
    for (const c of [...route, depot]) {
      const travel = p.dist[prev * n + c]! / speed;
      const arrive = clock + travel;
      let begin = Math.max(arrive, t.twStartMin[c]!);
      duration += travel + (begin - arrive);
      if (begin > t.twEndMin[c]!) {
        warp += begin - t.twEndMin[c]!;
        begin = t.twEndMin[c]!;
      }
      const service = c === depot ? 0 : t.serviceMin[c]!;
      duration += service;
      clock = begin + service;
      prev = c;
    }
    return { warp, duration };
  };
  const least = simulate(t.twStartMin[depot]!).warp;
  let lo = t.twStartMin[depot]!;
  let hi = t.twEndMin[depot]!;
  if (simulate(hi).warp <= least + 1e-12) lo = hi;
  for (let k = 0; k < 200 && hi - lo > 1e-12; k++) {
    const mid = (lo + hi) / 2;
    if (simulate(mid).warp <= least + 1e-12) lo = mid;
    else hi = mid;
  }
  return { warp: least, duration: simulate(lo).duration };
}

function modelOf(p: CompiledProblem): ProblemData {
  const outcome = buildModel(p);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.model;
}

/** Penalised cost of one route from scratch: the shared evaluator's distance, load and duration. */
function scratchCost(p: CompiledProblem, m: ProblemData, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, 0, route);
  return (
    p.fixedCost[0]! +
    p.unitCost[0]! * score.distance +
    pen.load * Math.max(0, score.load - p.capacity[0]!) +
    (p.time ? pen.duration * Math.max(0, score.durationMin - m.durationLimit) : 0)
  );
}

/**
 * Penalised cost of one route under windows from scratch: the evaluator's distance and load, the
 * plain time warp and duration; where nothing warps, also checks that the evaluator agrees
 * (no lateness, same duration), so the segment model is decisions.md's timing.
 */
function windowScratchCost(p: CompiledProblem, m: ProblemData, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, 0, route);
  const { warp, duration } = plainWarp(p, route);
  if (warp <= 1e-9) {
    expect(score.lateMinutes, "no warp: not late").to.equal(0);
    expect(score.durationMin, "no warp: the evaluator's duration").to.be.closeTo(duration, 1e-6);
  } else expect(score.lateMinutes, "warp: late").to.be.greaterThan(0);
  return (
    p.fixedCost[0]! +
    p.unitCost[0]! * score.distance +
    pen.load * Math.max(0, score.load - p.capacity[0]!) +
    pen.timeWarp * warp +
    pen.duration * Math.max(0, duration - p.time!.maxRouteMin)
  );
}

/** A from-scratch cost of one route under the given penalties. */
type RouteCostFn = (p: CompiledProblem, m: ProblemData, pen: Penalties, route: number[]) => number;

/**
 * The cheapest way to cut the tour into at most `vehicles` routes, by trying every cut. Like
 * HGS's split, it considers no route loaded over 1.5 x capacity unless every cut has one.
 */
function bestSplitCost(tour: Int32Array, m: ProblemData, routeCost: (route: number[]) => number): number {
  const bestCut = (maxLoad: number) => {
    let best = Number.POSITIVE_INFINITY;
    for (let mask = 0; mask < 1 << (tour.length - 1); mask++) {
      const pieces: number[][] = [[tour[0]!]];
      for (let k = 1; k < tour.length; k++) {
        if (mask & (1 << (k - 1))) pieces.push([]);
        pieces[pieces.length - 1]!.push(tour[k]!);
      }
      if (pieces.length > m.routes) continue;
      if (pieces.some((r) => r.reduce((sum, c) => sum + m.demand[c]!, 0) > maxLoad)) continue;
      best = Math.min(
        best,
        pieces.reduce((sum, r) => sum + routeCost(r), 0),
      );
    }
    return best;
  };
  const bounded = bestCut(1.5 * m.capacity[0]!);
  return bounded < Number.POSITIVE_INFINITY ? bounded : bestCut(Number.POSITIVE_INFINITY);
}

/** Split keeps the tour's order, fills the fleet, and costs no more than the best cut. */
function expectOptimalSplit(p: CompiledProblem, seed: number, routeCost: RouteCostFn): void {
  const m = modelOf(p);
  const pen = { load: 3, duration: 2, timeWarp: 4 };
  const tour = Int32Array.from(new Rng(seed).shuffle(Array.from(m.customers)));
  const routes = split(m, pen, tour);
  expect(routes.flat()).to.deep.equal(Array.from(tour));
  expect(routes.length).to.equal(m.routes);
  const cost = routes.reduce((sum, r) => sum + routeCost(p, m, pen, r), 0);
  expect(cost).to.be.closeTo(
    bestSplitCost(tour, m, (r) => routeCost(p, m, pen, r)),
    1e-6,
  );
}

/**
 * Runs the local search from random routes (some vehicles left empty), checking that every move
 * it applies was priced exactly as `routeCost` from scratch and lowers the total, and that the
 * final routes still hold every customer once at the cost the search reports.
 */
function runCheckingEveryMove(
  p: CompiledProblem,
  m: ProblemData,
  pen: Penalties,
  rng: Rng,
  routeCost: RouteCostFn,
  beforeRun: (ls: LocalSearch) => void = () => undefined,
): { ls: LocalSearch; final: number[][]; moves: number } {
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
  const ls = LocalSearch.identicalVehicles(m);
  ls.penalties = pen;
  ls.loadRoutes(routes);
  let total = ls.totalCost();
  expect(total).to.be.closeTo(
    routes.reduce((sum, r) => sum + routeCost(p, m, pen, r), 0),
    1e-6,
  );
  beforeRun(ls);
  let moves = 0;
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = ls.routes();
    const actual = routeCost(p, m, pen, now[ra]!) + (rb >= 0 ? routeCost(p, m, pen, now[rb]!) : 0);
    expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6);
    const after = ls.totalCost();
    expect(after).to.be.lessThan(total);
    total = after;
  };
  ls.run(rng);
  const final = ls.routes();
  expect(final.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
  expect(final.reduce((sum, r) => sum + routeCost(p, m, pen, r), 0)).to.be.closeTo(ls.totalCost(), 1e-6);
  return { ls, final, moves };
}

describe("hybrid genetic search (hgs)", function () {
  this.timeout(120_000);

  it("prices every local-search move exactly as re-evaluating the rewritten routes from scratch", () => {
    let moves = 0;
    fc.assert(
      fc.property(
        instanceArb,
        fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        (o, seed, loadPrice, durationPrice) => {
          const { problem: p } = compileRequest(instance(o));
          expect(hgs.supports(p).ok).to.equal(true);
          const m = modelOf(p);
          const pen = { load: loadPrice, duration: durationPrice, timeWarp: 1 };
          moves += runCheckingEveryMove(p, m, pen, new Rng(seed), scratchCost).moves;
        },
      ),
      { numRuns: 300, seed: 11 },
    );
    expect(moves, "the property exercised many moves").to.be.greaterThan(500);
  });

  it("prices every move exactly under hard time windows, time warp and a working-hours cap", () => {
    let moves = 0;
    let warped = 0;
    fc.assert(
      fc.property(
        windowArb,
        fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        (o, seed, loadPrice, durationPrice, warpPrice) => {
          const { problem: p } = compileRequest(windowInstance(o));
          expect(hgs.supports(p).ok).to.equal(true);
          const m = modelOf(p);
          expect(m.windows, "binding windows are priced by time warp").to.not.equal(null);
          const pen = { load: loadPrice, duration: durationPrice, timeWarp: warpPrice };
          const run = runCheckingEveryMove(p, m, pen, new Rng(seed), windowScratchCost, (ls) => {
            for (let r = 0; r < m.routes; r++) if (ls.timeWarpOf(r) > 0) warped++;
          });
          moves += run.moves;
          const { ls, final } = run;
          for (let r = 0; r < m.routes; r++) {
            expect(ls.timeWarpOf(r)).to.be.closeTo(final[r]!.length ? plainWarp(p, final[r]!).warp : 0, 1e-6);
          }
        },
      ),
      { numRuns: 300, seed: 12 },
    );
    expect(moves, "the property exercised many moves").to.be.greaterThan(500);
    expect(warped, "many random routes warp").to.be.greaterThan(100);
  });

  it("splits a giant tour at its optimal penalised cost under time windows", () => {
    fc.assert(
      fc.property(windowArb, fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        expectOptimalSplit(compileRequest(windowInstance({ ...o, customers: Math.min(o.customers, 9) })).problem, seed, windowScratchCost);
      }),
      { numRuns: 60, seed: 6 },
    );
  });

  it("returns solutions that the evaluator and the reference find feasible under hard time windows", () => {
    let solved = 0;
    fc.assert(
      fc.property(windowArb, (o) => {
        const req = windowInstance({ ...o, vehicles: o.vehicles + 3 });
        const outcome = solveRequest(req, { requestId: "w", timeLimitSeconds: 5, seed: 2, maxIterations: 200, strategy: "hgs" });
        if (outcome.status === "failed") {
          expect(outcome.error).to.match(/^No feasible/);
          return;
        }
        solved++;
        expect(outcome.result.strategy).to.equal("hgs");
        const ref = referenceCost(req, outcome.result.routes);
        expect(ref.feasible, JSON.stringify({ req, routes: outcome.result.routes })).to.equal(true);
        expect(outcome.result.total_cost).to.be.closeTo(ref.cost, 1e-6 * Math.max(1, ref.cost));
      }),
      { numRuns: 60, seed: 4 },
    );
    expect(solved).to.be.greaterThan(30);
  });

  it("under time windows: same routes for the same seed and iteration budget; honours a short deadline", () => {
    const req = windowInstance({ customers: 60, vehicles: 20, seed: 21, asymmetric: false, cost: false, hours: false });
    const run = () => solveRequest(req, { requestId: "d", timeLimitSeconds: 60, seed: 4, maxIterations: 300, strategy: "hgs" });
    const a = run();
    const b = run();
    expect(a.status).to.equal(b.status);
    if (a.status === "solved" && b.status === "solved") expect(a.result.routes).to.deep.equal(b.result.routes);
    const big = windowInstance({ customers: 1000, vehicles: 300, seed: 23, asymmetric: false, cost: false, hours: false });
    const positions = Array.from({ length: 1001 }, (_, i): [number, number] => [(i * 7919) % 97, (i * 104_729) % 91]);
    const { problem } = compileRequest({ ...big, distance_matrix: [], node_positions: positions });
    expect(hgs.supports(problem).ok).to.equal(true);
    const started = performance.now();
    const solution = hgs.solve(problem, Budget.forSeconds(2, 1));
    expect((performance.now() - started) / 1000).to.be.lessThan(4);
    expect(evaluateSolution(problem, solution).missing).to.deep.equal([]);
  });

  it("supports soft windows, several depots, mixed fleets and speeds (through its general search)", () => {
    const base = windowInstance({ customers: 8, vehicles: 2, seed: 5, asymmetric: false, cost: false, hours: false });
    const variants = [
      { ...base, late_penalty_per_min: 2 },
      { ...base, start_nodes: [0, 1], end_nodes: [0, 1] },
      { ...base, vehicles_capacity: [base.vehicles_capacity[0]!, base.vehicles_capacity[0]! + 1] },
      { ...base, vehicle_speeds: [1, 2] },
    ];
    for (const req of variants) {
      const p = compileRequest(req).problem;
      expect(buildModel(p).ok, "not the identical-vehicles model").to.equal(false);
      expect(hgs.supports(p).ok).to.equal(true);
      const solution = hgs.solve(p, new Budget(performance.now() + 5000, 1, 300));
      expect(evaluateSolution(p, solution).missing).to.deep.equal([]);
    }
  });

  it("splits a giant tour at its optimal (penalised) cost", () => {
    fc.assert(
      fc.property(instanceArb, fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        expectOptimalSplit(compileRequest(instance({ ...o, customers: Math.min(o.customers, 9) })).problem, seed, scratchCost);
      }),
      { numRuns: 60, seed: 5 },
    );
  });

  it("returns solutions that the evaluator and the reference find feasible on random instances", () => {
    let solved = 0;
    fc.assert(
      fc.property(instanceArb, (o) => {
        const req = instance(o);
        const outcome = solveRequest(req, { requestId: "h", timeLimitSeconds: 5, seed: 2, maxIterations: 200, strategy: "hgs" });
        if (outcome.status === "failed") {
          // Only a duration cap that no route can meet, or too small a fleet, may defeat it.
          expect(outcome.error).to.match(/^No feasible/);
          return;
        }
        solved++;
        const ref = referenceCost(req, outcome.result.routes);
        expect(ref.feasible, JSON.stringify({ req, routes: outcome.result.routes })).to.equal(true);
        expect(outcome.result.total_cost).to.be.closeTo(ref.cost, 1e-6 * Math.max(1, ref.cost));
      }),
      { numRuns: 80, seed: 3 },
    );
    expect(solved).to.be.greaterThan(50);
  });

  it("gives the same routes for the same seed and iteration budget", () => {
    const req = instance({ customers: 60, vehicles: 8, seed: 9, asymmetric: false, duration: true, cost: false });
    req.max_working_hours = 6;
    const run = () => solveRequest(req, { requestId: "d", timeLimitSeconds: 60, seed: 4, maxIterations: 400, strategy: "hgs" });
    const a = run();
    const b = run();
    expect(a.status).to.equal("solved");
    if (a.status === "solved" && b.status === "solved") expect(a.result.routes).to.deep.equal(b.result.routes);
  });

  it("honours a short deadline on a 2,000-customer instance", () => {
    const customers = 2000;
    const req = instance({ customers, vehicles: 150, seed: 17, asymmetric: false, duration: false, cost: false });
    const positions = Array.from({ length: customers + 1 }, (_, i): [number, number] => [(i * 7919) % 997, (i * 104_729) % 991]);
    const { problem } = compileRequest({ ...req, distance_matrix: [], node_positions: positions });
    const started = performance.now();
    const solution = hgs.solve(problem, Budget.forSeconds(3, 1));
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).to.be.lessThan(5);
    expect(evaluateSolution(problem, solution).feasible).to.equal(true);
  });
});
