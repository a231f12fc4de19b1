import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { hgs } from "../../strategies/hgs/index.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { Routes } from "../../strategies/search/routes.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { fleetArb, fleetInstance, scratchRouteCost, type FleetOptions } from "./fleet-problems.js";
import { referenceCost } from "./reference-evaluator.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/**
 * Loads random routes on random vehicles (some left empty), runs the general local search and
 * checks every applied move: its predicted price equals the from-scratch price of the rewritten
 * routes on their vehicles, and the total falls. Then a ruin-and-recreate round must keep every
 * customer once at the price the route set reports.
 */
function checkEveryMove(p: CompiledProblem, pen: Penalties, seed: number): { moves: number; vehicleChanges: number } {
  const m = buildProblemData(p);
  const rng = new Rng(seed);
  const rs = new Routes(m);
  rs.penalties = pen;
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
  rs.loadRoutes(routes);
  const scratchTotal = () => rs.routes().reduce((sum, r, v) => sum + scratchRouteCost(p, v, pen, r), 0);
  let total = rs.totalCost();
  expect(total).to.be.closeTo(scratchTotal(), 1e-6);
  const ls = LocalSearch.perVehicle(rs);
  let moves = 0;
  let vehicleChanges = 0;
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = rs.routes();
    const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
    expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
    if (rb >= 0 && m.typeOf[ra] !== m.typeOf[rb] && (now[ra]!.length === 0 || now[rb]!.length === 0)) vehicleChanges++;
    const after = rs.totalCost();
    expect(after).to.be.lessThan(total);
    total = after;
  };
  ls.run(rng);
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
  expect(rs.totalCost()).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, total));
  ls.onCommit = null;
  recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)));
  expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
  expect(rs.totalCost()).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, rs.totalCost()));
  return { moves, vehicleChanges };
}

function pricingProperty(time: FleetOptions["time"], runs: number, seed: number): { moves: number; vehicleChanges: number } {
  let moves = 0;
  let vehicleChanges = 0;
  fc.assert(
    fc.property(fleetArb(time), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, s, pen) => {
      const run = checkEveryMove(compileRequest(fleetInstance(o)).problem, pen, s);
      moves += run.moves;
      vehicleChanges += run.vehicleChanges;
    }),
    { numRuns: runs, seed },
  );
  return { moves, vehicleChanges };
}

describe("hgs general search (mixed fleets, several depots, speeds, soft windows)", function () {
  this.timeout(120_000);

  it("prices every move exactly with vehicle types, several depots and different start and end nodes", () => {
    const { moves, vehicleChanges } = pricingProperty("none", 300, 21);
    expect(moves, "the property exercised many moves").to.be.greaterThan(1000);
    expect(vehicleChanges, "routes changed vehicle type").to.be.greaterThan(10);
  });

  it("prices every move exactly under hard windows (time warp), per-vehicle speeds and working hours", () => {
    const { moves } = pricingProperty("hard", 300, 22);
    expect(moves).to.be.greaterThan(1000);
  });

  it("prices every move exactly under soft windows (lateness delays the rest of the route)", () => {
    const { moves } = pricingProperty("soft", 300, 23);
    expect(moves).to.be.greaterThan(1000);
  });

  it(
    "leaves no improving relocation to another route at its local optimum (its quick " +
      "distance-and-load filter rejects no improving move)",
    () => {
      let checked = 0;
      fc.assert(
        fc.property(fc.oneof(fleetArb("none", 10), fleetArb("hard", 10)), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, seed, pen) => {
          const p = compileRequest(fleetInstance(o)).problem;
          const m = buildProblemData(p);
          const rng = new Rng(seed);
          const rs = new Routes(m);
          rs.penalties = pen;
          const start: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of rng.shuffle(Array.from(m.customers))) start[rng.int(m.routes)]!.push(c);
          rs.loadRoutes(start);
          LocalSearch.perVehicle(rs).run(rng);
          const routes = rs.routes();
          const cost = (v: number, r: number[]) => scratchRouteCost(p, v, pen, r);
          // Every customer is a granular neighbour of every other here (at most 10 customers).
          for (let ru = 0; ru < m.routes; ru++) {
            for (let i = 0; i < routes[ru]!.length; i++) {
              const u = routes[ru]![i]!;
              const without = routes[ru]!.filter((c) => c !== u);
              for (let rv = 0; rv < m.routes; rv++) {
                if (rv === ru) continue;
                const target = routes[rv]!;
                const before = cost(ru, routes[ru]!) + cost(rv, target);
                for (let j = 0; j <= target.length; j++) {
                  const after = cost(ru, without) + cost(rv, [...target.slice(0, j), u, ...target.slice(j)]);
                  checked++;
                  expect(after, `relocate ${u} from ${ru} into ${rv} at ${j}`).to.be.at.least(before - 1e-6);
                }
              }
            }
          }
        }),
        { numRuns: 150, seed: 24 },
      );
      expect(checked).to.be.greaterThan(1000);
    },
  );

  it(
    "leaves no improving 2-opt* between routes at its local optimum (its quick " +
      "tail-swap distance-and-load filter rejects no improving move)",
    () => {
      let checked = 0;
      fc.assert(
        fc.property(fc.oneof(fleetArb("none", 10), fleetArb("hard", 10)), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, seed, pen) => {
          const p = compileRequest(fleetInstance(o)).problem;
          const m = buildProblemData(p);
          const rng = new Rng(seed);
          const rs = new Routes(m);
          rs.penalties = pen;
          const start: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of rng.shuffle(Array.from(m.customers))) start[rng.int(m.routes)]!.push(c);
          rs.loadRoutes(start);
          LocalSearch.perVehicle(rs).run(rng);
          const routes = rs.routes();
          const cost = (v: number, r: number[]) => scratchRouteCost(p, v, pen, r);
          for (let ru = 0; ru < m.routes; ru++) {
            const U = routes[ru]!;
            for (let rv = 0; rv < m.routes; rv++) {
              const V = routes[rv]!;
              if (rv === ru) continue;
              const before = cost(ru, U) + cost(rv, V);
              for (let i = 1; i <= U.length; i++) {
                for (let j = 0; j <= V.length; j++) {
                  const straight = cost(ru, [...U.slice(0, i), ...V.slice(j)]) + cost(rv, [...V.slice(0, j), ...U.slice(i)]);
                  const reversed =
                    cost(ru, [...U.slice(0, i), ...V.slice(0, j).reverse()]) + cost(rv, [...U.slice(i).reverse(), ...V.slice(j)]);
                  checked += 2;
                  expect(straight, `2-opt* ${ru}@${i} with ${rv}@${j}`).to.be.at.least(before - 1e-6);
                  expect(reversed, `reversed 2-opt* ${ru}@${i} with ${rv}@${j}`).to.be.at.least(before - 1e-6);
                }
              }
            }
          }
        }),
        { numRuns: 150, seed: 25 },
      );
      expect(checked).to.be.greaterThan(1000);
    },
  );

  it(
    "leaves no improving relocation, swap or 2-opt within a route at its local " +
      "optimum (its quick distance filter rejects no improving move)",
    () => {
      let checked = 0;
      fc.assert(
        fc.property(fc.oneof(fleetArb("none", 10), fleetArb("hard", 10)), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, seed, pen) => {
          const p = compileRequest(fleetInstance(o)).problem;
          const m = buildProblemData(p);
          const rng = new Rng(seed);
          const rs = new Routes(m);
          rs.penalties = pen;
          const start: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of rng.shuffle(Array.from(m.customers))) start[rng.int(m.routes)]!.push(c);
          rs.loadRoutes(start);
          LocalSearch.perVehicle(rs).run(rng);
          rs.routes().forEach((route, r) => {
            const before = scratchRouteCost(p, r, pen, route);
            const check = (candidate: number[], what: string) => {
              checked++;
              expect(scratchRouteCost(p, r, pen, candidate), `${what} in route ${r}`).to.be.at.least(before - 1e-6);
            };
            // Positions as the search names them: 1-based, j = the customer the move goes after (the
            // search reaches j through a neighbour, so j >= 1).
            for (let i = 1; i <= route.length; i++) {
              for (let j = 1; j <= route.length; j++) {
                if (j === i || j === i - 1) continue;
                const without = route.filter((_, k) => k !== i - 1);
                const at = j > i ? j - 1 : j;
                check([...without.slice(0, at), route[i - 1]!, ...without.slice(at)], `relocate ${i} after ${j}`);
                const lo = Math.min(i, j) - 1;
                const hi = Math.max(i, j) - 1;
                const swapped = route.slice();
                swapped[lo] = route[hi]!;
                swapped[hi] = route[lo]!;
                check(swapped, `swap ${i} and ${j}`);
                if (i < j) check([...route.slice(0, i), ...route.slice(i, j).reverse(), ...route.slice(j)], `reverse ${i + 1}..${j}`);
              }
            }
          });
        }),
        { numRuns: 150, seed: 26 },
      );
      expect(checked).to.be.greaterThan(1000);
    },
  );

  it(
    "leaves no improving SWAP* (exchange with each customer at its best place in the " +
      "other route) at its local optimum without time windows",
    () => {
      let checked = 0;
      fc.assert(
        fc.property(fleetArb("none", 10), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, seed, pen) => {
          const p = compileRequest(fleetInstance(o)).problem;
          const m = buildProblemData(p);
          const rng = new Rng(seed);
          const rs = new Routes(m);
          rs.penalties = pen;
          const start: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of rng.shuffle(Array.from(m.customers))) start[rng.int(m.routes)]!.push(c);
          rs.loadRoutes(start);
          LocalSearch.perVehicle(rs).run(rng);
          const routes = rs.routes();
          const cost = (v: number, r: number[]) => scratchRouteCost(p, v, pen, r);
          const bestWith = (v: number, rest: number[], c: number) =>
            Math.min(...Array.from({ length: rest.length + 1 }, (_, k) => cost(v, [...rest.slice(0, k), c, ...rest.slice(k)])));
          for (let ru = 0; ru < m.routes; ru++) {
            for (let rv = ru + 1; rv < m.routes; rv++) {
              const U = routes[ru]!;
              const V = routes[rv]!;
              const before = cost(ru, U) + cost(rv, V);
              for (const u of U) {
                for (const v of V) {
                  checked++;
                  const after =
                    bestWith(
                      ru,
                      U.filter((c) => c !== u),
                      v,
                    ) +
                    bestWith(
                      rv,
                      V.filter((c) => c !== v),
                      u,
                    );
                  expect(after, `SWAP* ${u} (route ${ru}) with ${v} (route ${rv})`).to.be.at.least(before - 1e-6);
                }
              }
            }
          }
        }),
        { numRuns: 300, seed: 27 },
      );
      expect(checked).to.be.greaterThan(800);
    },
  );

  it("builds one type per distinct vehicle and never more routes of a type than its count", () => {
    const req = fleetInstance({
      customers: 10,
      types: 3,
      depots: 2,
      mixedEnds: true,
      asymmetric: true,
      cost: true,
      time: "none",
      hours: false,
      speeds: false,
      seed: 9,
    });
    const p = compileRequest(req).problem;
    const m = buildProblemData(p);
    const counts = new Map<string, number>();
    for (let v = 0; v < p.vehicleCount; v++) {
      const key =
        `${req.vehicles_capacity[v]}|${req.vehicle_fixed_costs![v]}|` +
        `${req.vehicle_unit_distance_costs![v]}|${req.start_nodes[v]}|${req.end_nodes[v]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(m.typeSlots.map((s) => s.length).sort()).to.deep.equal([...counts.values()].sort());
    const total = m.typeSlots.reduce((sum, s) => sum + s.length, 0);
    expect(total).to.equal(p.vehicleCount);
    const all = evaluateSolution(p, { routes: Array.from({ length: p.vehicleCount }, () => []) });
    expect(all.routes).to.have.length(p.vehicleCount);
  });
});

/**
 * Exact optimum of a tiny instance of any kind, by the shared evaluator: for every vehicle and
 * every subset of customers the best feasible order (all permutations), then the best assignment
 * of disjoint subsets to vehicles (each vehicle at most once). Infinity when infeasible.
 */
function bruteForceOptimum(p: CompiledProblem): number {
  const customers = Array.from(p.customers);
  const k = customers.length;
  const full = 1 << k;
  const permutations = (items: number[]): number[][] =>
    items.length <= 1
      ? [items]
      : items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
  let best = new Array<number>(full).fill(Number.POSITIVE_INFINITY);
  best[0] = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    const route = new Array<number>(full).fill(Number.POSITIVE_INFINITY);
    route[0] = 0;
    for (let S = 1; S < full; S++) {
      const members = customers.filter((_, j) => S & (1 << j));
      for (const order of permutations(members)) {
        const score = evaluateRoute(p, v, order);
        if (score.feasible) route[S] = Math.min(route[S]!, score.cost);
      }
    }
    const next = best.slice();
    for (let S = 1; S < full; S++) for (let T = S; T > 0; T = (T - 1) & S) next[S] = Math.min(next[S]!, route[T]! + best[S ^ T]!);
    best = next;
  }
  return best[full - 1]!;
}

describe("hgs general search on tiny instances and whole runs", function () {
  this.timeout(300_000);
  const kinds: { name: string; o: Omit<FleetOptions, "seed" | "customers"> }[] = [
    {
      name: "vehicle types, cost objective",
      o: { types: 3, depots: 1, mixedEnds: false, asymmetric: false, cost: true, time: "none", hours: false, speeds: false },
    },
    {
      name: "several depots, different start and end nodes, asymmetric",
      o: { types: 3, depots: 3, mixedEnds: true, asymmetric: true, cost: false, time: "none", hours: false, speeds: false },
    },
    {
      name: "hard windows, speeds, working hours",
      o: { types: 2, depots: 2, mixedEnds: false, asymmetric: false, cost: true, time: "hard", hours: true, speeds: true },
    },
    {
      name: "soft windows, speeds",
      o: { types: 2, depots: 2, mixedEnds: true, asymmetric: true, cost: false, time: "soft", hours: false, speeds: true },
    },
    {
      name: "soft windows, working hours, cost",
      o: { types: 3, depots: 1, mixedEnds: false, asymmetric: false, cost: true, time: "soft", hours: true, speeds: false },
    },
  ];
  for (const kind of kinds) {
    it(`finds the brute-force optimum of tiny instances: ${kind.name}`, () => {
      let checked = 0;
      for (let seed = 1; seed <= 6; seed++) {
        const req = fleetInstance({ ...kind.o, customers: 6, seed });
        const p = compileRequest(req).problem;
        const optimum = bruteForceOptimum(p);
        if (optimum === Number.POSITIVE_INFINITY) continue;
        checked++;
        const outcome = solveRequest(req, { requestId: "b", timeLimitSeconds: 20, seed, maxIterations: 2000, strategy: "hgs" });
        expect(outcome.status, `seed ${seed}`).to.equal("solved");
        if (outcome.status === "solved")
          expect(outcome.result.total_cost, `seed ${seed}`).to.be.closeTo(optimum, 1e-6 * Math.max(1, optimum));
      }
      expect(checked, "most tiny instances are feasible").to.be.greaterThan(2);
    });
  }

  it("gives the same routes for the same seed and iteration budget", () => {
    const req = fleetInstance({
      customers: 40,
      types: 3,
      depots: 3,
      mixedEnds: true,
      asymmetric: true,
      cost: true,
      time: "hard",
      hours: true,
      speeds: true,
      seed: 77,
    });
    const p = compileRequest(req).problem;
    const run = () => hgs.solve(p, new Budget(performance.now() + 60_000, 5, 150)).routes;
    expect(run()).to.deep.equal(run());
  });

  it("moves a route to a cheaper free vehicle and never uses more vehicles of a type than it has", () => {
    // Two types at one depot: 2 expensive large vehicles, 3 cheap small ones; start everything on an expensive one.
    const base = fleetInstance({
      customers: 9,
      types: 1,
      depots: 1,
      mixedEnds: false,
      asymmetric: false,
      cost: true,
      time: "none",
      hours: false,
      speeds: false,
      seed: 3,
    });
    const total = base.node_demands.reduce((a, b) => a + b, 0);
    const req = {
      ...base,
      vehicle_num: 5,
      start_nodes: [0, 0, 0, 0, 0],
      end_nodes: [0, 0, 0, 0, 0],
      vehicles_capacity: [total, total, Math.ceil(total / 2), Math.ceil(total / 2), Math.ceil(total / 2)],
      vehicle_fixed_costs: [500, 500, 10, 10, 10],
      vehicle_unit_distance_costs: [3, 3, 1, 1, 1],
    };
    const p = compileRequest(req).problem;
    const initial = { routes: [Array.from(p.customers), [], [], [], []] };
    const solution = hgs.solve(p, new Budget(performance.now() + 60_000, 1, 300), initial);
    const score = evaluateSolution(p, solution);
    expect(score.feasible).to.equal(true);
    expect(solution.routes).to.have.length(5);
    expect(solution.routes[0]).to.deep.equal([]);
    expect(solution.routes[1]).to.deep.equal([]);
    expect(score.cost).to.be.lessThan(evaluateSolution(p, initial).cost);
  });

  it("tells the budget of every new best feasible solution, ending with the one it returns", () => {
    const req = fleetInstance({
      customers: 40,
      types: 3,
      depots: 2,
      mixedEnds: true,
      asymmetric: false,
      cost: true,
      time: "hard",
      hours: false,
      speeds: true,
      seed: 12,
    });
    const p = compileRequest(req).problem;
    const budget = new Budget(performance.now() + 60_000, 3, 300);
    const reported: number[] = [];
    budget.onImprovement((best) => {
      const score = evaluateSolution(p, best);
      expect(score.feasible, "only feasible solutions are reported").to.equal(true);
      reported.push(score.cost);
    });
    const solution = hgs.solve(p, budget);
    expect(reported.length).to.be.greaterThan(0);
    for (let i = 1; i < reported.length; i++) expect(reported[i]).to.be.lessThan(reported[i - 1]!);
    expect(reported[reported.length - 1]).to.be.closeTo(evaluateSolution(p, solution).cost, 1e-6);
  });

  it("returns feasible solutions the reference agrees with on random instances of every kind", () => {
    let solved = 0;
    fc.assert(
      fc.property(fc.oneof(fleetArb("none", 20), fleetArb("hard", 20), fleetArb("soft", 20)), (o) => {
        const req = fleetInstance(o);
        const outcome = solveRequest(req, { requestId: "r", timeLimitSeconds: 10, seed: 2, maxIterations: 200, strategy: "hgs" });
        if (outcome.status === "failed") return;
        solved++;
        const ref = referenceCost(req, outcome.result.routes);
        expect(ref.feasible).to.equal(true);
        expect(outcome.result.total_cost).to.be.closeTo(ref.cost, 1e-6 * Math.max(1, ref.cost));
        expect(outcome.result.strategy).to.equal("hgs");
      }),
      { numRuns: 60, seed: 31 },
    );
    expect(solved).to.be.greaterThan(30);
  });
});
