import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { PoolRecombination } from "../../strategies/ils/pool-recombination.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { RoutePool } from "../../strategies/search/pool/route-pool.js";
import { Routes } from "../../strategies/search/routes.js";
import { perVehicleSettings } from "../../strategies/settings.js";
import { fleetArb, fleetInstance } from "./fleet-problems.js";
import { expectLocksKept, withRandomPlan } from "./replan-problems.js";

/** A re-plan: a random given plan with locked heads, and a price per stop moved off its vehicle. */
function replan(seed: number, price: number, o: Parameters<typeof fleetInstance>[0]): CompiledProblem {
  const req = { ...withRandomPlan(fleetInstance(o), seed), reassignment_cost: price } as SolveRequestInput;
  return compileRequest(req).problem;
}

/** Routes that keep every locked head and deal the other customers out at random. */
function randomPlan(p: CompiledProblem, rng: Rng): number[][] {
  const heads = p.locks?.stops ?? [];
  const routes = Array.from({ length: p.vehicleCount }, (_, v) => Array.from(heads[v] ?? []));
  const locked = new Set(routes.flat());
  for (const c of rng.shuffle(Array.from(p.customers).filter((c) => !locked.has(c)))) routes[rng.int(p.vehicleCount)]!.push(c);
  return routes;
}

/** A random fleet's re-plan at a random price, and the seed that drew its plan. */
const replanArb = fc
  .tuple(fleetArb("none", 12), fc.integer({ min: 1, max: 1_000_000 }), fc.double({ min: 0.1, max: 30, noNaN: true }))
  .map(([o, seed, price]) => ({ p: replan(seed, price, o), seed }));

describe("set partitioning when routes belong to their vehicles (locked stops, a reassignment cost)", function () {
  this.timeout(120_000);

  it("pools each feasible route on its own vehicle, at the evaluator's cost there, the reassignment cost included", () => {
    let pooled = 0;
    fc.assert(
      fc.property(replanArb, ({ p, seed }) => {
        const m = buildProblemData(p);
        const rs = new Routes(m);
        const lists = randomPlan(p, new Rng(seed));
        rs.loadRoutes(lists);
        const pool = new RoutePool(rs, 1000);
        pool.harvest();
        expect(pool.groups.perVehicle).to.equal(true);
        const feasible = lists.filter((route, v) => route.length > 0 && evaluateRoute(p, v, route).feasible);
        expect(pool.size).to.equal(feasible.length);
        for (const route of pool.routes()) {
          const v = Array.from(pool.groups.slots[route.group]!);
          expect(v, "a group is one vehicle").to.deep.equal([route.group]);
          const score = evaluateRoute(p, route.group, route.customers);
          expect(score.feasible).to.equal(true);
          expect(route.cost).to.be.closeTo(score.cost, 1e-6 * Math.max(1, score.cost));
          expect(Array.from(route.customers)).to.deep.equal(lists[route.group]);
          pooled++;
        }
      }),
      { numRuns: 100 },
    );
    expect(pooled, "routes were pooled").to.be.greaterThan(50);
  });

  it("recombines into a plan that keeps every locked head, each route on its vehicle, cheaper by the evaluator", () => {
    let plans = 0;
    fc.assert(
      fc.property(replanArb, ({ p, seed }) => {
        const m = buildProblemData(p);
        const rs = new Routes(m);
        const recombination = new PoolRecombination(rs, Budget.forSeconds(60, 1), 0);
        const rng = new Rng(seed);
        const plansSeen: number[][][] = [];
        for (let k = 0; k < 8; k++) {
          const lists = randomPlan(p, rng);
          rs.loadRoutes(lists);
          recombination.harvest();
          plansSeen.push(lists);
        }
        // The cheapest feasible plan seen is the best the recombination must beat.
        const scored = plansSeen.map((routes) => ({ routes, score: evaluateSolution(p, { routes }) })).filter((s) => s.score.feasible);
        fc.pre(scored.length > 0);
        const best = scored.reduce((a, b) => (b.score.cost < a.score.cost ? b : a));
        const plan = recombination.recombine(best.routes, best.score.cost);
        if (plan === null) return;
        plans++;
        const verdict = evaluateSolution(p, { routes: plan });
        expect(verdict.feasible, "the recombined plan is feasible").to.equal(true);
        expect(verdict.cost).to.be.below(best.score.cost);
        expectLocksKept(p, plan, "recombined plan");
      }),
      { numRuns: 60 },
    );
    expect(plans, "some recombinations found a cheaper plan").to.be.greaterThan(5);
  });

  it("is on for re-plans with a reassignment cost", () => {
    const p = replan(3, 5, {
      customers: 10,
      types: 1,
      depots: 1,
      mixedEnds: false,
      asymmetric: false,
      cost: false,
      time: "none",
      hours: false,
      speeds: false,
      seed: 3,
    });
    expect(perVehicleSettings(buildProblemData(p)).setPartitioning).to.equal(true);
  });
});
