import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { PoolRecombination } from "../../strategies/ils/pool-recombination.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { addPairInsertions } from "../../strategies/search/pool/pair-enrichment.js";
import { isFeasible, RoutePool } from "../../strategies/search/pool/route-pool.js";
import { Routes } from "../../strategies/search/routes.js";
import { loadArb, loadInstance, validLists, type LoadOptions } from "./load-problems.js";
import { perVehicleSettings } from "../../strategies/settings.js";

/** Shipment instances with hard, soft or no windows (mixed fleets: enrichment assumes nothing of the fleet). */
const shipmentArb = () => fc.oneof(loadArb("none", 14, "shipments"), loadArb("hard", 14, "shipments"), loadArb("soft", 14, "shipments"));

/** The evaluator's verdict on a route: feasible (soft lateness allowed, it is priced) and its cost. */
function judge(p: CompiledProblem, v: number, route: number[]): { feasible: boolean; cost: number } {
  const score = evaluateRoute(p, v, route);
  const soft = (p.time?.latePenaltyPerMin ?? 0) > 0;
  const feasible =
    score.capacityExcess <= 1e-9 &&
    score.durationExcessMin <= 1e-9 &&
    (soft || score.lateMinutes <= 1e-9) &&
    (score.orderViolations ?? 0) === 0;
  return { feasible, cost: score.cost };
}

describe("route pool and set-partitioning recombination", function () {
  this.timeout(120_000);

  it("pools exactly the feasible non-empty routes, at the evaluator's cost", () => {
    fc.assert(
      fc.property(shipmentArb(), fc.integer({ min: 1, max: 1_000_000 }), (o, seed) => {
        const p = compileRequest(loadInstance(o)).problem;
        if (!p.loads) return;
        const rs = new Routes(buildProblemData(p));
        const lists = validLists(p, new Rng(seed));
        rs.loadRoutes(lists);
        const pool = new RoutePool(rs, 1000);
        pool.harvest();
        const expected = lists.filter((route, v) => route.length > 0 && judge(p, v, route).feasible);
        expect(pool.size).to.equal(expected.length);
        for (const pooled of pool.routes()) {
          const v = lists.findIndex((route) => route.join(",") === Array.from(pooled.customers).join(","));
          expect(v, "a route of the plan").to.be.at.least(0);
          expect(pooled.cost).to.be.closeTo(judge(p, v, lists[v]!).cost, 1e-6);
        }
      }),
      { numRuns: 120 },
    );
  });

  it("keeps at most its capacity, newest first", () => {
    const p = compileRequest(
      loadInstance({
        customers: 8,
        types: 1,
        depots: 1,
        mixedEnds: false,
        asymmetric: false,
        cost: false,
        time: "none",
        hours: false,
        speeds: false,
        seed: 3,
        kind: "shipments",
        loadSeed: 5,
      }),
    ).problem;
    const pool = new RoutePool(new Routes(buildProblemData(p)), 4);
    for (let k = 0; k < 10; k++) pool.add(0, [k + 1], k);
    expect(pool.size).to.be.at.most(4);
    expect(pool.has("0:10"), "the newest is kept").to.equal(true);
    expect(pool.has("0:1"), "the oldest went").to.equal(false);
  });

  it("enriches each route with one more shipment: feasible, priced as the evaluator prices it", () => {
    fc.assert(
      fc.property(shipmentArb(), fc.integer({ min: 1, max: 1_000_000 }), (o, seed) => {
        const p = compileRequest(loadInstance(o)).problem;
        if (!p.loads) return;
        const m = buildProblemData(p);
        const lists = validLists(p, new Rng(seed));
        const pool = new RoutePool(new Routes(m), 100_000);
        addPairInsertions(pool, new Routes(m), lists);
        const partner = p.loads!.partner;
        for (const pooled of pool.routes()) {
          const route = Array.from(pooled.customers);
          // The route of the plan it grew from (two may fit, e.g. [a, b] and [c, d] for [c, a, b, d]).
          const from = lists.flatMap((list, v) =>
            list.length + 2 === route.length && route.filter((c) => list.includes(c)).join(",") === list.join(",") ? [v] : [],
          );
          expect(from.length, `${route} is a route of the plan with two stops more`).to.be.at.least(1);
          const grown = from.filter((v) => {
            const added = route.filter((c) => !lists[v]!.includes(c));
            const verdict = judge(p, v, route);
            return (
              partner[added[0]!] === added[1] &&
              p.loads!.shipments.some((s) => s.pickup === added[0] && s.delivery === added[1]) &&
              verdict.feasible &&
              Math.abs(verdict.cost - pooled.cost) < 1e-6
            );
          });
          expect(grown.length, `${route}: one more shipment, pickup first, feasible on its vehicle at the pooled cost`).to.be.at.least(1);
        }
      }),
      { numRuns: 120 },
    );
  });

  it("recombines into a cheaper plan that serves everyone once, or answers null", () => {
    let plans = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom<LoadOptions["time"]>("none", "hard"),
        (seed, loadSeed, time) => {
          const request = loadInstance({
            customers: 14,
            types: 1,
            depots: 1,
            mixedEnds: false,
            asymmetric: false,
            cost: false,
            time,
            hours: false,
            speeds: false,
            seed,
            kind: "shipments",
            loadSeed,
          });
          // A fleet of identical vehicles, one per customer: every shipment alone is a plan.
          const count = request.node_num;
          request.vehicle_num = count;
          for (const key of ["start_nodes", "end_nodes", "vehicles_capacity", "vehicle_speeds"] as const) {
            const values = request[key] as number[] | undefined;
            if (values) request[key] = new Array(count).fill(values[0]);
          }
          request.vehicles_capacity = new Array(count).fill(1000);
          const p = compileRequest(request).problem;
          if (!p.loads) return;
          const m = buildProblemData(p);
          if (!PoolRecombination.applies(perVehicleSettings(m))) return;
          const rs = new Routes(m);
          const budget = Budget.forSeconds(60, 1);
          const recombination = new PoolRecombination(rs, budget, 0);
          // The pool: routes of a few random plans, and the worst plan (each shipment alone) as the best so far.
          const rng = new Rng(seed);
          for (let k = 0; k < 6; k++) {
            rs.loadRoutes(validLists(p, rng));
            recombination.harvest();
          }
          const alone: number[][] = Array.from({ length: m.routes }, () => []);
          p.loads!.shipments.forEach((s, k) => (alone[k] = [s.pickup, s.delivery]));
          const lonely = p.customers.filter((c) => p.loads!.partner[c]! < 0);
          lonely.forEach((c, k) => (alone[p.loads!.shipments.length + k] = [c]));
          const start = evaluateSolution(p, { routes: alone });
          if (!start.feasible) return;
          const plan = recombination.recombine(alone, start.cost);
          if (plan === null) return;
          plans++;
          const score = evaluateSolution(p, { routes: plan });
          expect(score.feasible, "the recombined plan is feasible").to.equal(true);
          expect(score.cost).to.be.below(start.cost);
          expect(plan.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
          for (let r = 0; r < m.routes; r++) if (plan[r]!.length > 0) expect(isFeasible((rs.loadRoutes(plan), rs), r)).to.equal(true);
        },
      ),
      { numRuns: 40 },
    );
    expect(plans, "some recombinations found a cheaper plan").to.be.greaterThan(10);
  });

  it(
    "finds a plan with a route fewer when the pool holds one: feasible, everyone " +
      "served once, within the limit, whatever its cost; null when none can exist",
    () => {
      let plans = 0;
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.constantFrom<LoadOptions["time"]>("none", "hard"),
          (seed, loadSeed, time) => {
            const request = loadInstance({
              customers: 14,
              types: 1,
              depots: 1,
              mixedEnds: false,
              asymmetric: false,
              cost: false,
              time,
              hours: false,
              speeds: false,
              seed,
              kind: "shipments",
              loadSeed,
            });
            // Six identical vehicles of ample capacity: plans on one to six of them.
            request.vehicle_num = 6;
            for (const key of ["start_nodes", "end_nodes", "vehicle_speeds"] as const) {
              const values = request[key] as number[] | undefined;
              if (values) request[key] = new Array(6).fill(values[0]);
            }
            request.vehicles_capacity = new Array(6).fill(1000);
            const p = compileRequest(request).problem;
            if (!p.loads) return;
            const m = buildProblemData(p);
            if (!PoolRecombination.applies(perVehicleSettings(m))) return;
            const rs = new Routes(m);
            const recombination = new PoolRecombination(rs, Budget.forSeconds(60, 1), 0);
            // The pool: routes of a few random plans on 1 to all vehicles (the routes of a random plan
            // joined end to end); the plan with the most routes among the feasible ones is the best.
            const rng = new Rng(seed);
            let best: number[][] | null = null;
            let fewest = Number.POSITIVE_INFINITY;
            let most = 0;
            for (let k = 0; k < 8; k++) {
              const vehicles = 1 + rng.int(m.routes);
              const lists: number[][] = Array.from({ length: m.routes }, () => []);
              validLists(p, rng).forEach((route, v) => lists[v % vehicles]!.push(...route));
              rs.loadRoutes(lists);
              recombination.harvest();
              if (!evaluateSolution(p, { routes: lists }).feasible) continue;
              const used = lists.filter((route) => route.length > 0).length;
              fewest = Math.min(fewest, used);
              if (used >= most) [best, most] = [lists, used];
            }
            if (best === null || fewest >= most) return;
            expect(recombination.fewerRoutes(best, 0), "no plan has no route").to.equal(null);
            const plan = recombination.fewerRoutes(best, most - 1);
            expect(plan, "the pool holds a plan of at most the limit").to.not.equal(null);
            plans++;
            const score = evaluateSolution(p, { routes: plan! });
            expect(score.feasible, "the plan is feasible").to.equal(true);
            expect(plan!.filter((route) => route.length > 0).length).to.be.at.most(most - 1);
            expect(plan!.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
          },
        ),
        { numRuns: 40 },
      );
      expect(plans, "some pools held a plan with a route fewer").to.be.greaterThan(10);
    },
  );
});
