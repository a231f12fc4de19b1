import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { PerVehiclePricing } from "../../strategies/search/pricing/per-vehicle.js";
import { insertReload, moveReload } from "../../strategies/search/moves/reload-insert.js";
import { relocateWithReload } from "../../strategies/search/moves/relocate-with-reload.js";
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
import { penaltyArb, scratchPrice, tripArb, tripRequest, type TripOptions } from "./trip-problems.js";

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

function checkCommits(q: CompiledProblem, rs: Routes, ls: PerVehiclePricing, pen: Penalties, count: () => void) {
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

type Move = (ls: PerVehiclePricing, ru: number, i: number, rv: number, j: number) => boolean;
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
          const ls = new PerVehiclePricing(rs);
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
        const ls = new PerVehiclePricing(rs);
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

  it("the load of the trip across each place of a route is the sum of that trip's demands", () => {
    fc.assert(
      fc.property(tripArb, penaltyArb, (o, pen) => {
        const { rs } = setup(o, pen);
        const trips = rs.trips!;
        for (let r = 0; r < rs.m.routes; r++) {
          const stops = Array.from(rs.seq[r]!.subarray(1, rs.length[r]! + 1));
          for (let j = 0; j <= stops.length; j++) {
            let from = j;
            while (from > 0 && trips.ownerOf[stops[from - 1]!]! < 0) from--;
            let to = j;
            while (to < stops.length && trips.ownerOf[stops[to]!]! < 0) to++;
            const load = stops.slice(from, to).reduce((sum, c) => sum + rs.m.demand[c]!, 0);
            expect(trips.tripLoadAcross(r, j)).to.be.closeTo(load, 1e-9);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it("relocate with a reload: every applied one priced as the routes are priced from scratch, and it opens a trip", () => {
    let applied = 0;
    fc.assert(
      fc.property(tripArb, penaltyArb, (o, pen) => {
        const { q, rng, rs } = setup(o, pen);
        const ls = new PerVehiclePricing(rs);
        checkCommits(q, rs, ls, pen, () => applied++);
        for (const u of rng.shuffle(Array.from(q.customers))) {
          if (rs.routeOf[u]! < 0 || rs.trips!.ownerOf[u]! >= 0) continue;
          for (let rv = 0; rv < rs.m.routes; rv++) {
            for (let j = 0; j <= rs.length[rv]!; j++) {
              const served = Array.from(rs.seq[rv]!.subarray(1, rs.length[rv]! + 1)).filter((c) => rs.trips!.ownerOf[c]! >= 0).length;
              if (!relocateWithReload(ls, u, rv, j)) continue;
              expect(rs.routeOf[u], "u moved to rv").to.equal(rv);
              const now = Array.from(rs.seq[rv]!.subarray(1, rs.length[rv]! + 1)).filter((c) => rs.trips!.ownerOf[c]! >= 0).length;
              expect(now, "one more reload stop on rv").to.equal(served + 1);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
    expect(applied, "some relocations with a reload improved and were applied").to.be.greaterThan(0);
  });

  it("the whole local search with ruin and recreate keeps every route priced exactly", () => {
    let commits = 0;
    fc.assert(
      fc.property(tripArb, penaltyArb, (o, pen) => {
        const { q, rng, rs } = setup(o, pen);
        const ls = LocalSearch.perVehicle(rs);
        checkCommits(q, rs, ls.pricing, pen, () => commits++);
        ls.run(rng);
        ls.onCommit = null;
        const removed = ruin(rs, rng, 3);
        recreate(ls.pricing, rng, removed);
        checkCommits(q, rs, ls.pricing, pen, () => commits++);
        ls.run(rng);
      }),
      { numRuns: 60 },
    );
    expect(commits).to.be.greaterThan(0);
  });
});
