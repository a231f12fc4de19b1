import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { timePrice } from "../../strategies/search/cost-evaluator.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { hgs } from "../../strategies/hgs/index.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildModel, initialPenalties, routeSegment, type Penalties } from "../../strategies/search/identical-vehicles-model.js";
import type { ProblemData } from "../../strategies/search/problem-data.js";
import { iteratedLocalSearch } from "../../strategies/ils/iterated-local-search.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { TimeSegment } from "../../strategies/search/time-segment.js";
import { WindowInsertion } from "../../strategies/search/identical-vehicles/window-insertion.js";
import { WINDOWS_ITERATED_ABOVE, hgsSettings } from "../../strategies/settings.js";
import { selectStrategy } from "../../strategies/select.js";

/** A random single-depot VRPTW (Solomon-like) with windows that bind; with `hours`, also a working-hours cap. */
function vrptw(o: { customers: number; seed: number; hours: boolean; spare: number }): SolveRequestInput {
  let s = o.seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = o.customers + 1;
  const pos = Array.from({ length: n }, (): [number, number] => [Math.round(rand() * 100), Math.round(rand() * 100)]);
  const demands = pos.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 30)));
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity = Math.max(30, Math.round(total / Math.max(1, o.customers / (3 + Math.floor(rand() * 10)))));
  const vehicles = Math.ceil(total / capacity) + o.spare;
  const matrix = pos.map((a) => pos.map((b) => Math.floor(10 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 10));
  const horizon = 300 + Math.round(rand() * 700);
  const req: SolveRequestInput = {
    objective: "min_total_distance",
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: matrix,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array(vehicles).fill(capacity),
    node_time_windows: pos.map((_, i): [number, number] => {
      if (i === 0) return [0, horizon];
      const latest = horizon - matrix[i]![0]! - 10;
      const open = Math.floor(matrix[0]![i]! + rand() * Math.max(0, latest - matrix[0]![i]!));
      return [open, Math.min(horizon, open + 5 + Math.round(rand() * (rand() < 0.5 ? 30 : 200)))];
    }),
    node_service_time: pos.map((_, i) => (i === 0 ? 0 : 10)),
    vehicle_speeds: Array(vehicles).fill(1),
  };
  if (o.hours) req.max_working_hours = (horizon * (0.3 + rand() * 0.5)) / 60;
  return req;
}

const arb = fc.record({
  customers: fc.integer({ min: 8, max: 50 }),
  seed: fc.integer({ min: 1, max: 1e6 }),
  hours: fc.boolean(),
  spare: fc.integer({ min: 0, max: 3 }),
});

function modelOf(p: CompiledProblem): ProblemData {
  const outcome = buildModel(p);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.model;
}

/** Time penalty of a route from scratch (its whole time segment, built visit by visit). */
function scratchTimePenalty(m: ProblemData, pen: Penalties, route: number[]): number {
  return timePrice(pen, routeSegment(m, route, route.length, new TimeSegment()), m.windows!.maxDuration);
}

/** Penalised cost of one route from scratch: the evaluator's distance and load, and its time penalty. */
function scratchCost(p: CompiledProblem, m: ProblemData, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, 0, route);
  return (
    p.fixedCost[0]! +
    p.unitCost[0]! * score.distance +
    pen.load * Math.max(0, score.load - p.capacity[0]!) +
    scratchTimePenalty(m, pen, route)
  );
}

/** Penalised cost of every route from scratch. */
function scratchTotal(p: CompiledProblem, m: ProblemData, pen: Penalties, routes: number[][]): number {
  return routes.reduce((sum, r) => sum + scratchCost(p, m, pen, r), 0);
}

/**
 * PyVRP's removal order, written out plainly: the seed and its granular neighbours grouped by the
 * route each was on (groups in order of first appearance, members nearest first), the first `count`.
 */
function neighbourhoodByRoute(m: ProblemData, routeOf: Int32Array, seed: number, count: number): number[] {
  const groups = new Map<number, number[]>();
  for (const c of [seed, ...m.neighbours[seed]!]) {
    const r = routeOf[c]!;
    if (r < 0) continue;
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(c);
  }
  return [...groups.values()].flat().slice(0, count);
}

/** A random VRPTW of `o` and an empty local search on it at fixed prices, time warp at `warpPrice`. */
function windowsSearch(o: Parameters<typeof vrptw>[0], warpPrice: number) {
  const { problem: p } = compileRequest(vrptw(o));
  const m = modelOf(p);
  const pen = { load: 5, duration: 2, timeWarp: warpPrice };
  const ls = LocalSearch.identicalVehicles(m);
  ls.penalties = pen;
  return { p, m, pen, rng: new Rng(o.seed), ls };
}

describe("iterated local search under binding windows (hgs above 12 customers with windows)", function () {
  this.timeout(120_000);

  it("prices the time warp and excess duration of every insertion position exactly", () => {
    let positions = 0;
    let warped = 0;
    fc.assert(
      fc.property(
        arb,
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        (o, warpPrice, durationPrice) => {
          const { problem: p } = compileRequest(vrptw(o));
          const m = modelOf(p);
          expect(m.windows, "the windows bind").to.not.equal(null);
          const pen = { load: 1, duration: durationPrice, timeWarp: warpPrice };
          const ls = LocalSearch.identicalVehicles(m);
          ls.penalties = pen;
          const routes = clarkeWrightSolution(p).routes.slice(0, m.routes);
          // Take one customer out of its route and price it at every position of every route.
          const victim = routes.flat()[0]!;
          const trimmed = routes.map((r) => r.filter((c) => c !== victim));
          ls.loadRoutes(trimmed);
          const insertion = new WindowInsertion(ls.rs);
          for (let r = 0; r < m.routes; r++) {
            const route = trimmed[r] ?? [];
            for (let j = 0; j <= route.length; j++) {
              const candidate = [...route.slice(0, j), victim, ...route.slice(j)];
              const expected = scratchTimePenalty(m, pen, candidate);
              if (expected > 0) warped++;
              expect(insertion.penalty(r, ls.rs.seq[r]!, route.length + 1, j, victim, pen)).to.be.closeTo(expected, 1e-6);
              positions++;
            }
          }
        },
      ),
      { numRuns: 150, seed: 31 },
    );
    expect(positions).to.be.greaterThan(3000);
    expect(warped, "many positions warp or overrun").to.be.greaterThan(500);
  });

  it("recreates under windows with the routes' penalised cost kept exact, every customer once", () => {
    let rounds = 0;
    fc.assert(
      fc.property(arb, fc.double({ min: 0.1, max: 50, noNaN: true }), (o, warpPrice) => {
        const { p, m, pen, rng, ls } = windowsSearch(o, warpPrice);
        ls.loadRoutes(clarkeWrightSolution(p).routes.slice(0, m.routes));
        const ruin = new IdenticalVehiclesRuin(ls);
        ruin.reinsert(
          rng,
          Array.from(m.customers).filter((c) => ls.rs.routeOf[c]! < 0),
        );
        for (let round = 0; round < 4; round++) {
          expect(ruin.perturb(rng)).to.be.greaterThan(0);
          ls.runLocalised(rng);
          const now = ls.routes();
          expect(now.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
          expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, now), 1e-6);
          rounds++;
        }
      }),
      { numRuns: 60, seed: 32 },
    );
    expect(rounds).to.equal(240);
  });

  it("recreates after neighbours: each customer at the cheapest place right after a routed neighbour, or alone in an empty route", () => {
    let placed = 0;
    let intoEmpty = 0;
    fc.assert(
      fc.property(arb, fc.double({ min: 0.1, max: 50, noNaN: true }), fc.integer({ min: 1, max: 8 }), (o, warpPrice, count) => {
        const { p, m, pen, rng, ls } = windowsSearch(o, warpPrice);
        const start = clarkeWrightSolution(p).routes.slice(0, m.routes);
        const removed = start.flat().filter((_, k) => k % Math.max(2, Math.floor(m.customers.length / count)) === 0);
        ls.loadRoutes(start.map((r) => r.filter((c) => !removed.includes(c))));
        const ruin = new IdenticalVehiclesRuin(ls, { ruin: "strings", stringsShare: 1, places: "afterNeighbours", strength: null });
        const total = (routes: number[][]) => scratchTotal(p, m, pen, routes);
        for (const c of removed) {
          const before = ls.routes().map((r) => [...r]);
          // Every place the rule allows, priced from scratch.
          const options: number[][][] = [];
          for (const w of m.neighbours[c]!) {
            const r = before.findIndex((route) => route.includes(w));
            if (r < 0) continue;
            const at = before[r]!.indexOf(w) + 1;
            options.push(before.map((route, k) => (k === r ? [...route.slice(0, at), c, ...route.slice(at)] : route)));
          }
          const empty = before.findIndex((route) => route.length === 0);
          if (empty >= 0) options.push(before.map((route, k) => (k === empty ? [c] : route)));
          if (options.length === 0) continue;
          const cheapest = Math.min(...options.map(total));
          ruin.reinsert(rng, [c]);
          const after = ls.routes().map((r) => [...r]);
          expect(total(after)).to.be.closeTo(cheapest, 1e-6);
          expect(ls.totalCost()).to.be.closeTo(total(after), 1e-6);
          const r = after.findIndex((route) => route.includes(c));
          const at = after[r]!.indexOf(c);
          if (at === 0) intoEmpty += before[r]!.length === 0 ? 1 : 0;
          else expect(Array.from(m.neighbours[c]!), "right after a granular neighbour").to.include(after[r]![at - 1]!);
          placed++;
        }
      }),
      { numRuns: 80, seed: 33 },
    );
    expect(placed).to.be.greaterThan(200);
    expect(intoEmpty, "some customers open an empty route").to.be.greaterThan(0);
  });

  it("PyVRP's neighbourhood ruin: 1 to 25 of a customer's neighbourhood out route by route, all back with the penalised cost exact", () => {
    let rounds = 0;
    const sizes = new Set<number>();
    fc.assert(
      fc.property(arb, fc.double({ min: 0.1, max: 50, noNaN: true }), (o, warpPrice) => {
        const { p, m, pen, rng, ls } = windowsSearch(o, warpPrice);
        ls.loadRoutes(clarkeWrightSolution(p).routes.slice(0, m.routes));
        const ruin = new IdenticalVehiclesRuin(ls, { ruin: "neighbourhood", stringsShare: 0, places: "afterNeighbours", strength: null });
        ruin.reinsert(
          rng,
          Array.from(m.customers).filter((c) => ls.rs.routeOf[c]! < 0),
        );
        for (let round = 0; round < 6; round++) {
          const routeOf = Int32Array.from(ls.rs.routeOf);
          const count = ruin.perturb(rng);
          const removed = Array.from(ruin.lastRemoved());
          expect(count).to.equal(removed.length).and.to.be.within(1, Math.min(25, m.customers.length));
          expect(removed).to.deep.equal(neighbourhoodByRoute(m, routeOf, removed[0]!, count));
          sizes.add(count);
          const now = ls.routes();
          expect(now.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
          expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, now), 1e-6);
          ls.runLocalised(rng);
          expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, ls.routes()), 1e-6);
          rounds++;
        }
      }),
      { numRuns: 60, seed: 34 },
    );
    expect(rounds).to.equal(360);
    expect(sizes.size, "sizes spread over the range").to.be.greaterThan(15);
  });

  it("the neighbourhood ruin gives its stated share of perturbations to SISR's strings", () => {
    const { p, m, rng, ls } = windowsSearch({ customers: 50, seed: 5, hours: false, spare: 2 }, 5);
    ls.loadRoutes(clarkeWrightSolution(p).routes.slice(0, m.routes));
    const ruin = new IdenticalVehiclesRuin(ls, { ruin: "neighbourhood", stringsShare: 0.3, places: "afterNeighbours", strength: null });
    ruin.reinsert(
      rng,
      Array.from(m.customers).filter((c) => ls.rs.routeOf[c]! < 0),
    );
    let strings = 0;
    const rounds = 400;
    for (let round = 0; round < rounds; round++) {
      const routeOf = Int32Array.from(ls.rs.routeOf);
      ruin.perturb(rng);
      const removed = Array.from(ruin.lastRemoved());
      if (removed.join() !== neighbourhoodByRoute(m, routeOf, removed[0]!, removed.length).join()) strings++;
    }
    // Strings of one customer look like a neighbourhood of one, so a little under the share.
    expect(strings / rounds).to.be.within(0.15, 0.35);
  });

  it("reports only improving feasible solutions (evaluator-checked), better than the savings it starts from", () => {
    let improvedOnStart = 0;
    let searched = 0;
    fc.assert(
      fc.property(arb, (o) => {
        const { problem: p } = compileRequest(vrptw({ ...o, customers: o.customers + 20 }));
        const m = modelOf(p);
        const start = clarkeWrightSolution(p);
        const budget = new Budget(performance.now() + 60_000, o.seed, 150);
        const reported: Solution[] = [];
        budget.onImprovement((s) => reported.push(s));
        const found = iteratedLocalSearch(p, budget, {
          model: m,
          routes: start.routes.slice(0, m.routes),
          penalties: initialPenalties(m),
        });
        if (reported.length === 0) return;
        searched++;
        const costs = reported.map((s) => {
          const score = evaluateSolution(p, s);
          expect(score.feasible).to.equal(true);
          return score.cost;
        });
        for (let k = 1; k < costs.length; k++) expect(costs[k]).to.be.lessThan(costs[k - 1]!);
        expect(found.routes).to.deep.equal(reported[reported.length - 1]!.routes);
        const startScore = evaluateSolution(p, start);
        // A feasible savings start counts as found; the search must then improve on it.
        if (startScore.feasible) {
          expect(costs[costs.length - 1]).to.be.lessThan(startScore.cost - 1e-6);
          improvedOnStart++;
        }
      }),
      { numRuns: 10, seed: 33 },
    );
    expect(searched).to.be.greaterThan(4);
    expect(improvedOnStart, "several savings starts are feasible").to.be.greaterThan(1);
  });

  it(`runs for VRPTWs above ${WINDOWS_ITERATED_ABOVE} customers: feasible, the same routes for the same seed and iteration budget`, () => {
    const { problem: p } = compileRequest(vrptw({ customers: WINDOWS_ITERATED_ABOVE + 20, seed: 7, hours: false, spare: 5 }));
    expect(modelOf(p).windows).to.not.equal(null);
    const run = () => {
      const budget = new Budget(performance.now() + 60_000, 3, 300);
      return hgs.solve(p, budget);
    };
    const a = run();
    expect(evaluateSolution(p, a).feasible).to.equal(true);
    expect(a.routes).to.deep.equal(run().routes);
    const savings = evaluateSolution(p, clarkeWrightSolution(p));
    if (savings.feasible) expect(evaluateSolution(p, a).cost).to.be.lessThan(savings.cost);
  });

  it("is selected for identical-vehicles problems with binding windows above 12 and up to 1,000 customers; the decomposition above", () => {
    const small = compileRequest(vrptw({ customers: WINDOWS_ITERATED_ABOVE, seed: 3, hours: false, spare: 2 })).problem;
    expect(selectStrategy(small).name).to.equal("hgs");
    expect(hgsSettings(modelOf(small).customers.length).windowsMethod).to.equal("genetic");
    const medium = compileRequest(vrptw({ customers: WINDOWS_ITERATED_ABOVE + 1, seed: 3, hours: false, spare: 2 })).problem;
    expect(selectStrategy(medium).name).to.equal("hgs");
    expect(hgsSettings(modelOf(medium).customers.length).windowsMethod).to.equal("iterated");
    expect(
      hgsSettings(modelOf(medium).customers.length, { hgs: { windowsMethod: "general" } }).windowsMethod,
      "a benchmark's override",
    ).to.equal("general");
    const larger = compileRequest(vrptw({ customers: 400, seed: 3, hours: false, spare: 2 })).problem;
    expect(selectStrategy(larger).name).to.equal("hgs");
    const large = compileRequest(vrptw({ customers: 1001, seed: 3, hours: false, spare: 2 })).problem;
    expect(selectStrategy(large).name).to.equal("large");
  });
});
