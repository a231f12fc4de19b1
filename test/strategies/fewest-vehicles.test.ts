import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import fc from "fast-check";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import { restoreFeasibility } from "../../strategies/core/feasibility.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { eliminateRoutes } from "../../strategies/search/route-elimination.js";
import { cheapestWindowPosition, windowsOnly } from "../../strategies/search/window-insertion.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { checkFewestVehicles } from "../../checker/check-fewest-vehicles.js";
import { arbitraryRequest } from "./random-problems.js";

const nonEmpty = (s: Solution) => s.routes.filter((r) => r.length > 0).length;

/**
 * Every plan of a tiny problem (each customer at every position of every route), scored by the
 * evaluator: the fewest vehicles of a feasible plan, and the least cost among plans with as few.
 */
function hierarchicalOptimum(p: CompiledProblem): { vehicles: number; cost: number } | null {
  const routes: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  const customers = Array.from(p.customers);
  let best: { vehicles: number; cost: number } | null = null;
  const place = (i: number) => {
    if (i === customers.length) {
      const score = evaluateSolution(p, { routes });
      if (!score.feasible) return;
      const vehicles = routes.filter((r) => r.length > 0).length;
      if (!best || vehicles < best.vehicles || (vehicles === best.vehicles && score.cost < best.cost))
        best = { vehicles, cost: score.cost };
      return;
    }
    for (const route of routes)
      for (let at = 0; at <= route.length; at++) {
        route.splice(at, 0, customers[i]!);
        place(i + 1);
        route.splice(at, 1);
      }
  };
  place(0);
  return best;
}

/** Random small requests under min_vehicles: windows, working hours, soft windows, mixed fleets, costs. */
const fewestRequest = (maxCustomers: number) =>
  arbitraryRequest(maxCustomers).map((r): SolveRequestInput => ({ ...r, objective: "min_vehicles" }));

/** All vehicles alike (start, end, capacity, costs, speed): the fleet kept after elimination is then never the wrong one. */
function identicalFleet(r: SolveRequestInput): boolean {
  const same = (a: readonly unknown[] | undefined) => !a || a.every((x) => x === a[0]);
  return [r.start_nodes, r.end_nodes, r.vehicles_capacity, r.vehicle_fixed_costs, r.vehicle_unit_distance_costs, r.vehicle_speeds].every(
    same,
  );
}

describe("objective min_vehicles", () => {
  it("compiles to the hierarchical flag, priced by distance, or by cost when a cost array is given", () => {
    const base: SolveRequestInput = {
      objective: "min_vehicles",
      node_num: 3,
      vehicle_num: 2,
      distance_matrix: [
        [0, 1, 2],
        [1, 0, 1],
        [2, 1, 0],
      ],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: [0, 1, 1],
      vehicles_capacity: [5, 5],
    };
    const plain = compileRequest(base).problem;
    expect(plain.minVehicles).to.equal(true);
    expect(plain.objective).to.equal("distance");
    const priced = compileRequest({ ...base, vehicle_fixed_costs: [7, 9] }).problem;
    expect(priced.objective).to.equal("cost");
    expect(Array.from(priced.fixedCost)).to.deep.equal([7, 9]);
    expect(compileRequest({ ...base, objective: "min_total_cost" }).problem.minVehicles).to.equal(undefined);
  });

  it("window insertion: the segments' cheapest feasible position is the evaluator's (property)", () => {
    let compared = 0;
    fc.assert(
      fc.property(arbitraryRequest(9), fc.integer({ min: 0, max: 1_000_000 }), (request, pick) => {
        const { problem } = compileRequest(request);
        fc.pre(windowsOnly(problem));
        const customers = Array.from(problem.customers);
        const c = customers[pick % customers.length]!;
        const route = customers.filter((x, i) => x !== c && (pick >> i) % 2 === 0);
        const v = pick % problem.vehicleCount;
        let cheapest = Number.POSITIVE_INFINITY;
        for (let at = 0; at <= route.length; at++) {
          const score = evaluateRoute(problem, v, [...route.slice(0, at), c, ...route.slice(at)]);
          if (score.feasible || score.capacityExcess > 0) {
            const ignoringLoad = score.lateMinutes === 0 && score.durationExcessMin <= 1e-9;
            if (ignoringLoad) cheapest = Math.min(cheapest, score.cost);
          }
        }
        const found = cheapestWindowPosition(problem, v, route, c);
        compared++;
        if (cheapest === Number.POSITIVE_INFINITY) expect(found).to.equal(null);
        else expect(found?.cost).to.be.closeTo(cheapest, 1e-6 * Math.max(1, cheapest));
      }),
      { numRuns: 300 },
    );
    expect(compared).to.be.greaterThan(20);
  });

  it("route elimination: always a feasible plan with at most the routes it started from (property, evaluator)", () => {
    fc.assert(
      fc.property(fewestRequest(8), (request) => {
        const { problem } = compileRequest(request);
        const start = restoreFeasibility(problem, Budget.forSeconds(1));
        fc.pre(start !== null);
        const removed: Solution[] = [];
        const fewer = eliminateRoutes(
          problem,
          start!,
          new Rng(3),
          () => false,
          (plan) => removed.push(plan),
        );
        const score = evaluateSolution(problem, fewer);
        expect(score.feasible, "feasible by the evaluator").to.equal(true);
        expect(nonEmpty(fewer)).to.be.at.most(nonEmpty(start!));
        // Each plan reported on the way has a route fewer than the one before, and the last is the answer's.
        let routes = nonEmpty(start!);
        for (const plan of removed) {
          expect(evaluateSolution(problem, plan).feasible, "a reported plan").to.equal(true);
          expect(nonEmpty(plan)).to.equal(routes - 1);
          routes--;
        }
        expect(routes).to.equal(nonEmpty(fewer));
      }),
      { numRuns: 25 },
    );
  });

  it("solves tiny problems to the fewest vehicles of exhaustive search, checked independently (property)", () => {
    fc.assert(
      fc.property(fewestRequest(5), (request) => {
        const { problem } = compileRequest(request);
        fc.pre(problem.vehicleCount <= 3);
        const optimum = hierarchicalOptimum(problem);
        fc.pre(optimum !== null);
        const outcome = solveRequest({ ...request, time_limit_seconds: 1 }, { requestId: "fewest", timeLimitSeconds: 1 });
        expect(outcome.status).to.equal("solved");
        if (outcome.status !== "solved") return;
        const result = outcome.result as never;
        const used = checkFewestVehicles(request as never, result, optimum!.vehicles);
        expect(used, "as few vehicles as exhaustive search").to.equal(optimum!.vehicles);
        if (!request.node_time_windows && !request.vehicle_fixed_costs) checkDistanceResult(request as never, result);
        if (identicalFleet(request)) expect(outcome.result.total_cost).to.be.closeTo(optimum!.cost, 1e-6 * Math.max(1, optimum!.cost));
      }),
      { numRuns: 25 },
    );
  });

  it("solves examples/fewest-vehicles.json with one vehicle (it fits one: load 10 of 10, back at minute 108)", () => {
    const example = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "fewest-vehicles.json"), "utf8")) as SolveRequestInput;
    const outcome = solveRequest(example, { requestId: "example", timeLimitSeconds: 1 });
    if (outcome.status !== "solved") throw new Error("not solved");
    expect(checkFewestVehicles(example as never, outcome.result as never, 1)).to.equal(1);
  });

  it("moves a route to a roomier unused vehicle when the routes left lack the room (mixed fleet)", () => {
    // The plan found first serves 3 and 2 from vehicle 1's own depot (capacity 9, load 7) and 4
    // on vehicle 2: only the unused vehicle 0 (capacity 13) carries all three.
    const request: SolveRequestInput = {
      objective: "min_vehicles",
      node_num: 5,
      vehicle_num: 3,
      distance_matrix: [
        [0, 58, 91, 38, 26],
        [62, 0, 42, 50, 52],
        [92, 51, 0, 50, 75],
        [42, 50, 40, 0, 23],
        [25, 49, 70, 19, 0],
      ],
      start_nodes: [0, 1, 0],
      end_nodes: [0, 1, 0],
      node_demands: [0, 0, 5, 2, 3],
      vehicles_capacity: [13, 9, 6],
      vehicle_fixed_costs: [42, 24, 1],
      vehicle_unit_distance_costs: [0.9, 0.6, 1.1],
      time_limit_seconds: 1,
    };
    const outcome = solveRequest(request, { requestId: "roomier", timeLimitSeconds: 1 });
    if (outcome.status !== "solved") throw new Error("not solved");
    expect(checkFewestVehicles(request as never, outcome.result as never, 1)).to.equal(1);
    expect(Object.keys(outcome.result.routes)).to.deep.equal(["Vehicle 0"]);
  });

  it("takes one vehicle where the shortest plan takes two", () => {
    // Two customers 10 from the depot and 100 from each other (a river between them): two
    // vehicles drive 40, one drives 120.
    const request: SolveRequestInput = {
      objective: "min_vehicles",
      node_num: 3,
      vehicle_num: 3,
      distance_matrix: [
        [0, 10, 10],
        [10, 0, 100],
        [10, 100, 0],
      ],
      start_nodes: [0, 0, 0],
      end_nodes: [0, 0, 0],
      node_demands: [0, 1, 1],
      vehicles_capacity: [10, 10, 10],
      time_limit_seconds: 1,
    };
    const outcome = solveRequest(request, { requestId: "one", timeLimitSeconds: 1 });
    if (outcome.status !== "solved") throw new Error("not solved");
    expect(checkFewestVehicles(request as never, outcome.result as never, 1)).to.equal(1);
    expect(outcome.result.total_cost).to.be.closeTo(120, 1e-9);
    expect(outcome.result.vehicles_used, "the first figure of the objective, in the result").to.equal(1);
    const shortest = solveRequest({ ...request, objective: "min_total_distance" }, { requestId: "two", timeLimitSeconds: 1 });
    if (shortest.status !== "solved") throw new Error("not solved");
    expect(Object.values(shortest.result.routes).filter((r) => r.length > 2)).to.have.length(2);
    expect(shortest.result, "only min_vehicles reports the count").to.not.have.property("vehicles_used");
  });
});
