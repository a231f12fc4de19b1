import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { PerVehiclePricing } from "../../strategies/search/pricing/per-vehicle.js";
import type { IdenticalVehiclesPricing } from "../../strategies/search/pricing/identical-vehicles.js";
import { LoadSegment } from "../../strategies/search/load-segment.js";
import { SwapStar } from "../../strategies/search/moves/swap-star.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { Relocate } from "../../strategies/search/operators/relocate.js";
import { RelocateWithin } from "../../strategies/search/operators/relocate-within.js";
import { Swap } from "../../strategies/search/operators/swap.js";
import { SwapWithin } from "../../strategies/search/operators/swap-within.js";
import { TwoOpt } from "../../strategies/search/operators/two-opt.js";
import { TwoOptStar } from "../../strategies/search/operators/two-opt-star.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { Routes } from "../../strategies/search/routes.js";
import { buildModel } from "../../strategies/search/identical-vehicles-model.js";
import { fleetArb, fleetInstance, scratchRouteCost } from "./fleet-problems.js";
import { applyPair, applyWithin } from "./operator-calls.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

type Inter = (ru: number, i: number, rv: number, j: number) => boolean;
type Intra = (r: number, i: number, j: number) => boolean;

/** The route model's routes, one customer list per route slot. */
function listsOf(routes: Routes): number[][] {
  return routes.routes();
}

/**
 * Random routes, then every candidate (u, position) of one move, applied where it improves:
 * each commit's predicted penalised cost must equal the shared evaluator's from-scratch price of
 * the rewritten routes on their vehicles (scratchRouteCost), and the total must fall.
 */
function exercise(
  p: CompiledProblem,
  model: Routes,
  pen: Penalties,
  seed: number,
  hook: (f: (predicted: number, ra: number, rb: number) => void) => void,
  inter: Inter | null,
  intra: Intra | null,
  pass?: (rng: Rng) => boolean,
): number {
  const rng = new Rng(seed);
  const slots = model.m.routes;
  const lists: number[][] = Array.from({ length: slots }, () => []);
  for (const c of rng.shuffle(Array.from(model.m.customers))) lists[rng.int(slots)]!.push(c);
  model.penalties = pen;
  model.loadRoutes(lists);
  let total = model.totalCost();
  let commits = 0;
  hook((predicted, ra, rb) => {
    commits++;
    const now = listsOf(model);
    const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
    expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
    const after = model.totalCost();
    expect(after).to.be.lessThan(total);
    total = after;
  });
  for (const u of rng.shuffle(Array.from(model.m.customers))) {
    for (let rv = 0; rv < slots; rv++) {
      for (let j = 0; j <= model.length[rv]!; j++) {
        const ru = model.routeOf[u]!;
        const i = model.pos[u]!;
        if (j > model.length[rv]!) break;
        if (ru !== rv && inter) {
          inter(ru, i, rv, j);
        } else if (ru === rv && intra && j !== i && j !== i - 1) intra(ru, i, j);
      }
    }
  }
  // A route-pair move (SWAP*): passes until nothing improves.
  for (let k = 0; pass && k < 20 && pass(rng); k++);
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  expect(sorted(listsOf(model).flat())).to.deep.equal(sorted(Array.from(model.m.customers)));
  return commits;
}

interface MoveCase {
  name: string;
  general: (ls: PerVehiclePricing) => { inter: Inter | null; intra: Intra | null };
  identicalVehicles: (ls: IdenticalVehiclesPricing) => { inter: Inter | null; intra: Intra | null };
}

const relocate = (op: Relocate) => ({ inter: (ru: number, i: number, rv: number, j: number) => applyPair(op, ru, i, rv, j), intra: null });
const relocateWithin = (op: RelocateWithin) => ({ inter: null, intra: (r: number, i: number, j: number) => applyWithin(op, r, i, j) });
const swap = (op: Swap) => ({ inter: (ru: number, i: number, rv: number, j: number) => j > 0 && applyPair(op, ru, i, rv, j), intra: null });
const swapWithin = (op: SwapWithin) => ({ inter: null, intra: (r: number, i: number, j: number) => j > 0 && applyWithin(op, r, i, j) });
const twoOptStar = (op: TwoOptStar) => ({
  inter: (ru: number, i: number, rv: number, j: number) => applyPair(op, ru, i, rv, j),
  intra: null,
});
const twoOpt = (op: TwoOpt) => ({ inter: null, intra: (r: number, i: number, j: number) => i < j && applyWithin(op, r, i, j) });

const MOVES: MoveCase[] = [
  {
    name: "relocate between routes",
    general: (ls) => relocate(new Relocate(ls)),
    identicalVehicles: (ls) => relocate(new Relocate(ls)),
  },
  {
    name: "relocate within a route",
    general: (ls) => relocateWithin(new RelocateWithin(ls)),
    identicalVehicles: (ls) => relocateWithin(new RelocateWithin(ls)),
  },
  {
    name: "swap between routes",
    general: (ls) => swap(new Swap(ls)),
    identicalVehicles: (ls) => swap(new Swap(ls)),
  },
  {
    name: "swap within a route",
    general: (ls) => swapWithin(new SwapWithin(ls)),
    identicalVehicles: (ls) => swapWithin(new SwapWithin(ls)),
  },
  {
    name: "2-opt*",
    general: (ls) => twoOptStar(new TwoOptStar(ls)),
    identicalVehicles: (ls) => twoOptStar(new TwoOptStar(ls)),
  },
  {
    name: "2-opt",
    general: (ls) => twoOpt(new TwoOpt(ls)),
    identicalVehicles: (ls) => twoOpt(new TwoOpt(ls)),
  },
];

describe("moves (strategies/search/moves), each priced on the route model against the evaluator", function () {
  this.timeout(300_000);

  for (const move of MOVES) {
    it(`${move.name}: general search (any fleet, depots, hard or soft windows)`, () => {
      let commits = 0;
      fc.assert(
        fc.property(fc.oneof(fleetArb("none", 9), fleetArb("hard", 9), fleetArb("soft", 9)), penaltyArb, (o, pen) => {
          const { problem: p } = compileRequest(fleetInstance(o));
          const ls = new PerVehiclePricing(new Routes(buildProblemData(p)));
          const { inter, intra } = move.general(ls);
          commits += exercise(p, ls.rs, pen, o.seed, (f) => (ls.onCommit = f), inter, intra);
        }),
        { numRuns: 40 },
      );
      expect(commits, "some candidates improved and were applied").to.be.greaterThan(0);
    });

    it(`${move.name}: identical-vehicles search (one depot, identical vehicles, binding windows or none)`, () => {
      let commits = 0;
      let runs = 0;
      const identicalVehiclesArb = fc
        .oneof(fleetArb("none", 9), fleetArb("hard", 9))
        .map((o) => ({ ...o, types: 1, depots: 1, mixedEnds: false }));
      fc.assert(
        fc.property(identicalVehiclesArb, penaltyArb, (o, pen) => {
          const { problem: p } = compileRequest(fleetInstance(o));
          const outcome = buildModel(p);
          // Windows that cannot bind become an additive duration cap: hgs.test.ts checks that case.
          if (!outcome.ok || (p.time !== null && outcome.model.windows === null)) return;
          runs++;
          const ls = LocalSearch.identicalVehicles(outcome.model);
          const { inter, intra } = move.identicalVehicles(ls.pricing);
          commits += exercise(p, ls.rs, pen, o.seed, (f) => (ls.onCommit = f), inter, intra);
        }),
        { numRuns: 40 },
      );
      expect(runs).to.be.greaterThan(10);
      expect(commits, "some candidates improved and were applied").to.be.greaterThan(0);
    });
  }
});

describe("SWAP* (strategies/search/moves/swap-star.ts), one implementation for both searches", function () {
  this.timeout(300_000);

  it("general search (any fleet and depots, no time dimension): every applied exchange priced as the evaluator prices it", () => {
    let commits = 0;
    fc.assert(
      fc.property(fleetArb("none", 12), penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(fleetInstance(o));
        const ls = LocalSearch.perVehicle(new Routes(buildProblemData(p)));
        const swapStar = new SwapStar(ls);
        commits += exercise(
          p,
          ls.rs,
          pen,
          o.seed,
          (f) => (ls.onCommit = f),
          null,
          null,
          (rng) => swapStar.pass(rng, 0),
        );
      }),
      { numRuns: 60 },
    );
    expect(commits).to.be.greaterThan(0);
  });

  it("identical-vehicles search (one depot, identical vehicles, binding windows or none): the same", () => {
    let commits = 0;
    const identicalVehiclesArb = fc
      .oneof(fleetArb("none", 12), fleetArb("hard", 12))
      .map((o) => ({ ...o, types: 1, depots: 1, mixedEnds: false }));
    fc.assert(
      fc.property(identicalVehiclesArb, penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(fleetInstance(o));
        const outcome = buildModel(p);
        if (!outcome.ok || (p.time !== null && outcome.model.windows === null)) return;
        const ls = LocalSearch.identicalVehicles(outcome.model);
        const swapStar = new SwapStar(ls);
        commits += exercise(
          p,
          ls.rs,
          pen,
          o.seed,
          (f) => (ls.onCommit = f),
          null,
          null,
          (rng) => swapStar.pass(rng, 0),
        );
      }),
      { numRuns: 60 },
    );
    expect(commits).to.be.greaterThan(0);
  });
});

describe("long routes under binding windows (settings.ts: no SWAP*, localised on changed route neighbours)", function () {
  this.timeout(300_000);

  it("after each ruin and recreate, the localised re-search prices every move exactly and keeps every customer once", () => {
    let commits = 0;
    let rounds = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 60, max: 120 }), penaltyArb, (seed, customers, pen) => {
        const o = {
          customers,
          types: 1,
          depots: 1,
          mixedEnds: false,
          asymmetric: false,
          cost: false,
          time: "hard" as const,
          hours: false,
          speeds: false,
          seed,
        };
        const { problem: p } = compileRequest(fleetInstance(o));
        const outcome = buildModel(p);
        if (!outcome.ok || outcome.model.windows === null || outcome.model.routes < 2) return;
        // Long routes' setting (identical-vehicles-model.ts sets it above 200 customers), on these smaller problems.
        const m = { ...outcome.model, longWindowRoutes: true };
        const ls = LocalSearch.identicalVehicles(m);
        expect(ls.settings.swapStar).to.equal(null);
        expect(ls.settings.localised).to.equal("changedNeighbours");
        ls.penalties = pen;
        const rng = new Rng(seed);
        const order = rng.shuffle(Array.from(m.customers));
        const size = Math.ceil(order.length / m.routes);
        ls.loadRoutes(Array.from({ length: m.routes }, (_, r) => order.slice(r * size, (r + 1) * size)));
        ls.run(rng);
        const ruin = new IdenticalVehiclesRuin(ls);
        const all = Array.from(m.customers).sort((a, b) => a - b);
        for (let round = 0; round < 5; round++) {
          ruin.perturb(rng);
          ls.onCommit = (predicted, ra, rb) => {
            commits++;
            const now = ls.routes();
            const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
            expect(predicted).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
          };
          expect(ls.runLocalised(rng)).to.equal(true);
          ls.onCommit = null;
          const routes = ls.routes();
          expect(routes.flat().sort((a, b) => a - b)).to.deep.equal(all);
          const total = routes.reduce((sum, r, v) => sum + (r.length > 0 ? scratchRouteCost(p, v, pen, r) : 0), 0);
          expect(ls.totalCost()).to.be.closeTo(total, 1e-6 * Math.max(1, total));
          rounds++;
        }
      }),
      { numRuns: 30 },
    );
    expect(rounds).to.be.greaterThan(50);
    expect(commits, "the localised searches applied moves").to.be.greaterThan(50);
  });
});

describe("the route model with several load dimensions and pickups (route-loads.ts)", function () {
  this.timeout(300_000);

  it("prices every move of the general search at each dimension's peak on board, as a walk along the route does", () => {
    let moves = 0;
    fc.assert(
      fc.property(fleetArb("none", 10), penaltyArb, fc.integer({ min: 1, max: 1e6 }), (o, pen, seed) => {
        const { problem: p } = compileRequest(fleetInstance(o));
        const rng = new Rng(seed);
        const base = buildProblemData(p);
        const n = p.nodeCount;
        const draw = (max: number) => Float64Array.from({ length: n }, (_, i) => (p.isDepot[i] ? 0 : rng.int(max + 1)));
        const pickup = draw(5);
        const volume = draw(8);
        const volumeCapacity = Float64Array.from({ length: p.vehicleCount }, () => 5 + rng.int(30));
        const m = {
          ...base,
          loads: [
            { delivery: p.demand, pickup, capacity: p.capacity },
            { delivery: volume, pickup: null, capacity: volumeCapacity },
          ],
          richLoads: true,
        };
        // From scratch: everything delivered is on board at the start, pickups stay to the end.
        const scratch = (v: number, route: number[]): number => {
          if (route.length === 0) return 0;
          let excess = 0;
          for (const dim of m.loads) {
            let onBoard = route.reduce((sum, c) => sum + dim.delivery[c]!, 0);
            let peak = onBoard;
            for (const c of route) {
              onBoard += (dim.pickup ? dim.pickup[c]! : 0) - dim.delivery[c]!;
              peak = Math.max(peak, onBoard);
            }
            excess += Math.max(0, peak - dim.capacity[v]!);
          }
          return p.fixedCost[v]! + p.unitCost[v]! * evaluateRoute(p, v, route).distance + pen.load * excess;
        };
        const rs = new Routes(m);
        rs.penalties = pen;
        const lists: number[][] = Array.from({ length: m.routes }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) lists[rng.int(m.routes)]!.push(c);
        rs.loadRoutes(lists);
        const total = () => rs.routes().reduce((sum, r, v) => sum + scratch(v, r), 0);
        expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, total()));
        const ls = LocalSearch.perVehicle(rs);
        ls.onCommit = (predicted, ra, rb) => {
          moves++;
          const now = rs.routes();
          const actual = scratch(ra, now[ra]!) + (rb >= 0 ? scratch(rb, now[rb]!) : 0);
          expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, actual));
        };
        ls.run(rng);
        ls.onCommit = null;
        recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)));
        expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, total()));
      }),
      { numRuns: 80 },
    );
    expect(moves).to.be.greaterThan(50);
  });
});

describe("LoadSegment", () => {
  it("concatenates to the most on board along the route, split anywhere", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(20), fc.nat(20)), { minLength: 1, maxLength: 12 }), fc.nat(), (visits, cutSeed) => {
        // Brute force: everything delivered is on board at the start, pickups accumulate.
        let onBoard = visits.reduce((sum, [d]) => sum + d, 0);
        let peak = onBoard;
        for (const [d, q] of visits) {
          onBoard += q - d;
          peak = Math.max(peak, onBoard);
        }
        const cut = cutSeed % visits.length;
        const piece = (from: number, to: number) => {
          const seg = new LoadSegment().set(0, 0, 0);
          for (let k = from; k < to; k++) seg.append(visits[k]![0], visits[k]![1], Math.max(visits[k]![0], visits[k]![1]));
          return seg;
        };
        const head = piece(0, cut);
        const tail = piece(cut, visits.length);
        const whole = head.append(tail.delivery, tail.pickup, tail.peak);
        expect(whole.peak).to.equal(peak);
        expect(whole.excess(peak)).to.equal(0);
        expect(whole.excess(peak - 1)).to.equal(1);
      }),
    );
  });
});

describe("2-opt within a route (operators/two-opt.ts)", function () {
  this.timeout(60_000);

  it("never offers a one-customer reversal (the same route), even when the pricing would call any candidate cheaper", () => {
    let tried = 0;
    fc.assert(
      fc.property(fc.oneof(fleetArb("hard", 9), fleetArb("soft", 9)), (o) => {
        const { problem: p } = compileRequest(fleetInstance(o));
        const ls = new PerVehiclePricing(new Routes(buildProblemData(p)));
        const rs = ls.rs;
        const rng = new Rng(o.seed);
        const lists: number[][] = Array.from({ length: rs.m.routes }, () => []);
        for (const c of rng.shuffle(Array.from(rs.m.customers))) lists[rng.int(rs.m.routes)]!.push(c);
        rs.loadRoutes(lists);
        // At raised prices the reversed piece's rounding could price the same route a little lower:
        // a pricing that says every candidate improves stands for that.
        ls.withinImproves = () => true;
        ls.confirmWithin = () => true;
        const op = new TwoOpt(ls);
        for (let r = 0; r < rs.m.routes; r++) {
          for (let i = 0; i < rs.length[r]!; i++) {
            tried++;
            expect(op.evaluate(r, i, i + 1), `route ${r}, position ${i}`).to.equal(false);
          }
          if (rs.length[r]! >= 2) expect(op.evaluate(r, 0, 2), "a longer reversal is still offered").to.equal(true);
        }
      }),
      { numRuns: 30 },
    );
    expect(tried).to.be.greaterThan(50);
  });
});
