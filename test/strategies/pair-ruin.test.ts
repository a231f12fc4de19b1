import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreatePairsByRegret } from "../../strategies/ils/pair-recreate.js";
import { cutAroundPartners, removeRelatedPairs } from "../../strategies/ils/pair-ruin.js";
import { recreate, ruin, ruinShortestRoute } from "../../strategies/ils/ruin-recreate.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { Routes } from "../../strategies/search/routes.js";
import { scratchRouteCost } from "./fleet-problems.js";
import { loadArb, loadInstance, pricedRandomRoutes, validLists } from "./load-problems.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/** Shipment instances (alone, or with pickups and extra dimensions), with hard, soft or no windows. */
const shipmentArb = () =>
  fc.oneof(
    loadArb("none", 16, "shipments"),
    loadArb("hard", 16, "shipments"),
    loadArb("soft", 16, "shipments"),
    loadArb("hard", 16, "all"),
  );

/** The evaluator's penalised price of route v, which must keep its shipments whole and in order. */
function priceOf(p: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  expect(evaluateRoute(p, v, route).orderViolations ?? 0, `route ${v} keeps its shipments whole and in order`).to.equal(0);
  return scratchRouteCost(p, v, pen, route);
}

/** Each removed stop is off every route, listed once, with its partner listed too. */
function expectWholePairs(p: CompiledProblem, rs: Routes, removed: number[]): void {
  const partner = p.loads!.partner;
  const listed = new Set(removed);
  expect(listed.size, "no stop removed twice").to.equal(removed.length);
  for (const c of removed) {
    expect(rs.routeOf[c], `removed ${c} is on no route`).to.equal(-1);
    if (partner[c]! >= 0) expect(listed.has(partner[c]!), `the partner of ${c} is removed with it`).to.equal(true);
  }
}

describe("pair-aware ruin and recreate (ils/pair-ruin.ts, ils/pair-recreate.ts)", () => {
  it("related-pair removal takes whole shipments, about the size asked, all of them routed before", () => {
    fc.assert(
      fc.property(shipmentArb(), fc.integer({ min: 1, max: 20 }), (o, size) => {
        const { problem: p } = compileRequest(loadInstance(o));
        if (!p.loads || p.loads.shipments.length === 0) return;
        const rng = new Rng(o.seed);
        const rs = new Routes(buildProblemData(p));
        rs.loadRoutes(validLists(p, rng));
        const removed = removeRelatedPairs(rs, rng, size);
        const partner = p.loads.partner;
        expect(new Set(removed).size).to.equal(removed.length);
        for (const c of removed) {
          expect(rs.routeOf[c]).to.be.at.least(0);
          expect(removed).to.include(partner[c]!);
        }
        expect(removed.length / 2).to.equal(Math.max(1, Math.min(p.loads.shipments.length, Math.round(size / 2))));
      }),
      { numRuns: 80, seed: 41 },
    );
  });

  it("strings cut around partners keep to the partners' routes and contain each partner", () => {
    fc.assert(
      fc.property(shipmentArb(), (o) => {
        const { problem: p } = compileRequest(loadInstance(o));
        if (!p.loads || p.loads.shipments.length === 0) return;
        const rng = new Rng(o.seed);
        const rs = new Routes(buildProblemData(p));
        rs.loadRoutes(validLists(p, rng));
        const seedStops = Array.from(p.customers).filter(() => rng.next() < 0.3);
        const removed = seedStops.slice();
        cutAroundPartners(rs, rng, removed);
        expect(new Set(removed).size).to.equal(removed.length);
        const partner = p.loads.partner;
        for (const c of seedStops) if (partner[c]! >= 0) expect(removed).to.include(partner[c]!);
        // Every stop added lies on the route of a seed stop's partner.
        const routes = new Set(seedStops.filter((c) => partner[c]! >= 0).map((c) => rs.routeOf[partner[c]!]!));
        for (const c of removed.slice(seedStops.length)) expect(routes.has(rs.routeOf[c]!)).to.equal(true);
      }),
      { numRuns: 80, seed: 42 },
    );
  });

  it("ruin keeps pairs whole, and regret insertion puts every shipment back priced as the evaluator prices it", () => {
    let regrets = 0;
    fc.assert(
      fc.property(shipmentArb(), penaltyArb, (o, pen) => {
        const setup = pricedRandomRoutes(o, pen);
        if (!setup || setup.p.loads!.shipments.length === 0) return;
        const { p, rng, rs, ls } = setup;
        for (let round = 0; round < 4; round++) {
          const removed = ruin(rs, rng, 1 + rng.int(p.customers.length));
          expectWholePairs(p, rs, removed);
          if (round % 2 === 0) {
            const pickups = removed.filter((c) => p.loads!.shipments.some((s) => s.pickup === c));
            recreatePairsByRegret(ls, pickups);
            regrets++;
            for (const c of removed) if (p.loads!.partner[c]! >= 0) expect(rs.routeOf[c], `shipment stop ${c} is back`).to.be.at.least(0);
          }
          recreate(ls, rng, removed);
          const total = rs.routes().reduce((sum, r, v) => sum + priceOf(p, v, pen, r), 0);
          expect(rs.totalCost()).to.be.closeTo(total, 1e-6 * Math.max(1, total));
          expect(
            rs
              .routes()
              .flat()
              .sort((a, b) => a - b),
          ).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
        }
      }),
      { numRuns: 60, seed: 43 },
    );
    expect(regrets).to.be.greaterThan(20);
  });

  it(
    "route elimination empties the shortest route (when short) and puts its " +
      "customers back on the routes still used, priced as the evaluator prices them",
    () => {
      let eliminated = 0;
      fc.assert(
        fc.property(shipmentArb(), penaltyArb, (o, pen) => {
          const setup = pricedRandomRoutes(o, pen);
          if (!setup || setup.p.loads!.shipments.length === 0) return;
          const { p, rng, rs, ls } = setup;
          const lengths = rs
            .routes()
            .map((r) => r.length)
            .filter((n) => n > 0);
          if (lengths.length < 2) return;
          const removed = ruinShortestRoute(rs, rng);
          const average = lengths.reduce((a, b) => a + b, 0) / lengths.length;
          if (Math.min(...lengths) > 0.5 * average) {
            expect(removed, "no route is short: nothing is eliminated").to.deep.equal([]);
            return;
          }
          expect(removed.length, "the shortest route").to.equal(Math.min(...lengths));
          expectWholePairs(p, rs, removed);
          const used = new Set(rs.routes().flatMap((r, v) => (r.length > 0 ? [v] : [])));
          recreate(ls, rng, removed, false, false);
          for (const c of removed) expect(used.has(rs.routeOf[c]!), `${c} went to a route still in use`).to.equal(true);
          const total = rs.routes().reduce((sum, r, v) => sum + priceOf(p, v, pen, r), 0);
          expect(rs.totalCost()).to.be.closeTo(total, 1e-6 * Math.max(1, total));
          expect(
            rs
              .routes()
              .flat()
              .sort((a, b) => a - b),
          ).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
          eliminated++;
        }),
        { numRuns: 80, seed: 44 },
      );
      expect(eliminated).to.be.greaterThan(10);
    },
  );
});
