import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { selectStrategy } from "../../strategies/select.js";
import { durationCap } from "../../strategies/core/evaluate-rules.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { withOpenEnd } from "../../strategies/search/open-routes.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { checkTravelResult, type TravelRequest, type TravelResult } from "../../checker/check-travel.js";
import { fleetArb, fleetInstance, plainWarp, type FleetOptions } from "./fleet-problems.js";
import { routeFloors } from "./time-floors.js";

type Request = SolveRequestInput & ConstraintFields;
type Field = "durations" | "profiles" | "profile_distances" | "time_costs" | "open_routes" | "several_windows" | "breaks";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/**
 * A fleet instance (fleet-problems.ts) with travel fields added: a duration matrix not
 * proportional to distance (instead of speeds), a slower profile for some vehicles, prices per hour
 * (under min_total_cost), open routes for some vehicles.
 */
function travelInstance(o: FleetOptions, fields: readonly Field[], seed: number, roomy = false): Request {
  const req = fleetInstance(o) as Request;
  if (roomy && req.node_time_windows) {
    // Feasible by construction: room for every demand on every vehicle, windows that never close.
    req.node_time_windows = req.node_time_windows.map(() => [0, 100_000]);
    const total = req.node_demands.reduce((x, y) => x + y, 0);
    req.vehicles_capacity = req.vehicles_capacity.map(() => total);
    delete req.max_working_hours;
  }
  const rng = new Rng(seed);
  const n = req.node_num;
  const m = req.vehicle_num;
  const minutes = req.distance_matrix.map((row) => row.map((d) => (d === 0 ? 0 : Math.round(d * (0.4 + rng.next())) + rng.int(6))));
  const timed = req.node_time_windows != null;
  if (timed && fields.includes("durations")) {
    req.duration_matrix = minutes;
    delete req.vehicle_speeds;
  }
  if (timed && fields.includes("profiles")) {
    req.profiles = { slow: { duration_matrix: minutes.map((row) => row.map((x) => Math.round(1.6 * x))) } };
    req.vehicle_profiles = Array.from({ length: m }, () => (rng.next() < 0.5 ? "slow" : null));
  }
  if (fields.includes("profile_distances")) {
    // A network of its own (a bike's roads): distances not proportional to the request's, both ways.
    const roads = req.distance_matrix.map((row) => row.map((d) => (d === 0 ? 0 : Math.round(d * (0.5 + rng.next())) + rng.int(4))));
    req.profiles = { ...req.profiles, bike: { distance_matrix: roads } };
    req.vehicle_profiles = Array.from({ length: m }, (_, v) => (rng.next() < 0.5 ? "bike" : (req.vehicle_profiles?.[v] ?? null)));
  }
  if (timed && fields.includes("time_costs") && req.objective === "min_total_cost")
    req.vehicle_unit_time_costs = Array.from({ length: m }, () => rng.int(40));
  if (fields.includes("open_routes")) req.vehicle_return_to_end = Array.from({ length: m }, () => rng.next() < 0.5);
  if (timed && fields.includes("several_windows")) {
    // Split some customers' windows in two around a gap in their middle; the hull stays the window.
    req.node_time_window_sets = req.node_time_windows!.map(([a, b], i) => {
      if (req.start_nodes.includes(i) || req.end_nodes.includes(i) || b! - a! < 20 || rng.next() < 0.4) return null;
      const gapStart = a! + Math.floor((b! - a!) / 3);
      return [
        [a!, gapStart],
        [gapStart + 1 + rng.int(Math.floor((b! - a!) / 3)), b!],
      ];
    });
  }
  if (timed && fields.includes("breaks")) {
    const horizon = Math.max(...req.node_time_windows!.map((w) => w[1]!));
    req.vehicle_breaks = Array.from({ length: m }, () => {
      if (rng.next() < 0.4) return null;
      const earliest = rng.int(Math.floor(horizon / 2));
      return [{ earliest_start: earliest, latest_start: earliest + rng.int(120), duration: 5 + rng.int(30) }];
    });
  }
  expect(n).to.be.greaterThan(0);
  return req;
}

/**
 * Penalised cost of vehicle v driving `route` on the request's own (open) routes, from scratch:
 * the evaluator's distance and load; under hard windows the plain time warp and duration in the
 * vehicle's own minutes, with no way back on an open route, and the time cost of that duration.
 */
function scratchCost(p: CompiledProblem, req: Request, v: number, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, v, route);
  const cost = p.fixedCost[v]! + p.unitCost[v]! * score.distance + pen.load * score.capacityExcess;
  const t = p.time;
  if (!t) return cost;
  const visits = p.travel && (p.travel.windowSets.some((set) => set !== null) || p.travel.breaks.some((list) => list.length > 0));
  if (t.latePenaltyPerMin > 0 || visits) {
    // The evaluator's schedule: hard lateness and breaks without a place priced as time warp.
    const warp = (t.latePenaltyPerMin > 0 ? 0 : score.lateMinutes) + (score.missedBreakMinutes ?? 0);
    return cost + score.latePenalty + (score.timeCost ?? 0) + pen.duration * score.durationExcessMin + pen.timeWarp * warp;
  }
  const profile = req.vehicle_profiles?.[v];
  const matrix = (profile ? req.profiles![profile]!.duration_matrix : undefined) ?? req.duration_matrix;
  // A profile with its own distances and no minutes drives them at the vehicle's speed.
  const roads = profile ? req.profiles![profile]!.distance_matrix : undefined;
  const speed = t.speed[v]!;
  const minutes = matrix ? (a: number, b: number) => matrix[a]![b]! : roads ? (a: number, b: number) => roads[a]![b]! / speed : undefined;
  const noReturn = req.vehicle_return_to_end?.[v] === false;
  const { warp, duration } = plainWarp(p, v, route, { minutes, noReturn });
  if (warp <= 1e-9) expect(score.durationMin, "no warp: the evaluator's duration").to.be.closeTo(duration, 1e-6);
  const perMinute = req.objective === "min_total_cost" ? (req.vehicle_unit_time_costs?.[v] ?? 0) / 60 : 0;
  return cost + pen.timeWarp * warp + pen.duration * Math.max(0, duration - durationCap(p, v)) + perMinute * duration;
}

/** Every applied move's predicted price against the from-scratch one, as general-search.test.ts does. */
function checkEveryMove(req: Request, pen: Penalties, seed: number): number {
  const p = compileRequest(req).problem;
  const searched = withOpenEnd(p);
  const m = buildProblemData(searched);
  const rng = new Rng(seed);
  const rs = new Routes(m);
  rs.penalties = pen;
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
  rs.loadRoutes(routes);
  const scratch = (v: number, r: number[]) => scratchCost(p, req, v, pen, r);
  const scratchTotal = () => rs.routes().reduce((sum, r, v) => sum + scratch(v, r), 0);
  let total = rs.totalCost();
  expect(total).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, total));
  const ls = LocalSearch.perVehicle(rs);
  let moves = 0;
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = rs.routes();
    const actual = scratch(ra, now[ra]!) + (rb >= 0 ? scratch(rb, now[rb]!) : 0);
    expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
    const after = rs.totalCost();
    expect(after).to.be.lessThan(total);
    total = after;
  };
  ls.run(rng);
  expect(rs.totalCost()).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, total));
  ls.onCommit = null;
  recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)));
  expect(rs.totalCost()).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, rs.totalCost()));
  return moves;
}

function pricingProperty(time: FleetOptions["time"], fields: readonly Field[], runs: number, seed: number): number {
  let moves = 0;
  fc.assert(
    fc.property(fleetArb(time), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, s, pen) => {
      moves += checkEveryMove(travelInstance(o, fields, s), pen, s);
    }),
    { numRuns: runs, seed },
  );
  return moves;
}

describe("the general search with travel times, profiles, time costs, open routes, several windows and breaks", function () {
  this.timeout(180_000);

  for (const [name, fields] of [
    ["a duration matrix", ["durations"]],
    ["profiles", ["profiles"]],
    ["time costs", ["time_costs"]],
    ["open routes", ["open_routes"]],
    ["all four together", ["durations", "profiles", "time_costs", "open_routes"]],
    ["several windows", ["several_windows"]],
    ["breaks", ["breaks"]],
    ["every field together", ["durations", "profiles", "time_costs", "open_routes", "several_windows", "breaks"]],
    ["a profile's own distances", ["profile_distances"]],
    [
      "a profile's own distances beside profiles, time costs and open routes",
      ["profile_distances", "profiles", "time_costs", "open_routes"],
    ],
  ] as const) {
    it(`prices every move exactly with ${name} under hard windows`, () => {
      expect(pricingProperty("hard", fields, 120, 31)).to.be.greaterThan(300);
    });
  }

  it("prices every move exactly with every field under soft windows and without windows", () => {
    const all = ["durations", "profiles", "profile_distances", "time_costs", "open_routes", "several_windows", "breaks"] as const;
    expect(pricingProperty("soft", all, 80, 32)).to.be.greaterThan(200);
    expect(pricingProperty("none", all, 80, 33)).to.be.greaterThan(200);
  });

  it("bounds a route's time cost from below by its driving and service minutes, exactly when nothing waits", () => {
    let priced = 0;
    let exact = 0;
    fc.assert(
      fc.property(fleetArb("hard"), fc.integer({ min: 1, max: 1e6 }), fc.boolean(), penaltyArb, (o, s, roomy, pen) => {
        const fields = roomy ? (["time_costs", "open_routes"] as const) : (["time_costs", "durations", "profiles", "open_routes"] as const);
        const req = travelInstance({ ...o, cost: true }, fields, s, roomy);
        for (const { route: r, bound, cost, timeCosted } of routeFloors(req, s, pen)) {
          expect(bound, `route ${r}`).to.be.at.most(cost + 1e-7 * Math.max(1, cost));
          if (timeCosted) priced++;
          // Roomy windows, minutes from distance: no waiting and no warp, so the floor is the time cost.
          if (roomy && timeCosted) {
            expect(bound, `route ${r} without waiting`).to.be.closeTo(cost, 1e-7 * Math.max(1, cost));
            exact++;
          }
        }
      }),
      { numRuns: 60, seed: 36 },
    );
    expect(priced).to.be.greaterThan(30);
    expect(exact).to.be.greaterThan(10);
  });

  it("hgs solves them feasibly, its answers accepted by the independent checker", () => {
    let solved = 0;
    fc.assert(
      fc.property(fleetArb("hard"), fc.integer({ min: 1, max: 1e6 }), (o, s) => {
        const all = ["durations", "profiles", "profile_distances", "time_costs", "open_routes", "several_windows", "breaks"] as const;
        const req = travelInstance({ ...o, cost: true }, all, s, true);
        const outcome = solveRequest(req, { requestId: "travel", timeLimitSeconds: 1, maxIterations: 200, strategy: "hgs" });
        expect(outcome.status, JSON.stringify(outcome).slice(0, 400)).to.equal("solved");
        if (outcome.status === "solved") {
          checkTravelResult(req as TravelRequest, outcome.result as TravelResult);
          solved++;
        }
      }),
      { numRuns: 15, seed: 34 },
    );
    expect(solved).to.equal(15);
  });

  it("keeps locked stops in place beside open routes, travel minutes and breaks", () => {
    let kept = 0;
    fc.assert(
      fc.property(fleetArb("hard"), fc.integer({ min: 1, max: 1e6 }), (o, s) => {
        const req = travelInstance({ ...o, cost: true }, ["durations", "open_routes", "breaks", "several_windows"], s, true);
        // Vehicle 0 must serve the last customer first.
        const last = req.node_num - 1;
        Object.assign(req, {
          initial_routes: req.start_nodes.map((_, v) => (v === 0 ? [last] : [])),
          vehicle_locked_stops: req.start_nodes.map((_, v) => (v === 0 ? 1 : 0)),
        });
        const outcome = solveRequest(req, { requestId: "locks", timeLimitSeconds: 1, maxIterations: 100, strategy: "hgs" });
        expect(outcome.status, JSON.stringify(outcome).slice(0, 400)).to.equal("solved");
        if (outcome.status !== "solved") return;
        checkTravelResult(req as TravelRequest, outcome.result as TravelResult);
        expect(outcome.result.routes["Vehicle 0"]?.[1], "the locked stop first on vehicle 0").to.equal(last);
        kept++;
      }),
      { numRuns: 10, seed: 35 },
    );
    expect(kept).to.equal(10);
  });

  it("selects hgs for travel rules above the size where the decomposition would take the problem", () => {
    const n = 1501;
    const req = {
      node_num: n,
      vehicle_num: 20,
      node_positions: Array.from({ length: n }, (_, i) => [i % 40, Math.floor(i / 40)]),
      distance_matrix: [],
      start_nodes: Array<number>(20).fill(0),
      end_nodes: Array<number>(20).fill(0),
      node_demands: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1)),
      vehicles_capacity: Array.from({ length: 20 }, (_, v) => (v % 2 === 0 ? 100 : 120)),
      vehicle_return_to_end: Array<boolean>(20).fill(false),
    } as Request;
    expect(selectStrategy(compileRequest(req).problem).name).to.equal("hgs");
  });
});
