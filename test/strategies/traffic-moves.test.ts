import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { withOpenEnd } from "../../strategies/search/open-routes.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { checkTravelResult, type TravelRequest, type TravelResult } from "../../checker/check-travel.js";
import { fleetArb, fleetInstance, type FleetOptions } from "./fleet-problems.js";
import { routeFloors } from "./time-floors.js";

type Request = SolveRequestInput & ConstraintFields;

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/**
 * A fleet instance (fleet-problems.ts) with rush hours over its horizon, and on some seeds a
 * duration matrix, open routes, several windows and prices per hour beside them.
 */
function trafficInstance(o: FleetOptions, seed: number, others: boolean): Request {
  const req = fleetInstance(o) as Request;
  const rng = new Rng(seed);
  const horizon = Math.max(60, ...req.node_time_windows!.map((w) => w[1]!));
  const slots = [{ start: 0, factor: 0.8 + rng.next() }];
  for (let k = 1 + rng.int(4); k > 0; k--) {
    const start = slots[slots.length - 1]!.start + 1 + rng.int(Math.ceil(horizon / 3));
    slots.push({ start, factor: 0.5 + 2 * rng.next() });
  }
  req.time_dependent_durations = slots;
  if (!others) return req;
  if (rng.next() < 0.5) {
    req.duration_matrix = req.distance_matrix.map((row) => row.map((d) => (d === 0 ? 0 : Math.round(d * (0.4 + rng.next())) + rng.int(6))));
    delete req.vehicle_speeds;
  }
  req.vehicle_return_to_end = req.start_nodes.map(() => rng.next() < 0.6);
  if (req.objective === "min_total_cost") req.vehicle_unit_time_costs = req.start_nodes.map(() => rng.int(40));
  req.node_time_window_sets = req.node_time_windows!.map(([a, b], i) => {
    if (req.start_nodes.includes(i) || req.end_nodes.includes(i) || b! - a! < 20 || rng.next() < 0.5) return null;
    const gap = a! + Math.floor((b! - a!) / 3);
    return [
      [a!, gap],
      [gap + 1 + rng.int(Math.floor((b! - a!) / 3)), b!],
    ];
  });
  return req;
}

/** Penalised cost of vehicle v driving `route`, from scratch on the evaluator's schedule (lateness of hard windows as time warp). */
function scratchCost(p: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, v, route);
  const cost = p.fixedCost[v]! + p.unitCost[v]! * score.distance + pen.load * score.capacityExcess;
  const t = p.time!;
  const warp = t.latePenaltyPerMin > 0 ? 0 : score.lateMinutes;
  return cost + score.latePenalty + (score.timeCost ?? 0) + pen.duration * score.durationExcessMin + pen.timeWarp * warp;
}

/** Every applied move's predicted price against the from-scratch one, then a ruin and recreate. */
function checkEveryMove(req: Request, pen: Penalties, seed: number): number {
  const p = compileRequest(req).problem;
  expect(p.travel?.traffic, "the slots are compiled").to.not.equal(undefined);
  const m = buildProblemData(withOpenEnd(p));
  const rng = new Rng(seed);
  const rs = new Routes(m);
  rs.penalties = pen;
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
  rs.loadRoutes(routes);
  const scratchTotal = () => rs.routes().reduce((sum, r, v) => sum + scratchCost(p, v, pen, r), 0);
  let total = rs.totalCost();
  expect(total).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, total));
  const ls = LocalSearch.perVehicle(rs);
  let moves = 0;
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = rs.routes();
    const actual = scratchCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchCost(p, rb, pen, now[rb]!) : 0);
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

function pricingProperty(time: "hard" | "soft", others: boolean, runs: number, seed: number): number {
  let moves = 0;
  fc.assert(
    fc.property(fleetArb(time), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, s, pen) => {
      moves += checkEveryMove(trafficInstance(o, s, others), pen, s);
    }),
    { numRuns: runs, seed },
  );
  return moves;
}

describe("the general search under traffic by time of day", function () {
  this.timeout(180_000);

  it("prices every move exactly under hard windows (relocate, swap, 2-opt, 2-opt*, vehicle moves, recreate)", () => {
    expect(pricingProperty("hard", false, 100, 71)).to.be.greaterThan(300);
  });

  it("prices every move exactly under soft windows", () => {
    expect(pricingProperty("soft", false, 60, 72)).to.be.greaterThan(200);
  });

  it("prices every move exactly beside a duration matrix, open routes, several windows and time costs", () => {
    expect(pricingProperty("hard", true, 80, 73)).to.be.greaterThan(200);
  });

  it("bounds a route's time cost from below at the fastest slot's pace (the bound moves prune on)", () => {
    let priced = 0;
    fc.assert(
      fc.property(fleetArb("hard"), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, s, pen) => {
        const req = trafficInstance({ ...o, cost: true }, s, false);
        req.vehicle_unit_time_costs = req.start_nodes.map((_, v) => 10 + v);
        for (const { route: r, bound, cost } of routeFloors(req, s, pen)) {
          expect(bound, `route ${r}`).to.be.at.most(cost + 1e-7 * Math.max(1, cost));
          priced++;
        }
      }),
      { numRuns: 80, seed: 75 },
    );
    expect(priced).to.be.greaterThan(80);
  });

  it("solves with hgs, every answer accepted by the independent travel checker", () => {
    let solved = 0;
    fc.assert(
      fc.property(fleetArb("hard"), fc.integer({ min: 1, max: 1e6 }), (o, s) => {
        const req = trafficInstance({ ...o, cost: true }, s, true);
        // Roomy: windows that never close and room for every demand, so a feasible plan exists.
        req.node_time_windows = req.node_time_windows!.map(() => [0, 100_000]);
        delete req.node_time_window_sets;
        delete req.max_working_hours;
        const total = req.node_demands.reduce((x, y) => x + y, 0);
        req.vehicles_capacity = req.vehicles_capacity.map(() => total);
        const outcome = solveRequest(req, { requestId: "traffic", timeLimitSeconds: 1, maxIterations: 200, strategy: "hgs" });
        expect(outcome.status, JSON.stringify(outcome).slice(0, 400)).to.equal("solved");
        if (outcome.status !== "solved") return;
        checkTravelResult(req as TravelRequest, outcome.result as TravelResult);
        solved++;
      }),
      { numRuns: 12, seed: 74 },
    );
    expect(solved).to.equal(12);
  });
});
