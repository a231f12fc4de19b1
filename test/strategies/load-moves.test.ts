import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { PerVehiclePricing } from "../../strategies/search/pricing/per-vehicle.js";
import { backhaulHeadExchange, linehaulTwoOptStar } from "../../strategies/search/moves/linehaul-two-opt-star.js";
import { minimumAssignment } from "../../strategies/search/moves/assignment.js";
import { repairBackhaulPairing } from "../../strategies/search/moves/backhaul-pairing.js";
import { pairExchange } from "../../strategies/search/moves/pair-exchange.js";
import { pairRelocate } from "../../strategies/search/moves/pair-relocate.js";
import { pairRelocateWithin } from "../../strategies/search/moves/pair-relocate-within.js";
import { Relocate } from "../../strategies/search/operators/relocate.js";
import { RelocateWithin } from "../../strategies/search/operators/relocate-within.js";
import { Swap } from "../../strategies/search/operators/swap.js";
import { SwapWithin } from "../../strategies/search/operators/swap-within.js";
import { TwoOpt } from "../../strategies/search/operators/two-opt.js";
import { TwoOptStar } from "../../strategies/search/operators/two-opt-star.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { Routes } from "../../strategies/search/routes.js";
import { scratchRouteCost } from "./fleet-problems.js";
import { applyPair, applyWithin } from "./operator-calls.js";
import { loadArb, loadInstance, pricedRandomRoutes, validLists } from "./load-problems.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

const anyTime = () => fc.oneof(loadArb("none", 10), loadArb("hard", 10), loadArb("soft", 10));

/** The evaluator's penalised price of route v, which must keep the backhaul order and its shipments whole. */
function priceOf(p: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  const loads = p.loads!;
  let late = 0;
  let picked = false;
  for (const c of route) {
    if (loads.pickupsAfterDeliveries && p.demand[c]! > 0 && picked) late += p.demand[c]!;
    if (loads.pickup[c]! > 0) picked = true;
  }
  const backhaulBreaches = route.filter(
    (c, k) => loads.pickupsAfterDeliveries && p.demand[c]! > 0 && route.slice(0, k).some((b) => loads.pickup[b]! > 0),
  ).length;
  expect(backhaulBreaches, `route ${v} keeps the backhaul order`).to.equal(0);
  expect(late).to.equal(0);
  expect(evaluateRoute(p, v, route).orderViolations ?? 0, `route ${v} keeps its shipments whole and in order`).to.equal(0);
  return scratchRouteCost(p, v, pen, route);
}

type Move = (ls: PerVehiclePricing, u: number, ru: number, i: number, rv: number, j: number) => boolean;

const MOVES: { name: string; move: Move }[] = [
  { name: "relocate between routes", move: (ls, _u, ru, i, rv, j) => ru !== rv && applyPair(new Relocate(ls), ru, i, rv, j) },
  {
    name: "relocate within a route",
    move: (ls, _u, ru, i, rv, j) => ru === rv && j !== i && j !== i - 1 && applyWithin(new RelocateWithin(ls), ru, i, j),
  },
  { name: "swap between routes", move: (ls, _u, ru, i, rv, j) => ru !== rv && j > 0 && applyPair(new Swap(ls), ru, i, rv, j) },
  {
    name: "swap within a route",
    move: (ls, _u, ru, i, rv, j) => ru === rv && j > 0 && j !== i && j !== i - 1 && applyWithin(new SwapWithin(ls), ru, i, j),
  },
  { name: "2-opt*", move: (ls, _u, ru, i, rv, j) => ru !== rv && applyPair(new TwoOptStar(ls), ru, i, rv, j) },
  { name: "2-opt", move: (ls, _u, ru, i, rv, j) => ru === rv && i < j && applyWithin(new TwoOpt(ls), ru, i, j) },
  {
    name: "2-opt* of delivery parts (backhauls)",
    move: (ls, _u, ru, i, rv, j) => ru !== rv && ls.m.order?.backhaul != null && linehaulTwoOptStar(ls, ru, i, rv, j),
  },
  {
    name: "exchange of pickup-part heads (backhauls)",
    move: (ls, _u, ru, i, rv, j) => ru !== rv && ls.m.order?.backhaul != null && backhaulHeadExchange(ls, ru, i, rv, j),
  },
  { name: "pair relocate", move: (ls, u, ru, _i, rv) => ru !== rv && ls.m.order?.role[u] === 1 && pairRelocate(ls, u, rv) },
  {
    name: "pair relocate, the pickup next to a customer (granular)",
    move: (ls, u, ru, _i, rv, j) => ru !== rv && j > 0 && ls.m.order?.role[u] === 1 && pairRelocate(ls, u, rv, ls.rs.seq[rv]![j]!),
  },
  {
    name: "pair relocate, the delivery next to a customer (granular)",
    move: (ls, u, ru, _i, rv, j) =>
      ru !== rv && j > 0 && ls.m.order?.role[u] === -1 && pairRelocate(ls, ls.m.order.partner![u]!, rv, ls.rs.seq[rv]![j]!, true),
  },
  {
    name: "pair relocate within a route",
    move: (ls, u, ru, _i, rv) => ru === rv && ls.m.order?.role[u] === 1 && pairRelocateWithin(ls, u),
  },
  {
    name: "pair exchange",
    move: (ls, u, ru, _i, rv, j) => {
      const v = ls.rs.seq[rv]![j]!;
      return ru !== rv && j > 0 && ls.m.order?.role[u] === 1 && ls.m.order.role[v] === 1 && pairExchange(ls, u, v);
    },
  },
];

describe("moves with load rules (pickups, backhauls, shipments, extra dimensions), priced against the evaluator", function () {
  this.timeout(300_000);

  for (const { name, move } of MOVES) {
    it(`${name}: every applied move priced as the evaluator prices the routes, order rules kept`, () => {
      let commits = 0;
      const kind = name.startsWith("pair") ? ("shipments" as const) : name.includes("backhauls") ? ("backhauls" as const) : undefined;
      const arb = kind ? fc.oneof(loadArb("none", 10, kind), loadArb("hard", 10, kind), loadArb("soft", 10, kind)) : anyTime();
      fc.assert(
        fc.property(arb, penaltyArb, (o, pen) => {
          const setup = pricedRandomRoutes(o, pen);
          if (!setup) return;
          const { p, rng, rs, ls } = setup;
          let total = rs.totalCost();
          expect(total).to.be.closeTo(
            rs.routes().reduce((sum, r, v) => sum + priceOf(p, v, pen, r), 0),
            1e-6 * Math.max(1, total),
          );
          ls.onCommit = (predicted, ra, rb) => {
            commits++;
            const now = rs.routes();
            const actual = priceOf(p, ra, pen, now[ra]!) + (rb >= 0 ? priceOf(p, rb, pen, now[rb]!) : 0);
            expect(predicted, `${name} on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
            expect(rs.totalCost()).to.be.lessThan(total);
            total = rs.totalCost();
          };
          for (const u of rng.shuffle(Array.from(p.customers))) {
            for (let rv = 0; rv < rs.m.routes; rv++) {
              for (let j = 0; j <= rs.length[rv]!; j++) {
                const ru = rs.routeOf[u]!;
                ls.before = rs.cost[ru]! + rs.cost[rv]!;
                move(ls, u, ru, rs.pos[u]!, rv, j);
              }
            }
          }
          expect(
            rs
              .routes()
              .flat()
              .sort((a, b) => a - b),
          ).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
        }),
        { numRuns: 60 },
      );
      expect(commits, "some candidates improved and were applied").to.be.greaterThan(0);
    });
  }

  it("backhaul re-pairing: the cheapest assignment of delivery parts to pickup parts, priced as the evaluator prices the routes", () => {
    let commits = 0;
    fc.assert(
      fc.property(fc.oneof(loadArb("none", 12, "backhauls"), loadArb("hard", 12, "backhauls")), penaltyArb, (o, pen) => {
        const setup = pricedRandomRoutes(o, pen);
        if (!setup) return;
        const { p, rng, rs, ls } = setup;
        const before = rs.totalCost();
        ls.onCommitMany = (predicted, routes) => {
          commits++;
          const now = rs.routes();
          const actual = routes.reduce((sum, r) => sum + priceOf(p, r, pen, now[r]!), 0);
          expect(predicted).to.be.closeTo(actual, 1e-6 * Math.max(1, actual));
          expect(rs.totalCost()).to.be.lessThan(before);
        };
        repairBackhaulPairing(ls);
        expect(
          rs
            .routes()
            .flat()
            .sort((a, b) => a - b),
        ).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
      }),
      { numRuns: 100 },
    );
    expect(commits).to.be.greaterThan(5);
  });

  it("the assignment is the cheapest of all permutations (brute force up to 6 x 6)", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 6 })
          .chain((n) => fc.tuple(fc.constant(n), fc.array(fc.integer({ min: 0, max: 100 }), { minLength: n * n, maxLength: n * n }))),
        ([n, values]) => {
          const cost = Float64Array.from(values);
          const match = minimumAssignment(cost, n);
          expect(new Set(match).size).to.equal(n);
          let best = Number.POSITIVE_INFINITY;
          const permute = (row: number, used: number, sum: number) => {
            if (row === n) best = Math.min(best, sum);
            else for (let c = 0; c < n; c++) if (!(used & (1 << c))) permute(row + 1, used | (1 << c), sum + cost[row * n + c]!);
          };
          permute(0, 0, 0);
          expect(Array.from(match).reduce((sum, c, r) => sum + cost[r * n + c]!, 0)).to.equal(best);
        },
      ),
    );
  });

  it("the whole local search, ruin and pair-aware recreate keep every route priced exactly and the order rules kept", () => {
    let commits = 0;
    fc.assert(
      fc.property(anyTime(), penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(loadInstance(o));
        if (!p.loads) return;
        const rng = new Rng(o.seed);
        const rs = new Routes(buildProblemData(p));
        rs.penalties = pen;
        rs.loadRoutes(validLists(p, rng));
        const ls = LocalSearch.perVehicle(rs);
        ls.onCommit = (predicted, ra, rb) => {
          commits++;
          const now = rs.routes();
          const actual = priceOf(p, ra, pen, now[ra]!) + (rb >= 0 ? priceOf(p, rb, pen, now[rb]!) : 0);
          expect(predicted).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
        };
        for (let round = 0; round < 3; round++) {
          ls.run(rng);
          recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(p.customers.length)));
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
      { numRuns: 60 },
    );
    expect(commits).to.be.greaterThan(50);
  });

  it(
    "pair relocate within a route and pair exchange miss no improvement: when they " + "refuse, no placement the evaluator prices improves",
    () => {
      let refused = 0;
      fc.assert(
        fc.property(
          fc.oneof(loadArb("none", 10, "shipments"), loadArb("hard", 10, "shipments"), loadArb("soft", 10, "shipments")),
          penaltyArb,
          (o, pen) => {
            const setup = pricedRandomRoutes(o, pen);
            if (!setup) return;
            const { p, rng, rs, ls } = setup;
            const price = (v: number, route: number[]) => priceOf(p, v, pen, route);
            const margin = (x: number) => 1e-6 * Math.max(1, Math.abs(x));
            for (const s of p.loads!.shipments) {
              const r = rs.routeOf[s.pickup]!;
              const route = rs.routes()[r]!;
              const before = price(r, route);
              if (pairRelocateWithin(ls, s.pickup)) continue;
              refused++;
              // Every other placement of the pair in its route, priced from scratch.
              const rest = route.filter((c) => c !== s.pickup && c !== s.delivery);
              for (let x = 0; x <= rest.length; x++) {
                for (let y = x; y <= rest.length; y++) {
                  const cand = [...rest.slice(0, x), s.pickup, ...rest.slice(x, y), s.delivery, ...rest.slice(y)];
                  expect(price(r, cand), `shipment ${s.pickup}-${s.delivery} at ${x}, ${y}`).to.be.at.least(before - margin(before));
                }
              }
            }
            for (const s of p.loads!.shipments) {
              for (const t of p.loads!.shipments) {
                const ru = rs.routeOf[s.pickup]!;
                const rv = rs.routeOf[t.pickup]!;
                if (ru === rv) continue;
                const now = rs.routes();
                const before = price(ru, now[ru]!) + price(rv, now[rv]!);
                if (pairExchange(ls, s.pickup, t.pickup)) continue;
                const swap = (c: number) =>
                  c === s.pickup ? t.pickup : c === s.delivery ? t.delivery : c === t.pickup ? s.pickup : c === t.delivery ? s.delivery : c;
                const after = price(ru, now[ru]!.map(swap)) + price(rv, now[rv]!.map(swap));
                expect(after, `exchange of ${s.pickup} and ${t.pickup}`).to.be.at.least(before - margin(before));
              }
            }
          },
        ),
        { numRuns: 60 },
      );
      expect(refused).to.be.greaterThan(0);
    },
  );
});
