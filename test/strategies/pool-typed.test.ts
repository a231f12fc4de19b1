import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { iteratedLocalSearch } from "../../strategies/ils/iterated-local-search.js";
import { PoolRecombination } from "../../strategies/ils/pool-recombination.js";
import { buildProblemData, type ProblemData } from "../../strategies/search/problem-data.js";
import { addCustomerInsertions } from "../../strategies/search/pool/customer-enrichment.js";
import { RoutePool, type PooledRoute } from "../../strategies/search/pool/route-pool.js";
import { PartitionRows } from "../../strategies/search/pool/partition-rows.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance, withRules, type FleetOptions } from "./fleet-problems.js";
import { perVehicleSettings, type SettingsOverride } from "../../strategies/settings.js";

/** Mixed fleets (types, depots, shifts) with skills, optional stops and route caps. */
const rulesArb = () => fc.tuple(fc.oneof(fleetArb("none", 12), fleetArb("hard", 12), fleetArb("soft", 12)), fc.boolean());

function problemOf(o: FleetOptions, allowUnassigned: boolean): CompiledProblem {
  return compileRequest(withRules(fleetInstance(o), o.seed, allowUnassigned)).problem;
}

/** Random routes, one list per vehicle; with optional customers some are left out. */
function randomLists(p: CompiledProblem, rng: Rng): number[][] {
  const lists: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  for (const c of rng.shuffle(Array.from(p.customers))) if (rng.next() < 0.8) lists[rng.int(p.vehicleCount)]!.push(c);
  return lists;
}

/** The vehicles of a pooled route's type on which the evaluator finds it feasible at its pooled cost. */
function vehiclesPricing(p: CompiledProblem, m: ProblemData, route: PooledRoute): number[] {
  const list = Array.from(route.customers);
  return Array.from(m.typeSlots[route.group]!).filter((v) => {
    const score = evaluateRoute(p, v, list);
    return score.feasible && Math.abs(score.cost - route.cost) < 1e-6;
  });
}

/**
 * The search's objective of a solution (per-vehicle-parts.ts PerVehicleBest): the evaluator's cost plus the search's
 * price of required customers left out.
 */
function objective(p: CompiledProblem, m: ProblemData, solution: Solution): { feasible: boolean; cost: number } {
  const score = evaluateSolution(p, solution);
  let cost = score.cost;
  for (const c of score.missing) cost += m.rules!.skipPrice[c]!;
  return { feasible: score.feasible, cost };
}

/** One list per vehicle: each route on the next free vehicle of its type. */
function onSlots(m: ProblemData, routes: readonly PooledRoute[]): number[][] {
  const lists: number[][] = Array.from({ length: m.routes }, () => []);
  const used = new Int32Array(m.typeSlots.length);
  for (const route of routes) lists[m.typeSlots[route.group]![used[route.group]!++]!] = Array.from(route.customers);
  return lists;
}

describe("route pool and set partitioning on vehicle types, skills and optional customers", function () {
  this.timeout(120_000);

  it("pools each feasible route on its vehicle's type, feasible on every vehicle of that type at the evaluator's cost", () => {
    fc.assert(
      fc.property(rulesArb(), fc.integer({ min: 1, max: 1_000_000 }), ([o, allow], seed) => {
        const p = problemOf(o, allow);
        const m = buildProblemData(p);
        const rs = new Routes(m);
        const lists = randomLists(p, new Rng(seed));
        rs.loadRoutes(lists);
        const pool = new RoutePool(rs, 1000);
        pool.harvest();
        const expected = lists.filter((route, v) => route.length > 0 && evaluateRoute(p, v, route).feasible);
        expect(pool.size).to.equal(new Set(expected.map((route) => `${m.typeOf[lists.indexOf(route)]}:${route}`)).size);
        for (const pooled of pool.routes()) expect(vehiclesPricing(p, m, pooled)).to.deep.equal(Array.from(m.typeSlots[pooled.group]!));
      }),
      { numRuns: 150 },
    );
  });

  it("enriches each route with one more customer it may serve: feasible on its type, priced as the evaluator prices it", () => {
    let grown = 0;
    fc.assert(
      fc.property(rulesArb(), fc.integer({ min: 1, max: 1_000_000 }), ([o, allow], seed) => {
        const p = problemOf(o, allow);
        const m = buildProblemData(p);
        const lists = randomLists(p, new Rng(seed));
        const pool = new RoutePool(new Routes(m), 100_000);
        addCustomerInsertions(pool, new Routes(m), lists);
        for (const pooled of pool.routes()) {
          const route = Array.from(pooled.customers);
          const from = lists.flatMap((list, v) =>
            m.typeOf[v] === pooled.group &&
            list.length + 1 === route.length &&
            route.filter((c) => list.includes(c)).join(",") === list.join(",")
              ? [v]
              : [],
          );
          expect(from.length, `${route} is a route of the plan with one stop more, on a vehicle of its type`).to.be.at.least(1);
          expect(vehiclesPricing(p, m, pooled), `${route}: feasible at the pooled cost`).to.not.be.empty;
          grown++;
        }
      }),
      { numRuns: 150 },
    );
    expect(grown, "some routes grew").to.be.greaterThan(50);
  });

  it("prices a column as its route less the skip prices it saves, and a plan as the search's objective", () => {
    fc.assert(
      fc.property(rulesArb(), fc.integer({ min: 1, max: 1_000_000 }), ([o, allow], seed) => {
        const p = problemOf(o, allow);
        const m = buildProblemData(p);
        const rows = new PartitionRows(m);
        const rs = new Routes(m);
        const lists = randomLists(p, new Rng(seed));
        rs.loadRoutes(lists);
        const pool = new RoutePool(rs, 1000);
        pool.harvest();
        const routes = pool.routes();
        // A plan of the pooled routes that serve nobody twice.
        const served = new Set<number>();
        const plan = routes.filter(
          (route) => !Array.from(route.customers).some((c) => served.has(c)) && (route.customers.forEach((c) => served.add(c)), true),
        );
        const cost = rows.planCost(plan);
        const solution = { routes: onSlots(m, plan) };
        const verdict = objective(p, m, solution);
        if (!verdict.feasible) {
          expect(cost, "a required customer is unserved").to.equal(null);
          return;
        }
        expect(cost).to.not.equal(null);
        expect(cost!).to.be.closeTo(verdict.cost, 1e-6 * Math.max(1, verdict.cost));
        // Columns plus every finite skip price: the same objective.
        let constant = 0;
        if (rows.optionalRows) m.customers.forEach((c, row) => rows.optionalRows![row] && (constant += m.rules!.skipPrice[c]!));
        const columns = plan.reduce((sum, route) => sum + rows.columnCost(route), 0);
        expect(columns + constant).to.be.closeTo(verdict.cost, 1e-6 * Math.max(1, verdict.cost));
      }),
      { numRuns: 150 },
    );
  });

  it("recombines from serving nobody (everyone optional) into a cheaper feasible plan within each type's fleet", () => {
    let plans = 0;
    fc.assert(
      fc.property(fleetArb("hard", 12), fc.integer({ min: 1, max: 1_000_000 }), (o, seed) => {
        const p = problemOf(o, true);
        const m = buildProblemData(p);
        const rs = new Routes(m);
        const recombination = new PoolRecombination(rs, Budget.forSeconds(60, 1), 0);
        const rng = new Rng(seed);
        for (let k = 0; k < 8; k++) {
          rs.loadRoutes(randomLists(p, rng));
          recombination.harvest();
        }
        const nobody: number[][] = Array.from({ length: m.routes }, () => []);
        const start = objective(p, m, { routes: nobody });
        expect(start.feasible).to.equal(true);
        const plan = recombination.recombine(nobody, start.cost);
        if (plan === null) return;
        plans++;
        expect(plan.length).to.equal(m.routes);
        const verdict = objective(p, m, { routes: plan });
        expect(verdict.feasible, "the recombined plan is feasible").to.equal(true);
        expect(verdict.cost).to.be.below(start.cost);
      }),
      { numRuns: 60 },
    );
    expect(plans, "some recombinations found a cheaper plan").to.be.greaterThan(20);
  });

  it("runs inside the general search when opted in (skills): answers feasible by the evaluator", () => {
    const optedIn: SettingsOverride = { perVehicle: { poolFamilies: ["skills"] } };
    let applied = 0;
    for (let seed = 1; applied < 3 && seed < 40; seed++) {
      const o: FleetOptions = {
        customers: 12,
        types: 3,
        depots: 1,
        mixedEnds: false,
        asymmetric: false,
        cost: false,
        time: "hard",
        hours: false,
        speeds: false,
        seed,
      };
      // Unassigned customers allowed: random caps and shifts cannot make the problem infeasible.
      const p = problemOf(o, true);
      const m = buildProblemData(p);
      expect(PoolRecombination.applies(perVehicleSettings(m)), "off unless opted in").to.equal(false);
      if (!PoolRecombination.applies(perVehicleSettings(m, optedIn))) continue;
      applied++;
      const solution = iteratedLocalSearch(p, Budget.forSeconds(0.6, seed, undefined, undefined, optedIn));
      const score = evaluateSolution(p, solution);
      expect(score.feasible, `seed ${seed}: feasible`).to.equal(true);
    }
    expect(applied, "problems with skills opted in").to.equal(3);
  });
});
