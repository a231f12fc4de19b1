import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { Pieces } from "../../strategies/search/pieces.js";
import { Routes } from "../../strategies/search/routes.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { fleetArb, fleetInstance, scratchCost, scratchRouteCost, withRules } from "./fleet-problems.js";
import { expectLocksKept, withRandomPlan } from "./replan-problems.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
  distance: fc.double({ min: 0.1, max: 50, noNaN: true }),
  stops: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/**
 * The general local search from a plan with locked heads: every applied move's predicted price
 * equals the from-scratch price of its routes, no move touches a locked stop, and rounds of ruin
 * and recreate keep them too.
 */
function checkLockedSearch(req: SolveRequestInput, pen: Penalties, seed: number): number {
  const p = compileRequest(req).problem;
  const m = buildProblemData(p);
  if (req.vehicle_locked_stops) expect(m.locks, "the locks are compiled into the problem data").to.not.equal(null);
  const rng = new Rng(seed);
  const rs = new Routes(m);
  rs.penalties = pen;
  rs.loadRoutes((req.initial_routes as number[][]).map((r) => r.slice()));
  const ls = LocalSearch.perVehicle(rs);
  let moves = 0;
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = rs.routes();
    // Under rules the from-scratch price adds the cap excesses (fleet-problems.ts scratchCost).
    const scratch = p.rules ? scratchCost : scratchRouteCost;
    const actual = scratch(p, ra, pen, now[ra]!) + (rb >= 0 ? scratch(p, rb, pen, now[rb]!) : 0);
    expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
    expectLocksKept(p, now, "after a move");
  };
  ls.run(rng);
  for (let round = 0; round < 5; round++) {
    const removed = ruin(rs, rng, 1 + rng.int(m.customers.length));
    for (const c of removed) expect(m.locks?.vehicle[c] ?? -1, `ruin removed locked stop ${c}`).to.equal(-1);
    recreate(ls.pricing, rng, removed);
    expectLocksKept(p, rs.routes(), "after ruin and recreate");
    ls.run(rng);
  }
  return moves;
}

describe("locked stops in the general search's route model", function () {
  this.timeout(180_000);

  for (const time of ["none", "hard", "soft"] as const) {
    it(`prices every move exactly and never moves a locked stop (${time} windows)`, () => {
      let moves = 0;
      fc.assert(
        fc.property(fleetArb(time), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, s, pen) => {
          moves += checkLockedSearch(withRandomPlan(fleetInstance(o), s), pen, s);
        }),
        { numRuns: 60, seed: 7 },
      );
      expect(moves, "moves applied").to.be.greaterThan(100);
    });
  }

  it("keeps locked stops with skills, caps and optional stops", () => {
    fc.assert(
      fc.property(fleetArb("hard"), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, s, pen) => {
        const req = withRandomPlan(withRules(fleetInstance(o), s, true), s);
        // Locked stops the vehicle may not serve are a 422; here the skills are dropped for them.
        req.initial_routes.forEach((route, v) => route.slice(0, req.vehicle_locked_stops![v]).forEach((c) => (req.node_skills![c] = null)));
        checkLockedSearch(req, pen, s);
      }),
      { numRuns: 40, seed: 11 },
    );
  });

  for (const time of ["none", "hard", "soft"] as const) {
    it(`prices the reassignment cost exactly in every move, with and without locked stops (${time} windows)`, () => {
      let moves = 0;
      fc.assert(
        fc.property(
          fleetArb(time),
          fc.integer({ min: 1, max: 1e6 }),
          penaltyArb,
          fc.double({ min: 0.5, max: 40, noNaN: true }),
          (o, s, pen, price) => {
            const planned = withRandomPlan(fleetInstance(o), s);
            const req = {
              ...planned,
              reassignment_cost: price,
              vehicle_locked_stops: s % 2 === 0 ? planned.vehicle_locked_stops : undefined,
            };
            const p = compileRequest(req).problem;
            expect(p.reassignment?.price, "the price is compiled").to.equal(price);
            moves += checkLockedSearch(req, pen, s);
          },
        ),
        { numRuns: 40, seed: 13 },
      );
      expect(moves, "moves applied").to.be.greaterThan(50);
    });
  }

  it("refuses every candidate that removes, moves, reorders or precedes a locked stop", () => {
    const line = Array.from({ length: 9 }, (_, i) => [i, 0]);
    const req = {
      node_num: 9,
      vehicle_num: 2,
      node_positions: line,
      distance_matrix: [],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: line.map((_, i) => (i === 0 ? 0 : 1)),
      vehicles_capacity: [10, 10],
      initial_routes: [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
      ],
      vehicle_locked_stops: [2, 0],
    } as SolveRequestInput & { initial_routes: number[][] };
    const rs = new Routes(buildProblemData(compileRequest(req).problem));
    rs.loadRoutes(req.initial_routes);
    const pieces = new Pieces();
    const price = (v: number, build: (x: Pieces) => Pieces) => rs.candidates.price(v, build(pieces.reset()));
    expect(price(0, (x) => x.add(0, 1, 4))).to.be.closeTo(rs.cost[0]!, 1e-9);
    expect(
      price(0, (x) => x.add(0, 1, 2).node(5).add(0, 3, 4)),
      "a free stop after the head",
    ).to.be.finite;
    expect(
      price(0, (x) => x.add(0, 1, 1).node(5).add(0, 2, 4)),
      "a free stop inside the head",
    ).to.equal(Infinity);
    expect(
      price(0, (x) => x.node(5).add(0, 1, 4)),
      "a free stop before the head",
    ).to.equal(Infinity);
    expect(
      price(0, (x) => x.add(0, 2, 4)),
      "the first locked stop removed",
    ).to.equal(Infinity);
    expect(
      price(0, (x) => x.add(0, 1, 1).add(0, 3, 4)),
      "the second locked stop removed",
    ).to.equal(Infinity);
    expect(
      price(0, (x) => x.add(0, 1, 2, true).add(0, 3, 4)),
      "the head reversed",
    ).to.equal(Infinity);
    expect(
      price(0, (x) => x.add(0, 1, 2).add(0, 3, 4, true)),
      "the free tail reversed",
    ).to.be.finite;
    expect(
      price(0, (x) => x),
      "the route emptied",
    ).to.equal(Infinity);
    expect(
      price(1, (x) => x.add(0, 1, 1).add(1, 1, 4)),
      "a locked stop on another vehicle",
    ).to.equal(Infinity);
    expect(
      price(1, (x) => x.add(1, 1, 4).node(1)),
      "a loose locked stop on another vehicle",
    ).to.equal(Infinity);
    expect(
      price(1, (x) => x.add(0, 3, 3).add(1, 1, 4)),
      "a free stop moved to another vehicle",
    ).to.be.finite;
  });
});
