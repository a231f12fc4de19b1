import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { hgs } from "../../strategies/hgs/index.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildModel, initialPenalties, type Penalties } from "../../strategies/search/identical-vehicles-model.js";
import type { ProblemData } from "../../strategies/search/problem-data.js";
import { iteratedLocalSearch } from "../../strategies/ils/iterated-local-search.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { IdenticalVehiclesEducation } from "../../strategies/ils/identical-vehicles-parts.js";
import type { SettingsOverride } from "../../strategies/settings.js";

/** A random single-depot CVRP with identical vehicles; with `hours`, also a working-hours cap that binds on some routes. */
function cvrp(o: { customers: number; seed: number; hours: boolean; spare: number }): SolveRequestInput {
  let s = o.seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = o.customers + 1;
  const pos = Array.from({ length: n }, (): [number, number] => [Math.round(rand() * 1000), Math.round(rand() * 1000)]);
  const demands = pos.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 10)));
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity = Math.max(10, Math.round(total / Math.max(1, o.customers / (3 + Math.floor(rand() * 12)))));
  const vehicles = Math.ceil(total / capacity) + o.spare;
  const req: SolveRequestInput = {
    objective: "min_total_distance",
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: pos.map((a) => pos.map((b) => Math.round(Math.hypot(a[0] - b[0], a[1] - b[1])))),
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array(vehicles).fill(capacity),
  };
  if (o.hours) {
    req.node_time_windows = pos.map((): [number, number] => [0, 100_000]);
    req.node_service_time = pos.map((_, i) => (i === 0 ? 0 : Math.round(rand() * 10)));
    req.vehicle_speeds = Array(vehicles).fill(20);
    req.max_working_hours = 2 + Math.round(rand() * 20) / 10;
  }
  return req;
}

function modelOf(p: CompiledProblem): ProblemData {
  const outcome = buildModel(p);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.model;
}

/** Penalised cost of one route from scratch, from the shared evaluator's distance, load and duration. */
function scratchCost(p: CompiledProblem, m: ProblemData, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, 0, route);
  return (
    p.fixedCost[0]! +
    p.unitCost[0]! * score.distance +
    pen.load * Math.max(0, score.load - p.capacity[0]!) +
    (p.time ? pen.duration * Math.max(0, score.durationMin - m.durationLimit) : 0)
  );
}

/**
 * hgs on `p` twice with seed 3 and a 400-iteration budget from `budgetFor`: feasible by the
 * evaluator, every iteration run, the same routes both times, and cheaper than the savings start.
 */
function expectFeasibleRepeatableAndBetterThanSavings(p: CompiledProblem, budgetFor: (seed: number) => Budget): void {
  const run = (seed: number) => {
    const budget = budgetFor(seed);
    const solution = hgs.solve(p, budget);
    return { solution, iterations: budget.iterationCount };
  };
  const a = run(3);
  const b = run(3);
  expect(evaluateSolution(p, a.solution).feasible).to.equal(true);
  expect(a.iterations).to.equal(400);
  expect(a.solution.routes).to.deep.equal(b.solution.routes);
  expect(evaluateSolution(p, a.solution).cost).to.be.lessThan(evaluateSolution(p, clarkeWrightSolution(p)).cost);
}

describe("identical-vehicles iterated local search (hgs above 300 customers)", function () {
  this.timeout(120_000);

  it("after each ruin and recreate, the localised re-search prices every move exactly and keeps every customer once", () => {
    let moves = 0;
    let rounds = 0;
    fc.assert(
      fc.property(
        fc.record({
          customers: fc.integer({ min: 8, max: 60 }),
          seed: fc.integer({ min: 1, max: 1e6 }),
          hours: fc.boolean(),
          spare: fc.integer({ min: 0, max: 3 }),
        }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        (o, loadPrice, durationPrice) => {
          const { problem: p } = compileRequest(cvrp(o));
          const m = modelOf(p);
          const pen = { load: loadPrice, duration: durationPrice, timeWarp: 1 };
          const rng = new Rng(o.seed);
          const ls = LocalSearch.identicalVehicles(m);
          ls.penalties = pen;
          ls.loadRoutes(clarkeWrightSolution(p).routes);
          const ruin = new IdenticalVehiclesRuin(ls);
          // The savings may use more routes than there are vehicles: the others are inserted.
          ruin.reinsert(
            rng,
            Array.from(m.customers).filter((c) => ls.rs.routeOf[c]! < 0),
          );
          ls.run(rng);
          for (let round = 0; round < 5; round++) {
            const moved = ruin.perturb(rng);
            expect(moved).to.be.greaterThan(0);
            const afterRecreate = ls.routes();
            expect(afterRecreate.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
            expect(ls.totalCost()).to.be.closeTo(
              afterRecreate.reduce((sum, r) => sum + scratchCost(p, m, pen, r), 0),
              1e-6,
            );
            let total = ls.totalCost();
            ls.onCommit = (predicted, ra, rb) => {
              moves++;
              const now = ls.routes();
              const actual = scratchCost(p, m, pen, now[ra]!) + (rb >= 0 ? scratchCost(p, m, pen, now[rb]!) : 0);
              expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6);
              expect(ls.totalCost()).to.be.lessThan(total);
              total = ls.totalCost();
            };
            expect(ls.runLocalised(rng)).to.equal(true);
            ls.onCommit = null;
            const final = ls.routes();
            expect(final.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
            expect(final.reduce((sum, r) => sum + scratchCost(p, m, pen, r), 0)).to.be.closeTo(ls.totalCost(), 1e-6);
            rounds++;
          }
        },
      ),
      { numRuns: 120, seed: 21 },
    );
    expect(rounds).to.equal(600);
    expect(moves, "the localised searches applied many moves").to.be.greaterThan(500);
  });

  it("reports only improving feasible solutions (evaluator-checked) and returns the last one", () => {
    let searched = 0;
    fc.assert(
      fc.property(
        fc.record({
          customers: fc.integer({ min: 10, max: 80 }),
          seed: fc.integer({ min: 1, max: 1e6 }),
          hours: fc.boolean(),
          spare: fc.integer({ min: 1, max: 3 }),
        }),
        (o) => {
          const { problem: p } = compileRequest(cvrp(o));
          const m = modelOf(p);
          const budget = new Budget(performance.now() + 60_000, o.seed, 300);
          const reported: Solution[] = [];
          budget.onImprovement((s) => reported.push(s));
          // The savings may use more routes than there are vehicles: the search places the rest.
          const found = iteratedLocalSearch(p, budget, {
            model: m,
            routes: clarkeWrightSolution(p).routes,
            penalties: initialPenalties(m),
          });
          if (reported.length === 0) {
            // Never feasible (too small a fleet or too tight hours): the last routes, reported infeasible.
            expect(evaluateSolution(p, found).feasible).to.equal(false);
            return;
          }
          searched++;
          expect(reported.length).to.be.greaterThan(0);
          const costs = reported.map((s) => {
            const score = evaluateSolution(p, s);
            expect(score.feasible).to.equal(true);
            return score.cost;
          });
          for (let k = 1; k < costs.length; k++) expect(costs[k]).to.be.lessThan(costs[k - 1]!);
          expect(evaluateSolution(p, found).cost).to.equal(costs[costs.length - 1]);
          expect(found.routes).to.deep.equal(reported[reported.length - 1]!.routes);
        },
      ),
      { numRuns: 40, seed: 22 },
    );
    expect(searched).to.be.greaterThan(30);
  });

  it("runs for identical-vehicles CVRPs above 300 customers: feasible, the same routes for the same seed and iteration budget", () => {
    const { problem: p } = compileRequest(cvrp({ customers: 320, seed: 5, hours: false, spare: 3 }));
    expectFeasibleRepeatableAndBetterThanSavings(p, (seed) => new Budget(performance.now() + 60_000, seed, 400));
  });

  it("repairs by their yield (ils/repair-rule.ts), no spare vehicle: feasible, the same routes for the same seed", () => {
    const { problem: p } = compileRequest(cvrp({ customers: 320, seed: 7, hours: false, spare: 0 }));
    const byYield = { identicalVehicles: { repairOnceFeasible: "byYield" as const } };
    expectFeasibleRepeatableAndBetterThanSavings(p, (seed) => Budget.forSeconds(60, seed, 400, undefined, byYield));
  });

  it("repairs only outcomes within reach of acceptance or a new best, no spare vehicle: feasible, repeatable, fewer repairs", () => {
    const { problem: p } = compileRequest(cvrp({ customers: 320, seed: 7, hours: false, spare: 0 }));
    const withinReach = { identicalVehicles: { repairWithinReach: true } };
    expectFeasibleRepeatableAndBetterThanSavings(p, (seed) => Budget.forSeconds(60, seed, 400, undefined, withinReach));
    // Fewer repairs than repairing half of every infeasible outcome, on the same iterations.
    const proto = IdenticalVehiclesEducation.prototype as unknown as { repair(): void };
    const repair = proto.repair;
    let repairs = 0;
    proto.repair = function (this: unknown) {
      repairs++;
      repair.call(this);
    };
    try {
      const repairsWith = (settings: SettingsOverride) => {
        repairs = 0;
        hgs.solve(p, Budget.forSeconds(60, 3, 400, undefined, settings));
        return repairs;
      };
      const half = repairsWith({ identicalVehicles: { repairWithinReach: false } });
      expect(half).to.be.greaterThan(0);
      expect(repairsWith(withinReach)).to.be.lessThan(half);
    } finally {
      proto.repair = repair;
    }
  });

  it("repairs from the broken routes' own customers, no spare vehicle: feasible, repeatable, fewer customers examined a repair", () => {
    const { problem: p } = compileRequest(cvrp({ customers: 320, seed: 7, hours: false, spare: 0 }));
    const routes = { identicalVehicles: { repairScope: "routes" as const } };
    expectFeasibleRepeatableAndBetterThanSavings(p, (seed) => Budget.forSeconds(60, seed, 400, undefined, routes));
    // Customers the local search examined per repair, against the scope of the education's runs.
    const proto = IdenticalVehiclesEducation.prototype as unknown as { repair(): void };
    const repair = proto.repair;
    let repairs = 0;
    let examined = 0;
    proto.repair = function (this: { ls: LocalSearch }) {
      const before = this.ls.examined;
      repair.call(this);
      repairs++;
      examined += this.ls.examined - before;
    };
    try {
      const perRepair = (scope: "nearby" | "routes") => {
        repairs = 0;
        examined = 0;
        hgs.solve(p, Budget.forSeconds(60, 3, 400, undefined, { identicalVehicles: { repairScope: scope } }));
        expect(repairs).to.be.greaterThan(0);
        return examined / repairs;
      };
      expect(perRepair("routes")).to.be.lessThan(perRepair("nearby") / 2);
    } finally {
      proto.repair = repair;
    }
  });
});
