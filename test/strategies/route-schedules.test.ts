import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute, type RouteScore } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { withOpenEnd } from "../../strategies/search/open-routes.js";
import { Pieces } from "../../strategies/search/pieces.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { buildProblemData, type ProblemData } from "../../strategies/search/problem-data.js";
import { RouteSchedules } from "../../strategies/search/route-schedules.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance, type FleetOptions } from "./fleet-problems.js";

type Request = SolveRequestInput & ConstraintFields;

/**
 * A fleet instance with several windows on some customers (under soft windows optionally none), and
 * optionally shifts, a duration matrix and open routes; with `durations` also a working-hours cap,
 * per vehicle or for all, and prices per hour under min_total_cost.
 */
function scheduleInstance(o: FleetOptions, seed: number, durations: boolean): Request {
  const req = fleetInstance({ ...o, hours: durations && o.hours }) as Request;
  const rng = new Rng(seed);
  const windows = req.node_time_windows!;
  const horizon = Math.max(...windows.map((w) => w[1]!));
  const depots = new Set([...req.start_nodes, ...req.end_nodes]);
  if (o.time === "hard" || rng.next() < 0.5) {
    req.node_time_window_sets = windows.map(([a, b], i) => {
      if (depots.has(i) || b! - a! < 20 || rng.next() < 0.3) return null;
      // Two or three windows inside the hull, with gaps between them.
      const cut = a! + Math.floor((b! - a!) / 3);
      const again = cut + 1 + rng.int(Math.floor((b! - a!) / 3));
      return rng.next() < 0.5
        ? [
            [a!, cut],
            [again, b!],
          ]
        : [
            [a!, cut],
            [again, again + 1 + rng.int(5)],
            [b! - 1, b!],
          ];
    });
  }
  if (rng.next() < 0.4) {
    req.duration_matrix = req.distance_matrix.map((row) => row.map((d) => (d === 0 ? 0 : Math.round(d * (0.4 + rng.next())))));
    delete req.vehicle_speeds;
  }
  if (rng.next() < 0.4) req.vehicle_return_to_end = req.start_nodes.map(() => rng.next() < 0.5);
  if (durations && rng.next() < 0.5)
    req.vehicle_max_working_hours = req.start_nodes.map(() => (rng.next() < 0.5 ? null : 1 + rng.int(40) / 10));
  if (durations && req.objective === "min_total_cost" && rng.next() < 0.7)
    req.vehicle_unit_time_costs = req.start_nodes.map(() => rng.int(40));
  if (rng.next() < 0.4) {
    // Shifts, a few starting after their depot has closed (lateness at the start).
    req.vehicle_time_windows = req.start_nodes.map(() => {
      if (rng.next() < 0.3) return null;
      const start = rng.int(Math.round(1.1 * horizon));
      return [start, start + 30 + rng.int(horizon)];
    });
  }
  return req;
}

/** Two skills on some customers, and vehicles that hold one or both (every customer keeps a vehicle). */
function randomSkills(req: Request, seed: number): Pick<ConstraintFields, "node_skills" | "vehicle_skills"> {
  const rng = new Rng(seed + 7);
  const depots = new Set([...req.start_nodes, ...req.end_nodes]);
  return {
    node_skills: Array.from({ length: req.node_num }, (_, i) =>
      depots.has(i) || rng.next() < 0.5 ? null : rng.next() < 0.5 ? ["a"] : ["b"],
    ),
    vehicle_skills: req.start_nodes.map((_, v) => (v === 0 ? ["a", "b"] : rng.next() < 0.5 ? ["a"] : ["b"])),
  };
}

function loaded(req: Request, seed: number): { m: ProblemData; rs: Routes; rng: Rng } {
  const m = buildProblemData(withOpenEnd(compileRequest(req).problem));
  const rs = new Routes(m);
  const rng = new Rng(seed);
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  // Each customer on a vehicle that may serve it (a route with one it may not is priced Infinity).
  const allowed = m.p.rules?.allowed ?? null;
  for (const c of rng.shuffle(Array.from(m.customers))) {
    const vehicles = Array.from({ length: m.routes }, (_, v) => v).filter((v) => !allowed || allowed[v * m.nodeCount + c] === 1);
    routes[vehicles[rng.int(vehicles.length)]!]!.push(c);
  }
  rs.loadRoutes(routes);
  return { m, rs, rng };
}

/** A random candidate on vehicle v: maybe v's own head, loose customers, a piece of any route (maybe reversed), maybe a route's tail. */
function randomCandidate(rs: Routes, rng: Rng, v: number, pieces: Pieces): Pieces {
  pieces.reset();
  const len = (r: number) => rs.length[r]!;
  if (len(v) > 0 && rng.next() < 0.7) pieces.add(v, 1, 1 + rng.int(len(v)));
  const customers = rs.m.customers;
  for (let k = rng.int(3); k > 0; k--) pieces.node(customers[rng.int(customers.length)]!);
  const middle = rng.int(rs.m.routes);
  if (len(middle) > 0 && rng.next() < 0.5) {
    const from = 1 + rng.int(len(middle));
    pieces.add(middle, from, from + rng.int(len(middle) - from + 1), rng.next() < 0.4);
  }
  const tail = rng.next() < 0.5 ? v : rng.int(rs.m.routes);
  if (len(tail) > 0 && rng.next() < 0.8) pieces.add(tail, 1 + rng.int(len(tail)), len(tail));
  return pieces;
}

/** The search's time price of an evaluator score: soft lateness, or hard lateness and missed breaks as time warp; time cost; cap. */
function timePart(m: ProblemData, pen: Penalties, s: RouteScore): number {
  const warp = (m.latePenalty > 0 ? 0 : s.lateMinutes) + (s.missedBreakMinutes ?? 0);
  return s.latePenalty + (s.timeCost ?? 0) + pen.duration * s.durationExcessMin + pen.timeWarp * warp;
}

/** The search's price of vehicle v driving `route`, from the evaluator: distance, load and the time part. */
function evaluatorPrice(m: ProblemData, pen: Penalties): (v: number, route: ArrayLike<number>) => number {
  return (v, route) => {
    if (route.length === 0) return 0;
    const s = evaluateRoute(m.p, v, route);
    return m.fixedCost[v]! + m.unitCost[v]! * s.distance + pen.load * s.capacityExcess + timePart(m, pen, s);
  };
}

/** Runs the local search on `rs`, checking every applied move's predicted price against `price`; returns the moves. */
function checkEveryMove(rs: Routes, rng: Rng, price: (v: number, route: number[]) => number): number {
  let moves = 0;
  const total = () => rs.routes().reduce((sum, r, v) => sum + price(v, r), 0);
  expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, rs.totalCost()));
  const ls = LocalSearch.perVehicle(rs);
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = rs.routes();
    const actual = price(ra, now[ra]!) + (rb >= 0 ? price(rb, now[rb]!) : 0);
    expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
  };
  ls.run(rng);
  expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, rs.totalCost()));
  return moves;
}

describe("the evaluator's schedules stored in the route model (route-schedules.ts)", function () {
  this.timeout(120_000);

  for (const durations of [false, true]) {
    const what = durations ? "late minutes and duration" : "late minutes";
    it(`gives any candidate route the evaluator's ${what}${durations ? " under caps and prices per hour" : ""}`, () => {
      let late = 0;
      let onTime = 0;
      fc.assert(
        fc.property(fleetArb("hard", 14), fc.integer({ min: 1, max: 1e6 }), fc.boolean(), (o, seed, soft) => {
          const { m, rs, rng } = loaded(scheduleInstance({ ...o, time: soft ? "soft" : "hard" }, seed, durations), seed);
          const schedules = rs.schedules!;
          expect(schedules, "the stored schedules price this problem").to.not.equal(null);
          if (!durations) expect(schedules.durations, "no duration priced").to.equal(false);
          const pieces = new Pieces();
          const out = new Int32Array(4 * m.nodeCount);
          for (let i = 0; i < 60; i++) {
            const v = rng.int(m.routes);
            randomCandidate(rs, rng, v, pieces);
            const count = rs.candidates.write(pieces, out);
            if (count === 0) continue;
            const expected = evaluateRoute(m.p, v, out, count);
            const close = (x: number) => 1e-6 * Math.max(1, Math.abs(x));
            const route = `vehicle ${v}, route ${Array.from(out.subarray(0, count))}`;
            schedules.walk(v, pieces, rs.seq, rs.length);
            expect(schedules.lateMinutes, route).to.be.closeTo(expected.lateMinutes, close(expected.lateMinutes));
            if (schedules.durations) expect(schedules.duration, route).to.be.closeTo(expected.durationMin, close(expected.durationMin));
            schedules.walkList(v, out, count);
            expect(schedules.lateMinutes, route).to.be.closeTo(expected.lateMinutes, close(expected.lateMinutes));
            if (schedules.durations) expect(schedules.duration, route).to.be.closeTo(expected.durationMin, close(expected.durationMin));
            if (expected.lateMinutes > 0) late++;
            else onTime++;
          }
        }),
        { numRuns: 150, seed: durations ? 43 : 41 },
      );
      expect(late, "candidates late somewhere").to.be.greaterThan(1000);
      expect(onTime, "candidates on time").to.be.greaterThan(300);
    });

    it(`prices every move of the local search as the evaluator does, ${durations ? "with" : "without"} durations, with SWAP*`, () => {
      let moves = 0;
      let swapStars = 0;
      fc.assert(
        fc.property(fleetArb("hard", 14), fc.integer({ min: 1, max: 1e6 }), fc.boolean(), fc.boolean(), (o, seed, soft, skilled) => {
          const req = scheduleInstance({ ...o, time: soft ? "soft" : "hard" }, seed, durations);
          // Skills turn SWAP* on (strategies/settings.ts), which prices time on these schedules too.
          if (skilled) Object.assign(req, randomSkills(req, seed));
          const { m, rs, rng } = loaded(req, seed);
          // (Skills every vehicle holds restrict nothing: then there are no rules to search with.)
          if (skilled && m.rules?.allowed) {
            expect(LocalSearch.perVehicle(rs).settings.swapStar, "SWAP* under skills").to.not.equal(null);
            swapStars++;
          }
          rs.penalties = { load: 1 + rng.int(20), duration: 1 + rng.int(20), timeWarp: 0.5 + rng.int(20) };
          rs.reprice();
          moves += checkEveryMove(rs, rng, evaluatorPrice(m, rs.penalties));
        }),
        { numRuns: 120, seed: durations ? 44 : 42 },
      );
      expect(moves).to.be.greaterThan(500);
      expect(swapStars, "searches with SWAP*").to.be.greaterThan(30);
    });
  }

  it("prices several and soft windows and breaks on them, with or without durations", () => {
    const base = scheduleInstance(fc.sample(fleetArb("hard"), { seed: 7, numRuns: 1 })[0]!, 7, false);
    const schedules = (req: Request) => new Routes(buildProblemData(withOpenEnd(compileRequest(req).problem))).schedules;
    expect(schedules(base)?.durations, "several windows").to.equal(false);
    expect(schedules({ ...base, node_time_window_sets: undefined }), "one hard window each: time segments").to.equal(null);
    expect(schedules({ ...base, node_time_window_sets: undefined, late_penalty_per_min: 2 })?.durations, "soft windows").to.equal(false);
    expect(schedules({ ...base, max_working_hours: 4 })?.durations, "a working-hours cap").to.equal(true);
    const vehicles = base.start_nodes.length;
    const hourly = { vehicle_unit_time_costs: Array<number>(vehicles).fill(10), objective: "min_total_cost" as const };
    expect(schedules({ ...base, ...hourly })?.durations, "a price per hour").to.equal(true);
    const breaks = Array.from({ length: vehicles }, (_, v) => (v === 0 ? [{ earliest_start: 10, latest_start: 60, duration: 10 }] : null));
    const oneHard = { ...base, node_time_window_sets: undefined };
    expect(schedules({ ...oneHard, vehicle_breaks: breaks })?.durations, "breaks under one hard window each").to.equal(false);
  });

  it("prices a vehicle with breaks as the evaluator does, every candidate and every move of the search", () => {
    let taken = 0;
    let missed = 0;
    let moves = 0;
    fc.assert(
      fc.property(fleetArb("hard", 14), fc.integer({ min: 1, max: 1e6 }), fc.boolean(), fc.boolean(), (o, seed, soft, durations) => {
        const req = scheduleInstance({ ...o, time: soft ? "soft" : "hard" }, seed, durations);
        const rng = new Rng(seed + 1);
        const horizon = Math.max(...req.node_time_windows!.map((w) => w[1]!));
        req.vehicle_breaks = req.start_nodes.map(() => {
          if (rng.next() < 0.3) return null;
          const earliest = rng.int(Math.floor(horizon / 2));
          return [{ earliest_start: earliest, latest_start: earliest + rng.int(120), duration: 5 + rng.int(30) }];
        });
        const { m, rs } = loaded(req, seed);
        rs.penalties = { load: 1 + rng.int(20), duration: 1 + rng.int(20), timeWarp: 0.5 + rng.int(20) };
        rs.reprice();
        const pieces = new Pieces();
        const out = new Int32Array(4 * m.nodeCount);
        for (let i = 0; i < 40; i++) {
          const v = rng.int(m.routes);
          randomCandidate(rs, rng, v, pieces);
          const count = rs.candidates.write(pieces, out);
          // The route model holds routes of every customer at most once: no longer candidates.
          if (count === 0 || count > m.customers.length) continue;
          const score = evaluateRoute(m.p, v, out, count);
          const exact = timePart(m, rs.penalties, score);
          expect(rs.candidates.timePrice(v, pieces), `vehicle ${v}`).to.be.closeTo(exact, 1e-6 * Math.max(1, exact));
          if ((score.breakMinutes ?? 0) > 0) taken++;
          if ((score.missedBreaks ?? 0) > 0) missed++;
        }
        moves += checkEveryMove(rs, rng, evaluatorPrice(m, rs.penalties));
      }),
      { numRuns: 100, seed: 45 },
    );
    expect(taken, "candidates that take a break").to.be.greaterThan(300);
    expect(missed, "candidates that miss one").to.be.greaterThan(100);
    expect(moves).to.be.greaterThan(300);
  });
});
