import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { PairInsertion } from "../../strategies/search/pair-insertion.js";
import { PairScan } from "../../strategies/search/pair-scan.js";
import { Routes } from "../../strategies/search/routes.js";
import { scratchRouteCost } from "./fleet-problems.js";
import { loadArb, loadInstance, validLists } from "./load-problems.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/** Random routes, each shipment on one route, pickup first; one shipment (returned) left out. */
function routesWithout(p: CompiledProblem, rng: Rng): { lists: number[][]; pickup: number; delivery: number } | null {
  const loads = p.loads!;
  if (loads.shipments.length === 0) return null;
  const out = loads.shipments[rng.int(loads.shipments.length)]!;
  const lists = validLists(p, rng).map((list) => list.filter((c) => c !== out.pickup && c !== out.delivery));
  return { lists, pickup: out.pickup, delivery: out.delivery };
}

describe("pair scan: a shipment's cheapest places in a route, O(1) per pair of places", function () {
  this.timeout(300_000);

  it("finds the price and places the by-pieces scan finds, and that price is the evaluator's", () => {
    let compared = 0;
    fc.assert(
      fc.property(loadArb("hard", 12, "shipments"), penaltyArb, fc.integer({ min: 0, max: 2 }), (o, pen, window) => {
        const { problem: p } = compileRequest(loadInstance(o));
        if (!p.loads) return;
        const rng = new Rng(o.seed);
        const setup = routesWithout(p, rng);
        if (!setup) return;
        const rs = new Routes(buildProblemData(p));
        rs.penalties = pen;
        rs.loadRoutes(setup.lists);
        const scan = new PairScan(rs);
        expect(scan.applies(), "hard windows with shipments: the scan applies").to.equal(true);
        const pieces = new PairInsertion(rs);
        const { pickup, delivery } = setup;
        for (let r = 0; r < rs.m.routes; r++) {
          const len = rs.length[r]!;
          // Everywhere, or (the pair moves' granular cases) the pickup, or the delivery, after one of two positions.
          const at = rng.int(len + 1);
          const [from, to] = window === 1 ? [at, at + 1] : [0, Number.MAX_SAFE_INTEGER];
          const [jFrom, jTo] = window === 2 ? [at, at + 1] : [0, Number.MAX_SAFE_INTEGER];
          const slow = pieces.bestByPieces(r, pickup, delivery, Number.POSITIVE_INFINITY, from, to, jFrom, jTo);
          const fast = scan.best(r, pickup, delivery, Number.POSITIVE_INFINITY, from, to, jFrom, jTo);
          expect(fast).to.be.closeTo(slow, 1e-6 * Math.max(1, slow));
          expect(scan.i >= 0 && scan.j >= scan.i).to.equal(true);
          if (window === 1) expect(scan.i).to.be.within(from, to);
          if (window === 2) expect(scan.j).to.be.within(jFrom, jTo);
          // The price of the chosen places, from scratch.
          const route = Array.from(rs.seq[r]!.subarray(1, len + 1));
          route.splice(scan.j, 0, delivery);
          route.splice(scan.i, 0, pickup);
          const exact = scratchRouteCost(p, r, pen, route);
          expect(fast).to.be.closeTo(exact, 1e-6 * Math.max(1, exact));
          // Below a limit just above the best, the same; at the best itself, nothing.
          expect(scan.best(r, pickup, delivery, fast + 1e-3, from, to, jFrom, jTo)).to.be.closeTo(fast, 1e-6 * Math.max(1, fast));
          expect(scan.best(r, pickup, delivery, fast - 1e-6 * Math.max(1, fast), from, to, jFrom, jTo)).to.equal(Number.POSITIVE_INFINITY);
          expect(scan.i).to.equal(-1);
          compared++;
        }
      }),
      { numRuns: 150 },
    );
    expect(compared).to.be.greaterThan(100);
  });
});
