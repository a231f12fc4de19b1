import { expect } from "chai";
import fc from "fast-check";
import { mtLike } from "../../bench/mt-like.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { timeOrientedTrips } from "../../strategies/core/time-oriented-trips.js";
import { repairTrips } from "../../strategies/core/trip-repair.js";
import { tripArb, tripRequest } from "./trip-problems.js";

const never = () => false;

/** Every customer once (a visit to one of the vehicle's reload nodes is a stop), depot visits only at reload nodes. */
function expectWellFormed(p: CompiledProblem, plan: Solution): void {
  const seen = new Set<number>();
  plan.routes.forEach((route, v) => {
    const stops = Array.from(p.trips!.reloadNodes[v]!);
    for (const c of route) {
      if (p.isDepot[c]) expect(stops, `vehicle ${v} reloads at ${c}`).to.include(c);
      if (stops.includes(c)) {
        seen.add(c);
        continue;
      }
      expect(seen.has(c), `customer ${c} twice`).to.equal(false);
      seen.add(c);
    }
  });
  for (const c of p.customers) expect(seen.has(c), `customer ${c} served`).to.equal(true);
}

describe("the trip repair (core/trip-repair.ts)", function () {
  this.timeout(300_000);

  it("turns random infeasible multi-trip plans into feasible ones, each customer once, reloading only where allowed", () => {
    let repaired = 0;
    let reloadsPlanned = 0;
    fc.assert(
      fc.property(tripArb, (o) => {
        const p = compileRequest(tripRequest({ ...o, timed: true, soft: false })).problem;
        const rng = new Rng(o.seed);
        // A random plan without reload stops: over capacity and often late.
        const routes: number[][] = Array.from({ length: p.vehicleCount }, () => []);
        for (const c of rng.shuffle(Array.from(p.customers))) routes[rng.int(p.vehicleCount)]!.push(c);
        const plan = repairTrips(p, { routes }, rng, never, 50 * p.customers.length);
        if (!plan) return;
        expectWellFormed(p, plan);
        plan.routes.forEach((route, v) => expect(evaluateRoute(p, v, route).feasible, `route ${v}`).to.equal(true));
        repaired++;
        reloadsPlanned += plan.routes.reduce((n, route) => n + route.filter((c) => p.isDepot[c]).length, 0);
      }),
      { numRuns: 200 },
    );
    // Not vacuous: most plans are repaired, with reload stops the repair planned itself.
    expect(repaired).to.be.greaterThan(100);
    expect(reloadsPlanned).to.be.greaterThan(50);
  });

  it("completes the time-oriented plan of a tight generated day, which leaves customers out", () => {
    // bench/mt-like.ts: clustered windows, 90-minute services, 8 vehicles of capacity 100 for 100 customers.
    const p = compileRequest(mtLike(6, 2041).request).problem;
    const plan = timeOrientedTrips(p);
    const served = plan.routes.flat().filter((c) => !p.isDepot[c]).length;
    expect(served, "the plan leaves customers out").to.be.lessThan(p.customers.length);
    const repaired = repairTrips(p, plan, new Rng(1), never, 50 * p.customers.length);
    expect(repaired, "repaired").to.not.equal(null);
    expectWellFormed(p, repaired!);
    expect(evaluateSolution(p, repaired!).feasible).to.equal(true);
  });

  it("answers null rather than an infeasible plan when nothing can be repaired", () => {
    // One vehicle of capacity 6 that may not reload: more demand than it can carry.
    const o = { seed: 7, customers: 8, vehicles: 1, timed: true, soft: false, twoDepots: false, maxReloads: 0 };
    const p = compileRequest(tripRequest(o)).problem;
    const demand = Array.from(p.customers).reduce((sum, c) => sum + p.demand[c]!, 0);
    expect(demand, "more demand than one trip carries").to.be.greaterThan(p.capacity[0]!);
    expect(repairTrips(p, { routes: [Array.from(p.customers)] }, new Rng(1), never, 200)).to.equal(null);
  });
});
