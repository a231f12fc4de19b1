import { expect } from "chai";
import fc from "fast-check";
import { mtLike } from "../../bench/mt-like.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import { restoreFeasibility } from "../../strategies/core/feasibility.js";
import { timeOrientedTrips } from "../../strategies/core/time-oriented-trips.js";
import { star, tripArb, tripRequest } from "./trip-problems.js";

describe("the time-oriented first plan for vehicles that reload (core/time-oriented-trips.ts)", () => {
  it("builds only routes the evaluator calls feasible, each customer at most once, on random multi-trip problems", () => {
    let reloads = 0;
    let served = 0;
    fc.assert(
      fc.property(tripArb, (o) => {
        // One vehicle and two depots make the second depot a customer and a reload node, which the contract refuses.
        fc.pre(o.vehicles > 1 || !o.twoDepots);
        const { problem: p } = compileRequest(tripRequest({ ...o, timed: true, soft: false }));
        const plan = timeOrientedTrips(p);
        expect(plan.routes).to.have.length(p.vehicleCount);
        const seen = new Set<number>();
        plan.routes.forEach((route, v) => {
          const score = evaluateRoute(p, v, route);
          expect(score.feasible, `vehicle ${v}: ${route.join(" ")}`).to.equal(true);
          if (route.length > 0) expect(p.isDepot[route[route.length - 1]!], "no reload stop at the end").to.equal(0);
          for (const c of route) {
            if (p.isDepot[c]) {
              reloads++;
              continue;
            }
            served++;
            expect(seen.has(c), `customer ${c} twice`).to.equal(false);
            seen.add(c);
          }
        });
      }),
      { numRuns: 200 },
    );
    // Not vacuous: the plans hold customers and several trips.
    expect(served).to.be.greaterThan(200);
    expect(reloads).to.be.greaterThan(50);
  });

  it("with the trip repair, is where hgs starts again when its search from nothing has no feasible plan: a tight day is solved", () => {
    // Clustered windows, 90-minute services, 8 vehicles of capacity 100 for 100 customers
    // (bench/mt-like.ts). From nothing the search kept time warp it never removed.
    const { request } = mtLike(0, 2027);
    const outcome = solveRequest(request, { requestId: "tight-trips", timeLimitSeconds: 60, seed: 1, maxIterations: 400, strategy: "hgs" });
    expect(outcome.status, JSON.stringify(outcome).slice(0, 300)).to.equal("solved");
  });

  it("gives the feasibility phase a plan with trips where it had none", () => {
    // One vehicle of capacity 4 reloading at the depot; six customers of demand 2, two released late.
    const request = star({
      vehicle_num: 1,
      start_nodes: [0],
      end_nodes: [0],
      vehicles_capacity: [4],
      vehicle_reload_nodes: [[0]],
      node_time_windows: Array.from({ length: 7 }, () => [0, 500]),
      node_service_time: [0, 5, 5, 5, 5, 5, 5],
      vehicle_speeds: [1],
      node_release_times: [0, 0, 0, 0, 0, 60, 60],
    });
    const { problem } = compileRequest(request);
    const found = restoreFeasibility(problem, Budget.forSeconds(2, 1));
    expect(found, "a feasible plan").to.not.equal(null);
    expect(evaluateSolution(problem, found!).feasible).to.equal(true);
    expect(found!.routes[0]!.filter((c) => c === 0).length, "reload stops").to.be.at.least(2);
  });
});
