import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { withoutDust } from "../../src/problem/message-numbers.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { judgeSolution } from "../../src/problem/route-rules.js";
import { solveRequest, type SolveOutcome } from "../../src/problem/solve-request.js";
import { defaultReassignmentCost } from "../../src/problem/stability-price.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { improveFleetUse } from "../../strategies/search/moves/vehicle-change.js";
import { PerVehiclePricing } from "../../strategies/search/pricing/per-vehicle.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance } from "./fleet-problems.js";
import { twoLockedRoutes, withRandomPlan } from "./replan-problems.js";

type Solved = Extract<SolveOutcome, { status: "solved" }>["result"];

function solved(outcome: SolveOutcome): Solved {
  expect(outcome.status, outcome.status === "failed" ? outcome.error : "").to.equal("solved");
  return (outcome as Extract<SolveOutcome, { status: "solved" }>).result;
}

const solve = (req: SolveRequestInput, seed: number, maxIterations: number) =>
  solveRequest(req, { requestId: "reassignment", timeLimitSeconds: 20, seed, maxIterations });

/**
 * Depot 0; vehicle 0 serves 1 and 2, vehicle 1 serves 3 and 4 in the given plan. Stop 3 lies
 * between 1 and 2: moving it to vehicle 0 saves about 6.9 of distance, and nothing else pays.
 */
function twoRoutes(reassignmentCost: number): SolveRequestInput {
  return {
    node_num: 5,
    vehicle_num: 2,
    node_positions: [
      [0, 0],
      [10, 0],
      [10, 2],
      [10, 1],
      [10, -10],
    ],
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1, 1],
    vehicles_capacity: [3, 3],
    initial_routes: [
      [1, 2],
      [3, 4],
    ],
    reassignment_cost: reassignmentCost,
  } as SolveRequestInput;
}

describe("the reassignment cost: stops keep their vehicle unless moving pays more than the price", function () {
  this.timeout(300_000);

  it("moves a stop when the saving exceeds the price, and keeps it when it does not", () => {
    const cheap = solved(solve(twoRoutes(1), 1, 200));
    expect(cheap.reassigned_stops).to.deep.equal([{ node: 3, previous_vehicle: 1, vehicle: 0 }]);
    expect(cheap.reassignment_cost_total).to.equal(1);
    expect(cheap.route_details["Vehicle 0"]!.reassignment_cost).to.equal(1);
    checkDistanceResult(twoRoutes(1) as never, cheap as never);

    const dear = solved(solve(twoRoutes(25), 1, 200));
    expect(dear.reassigned_stops).to.deep.equal([]);
    expect(dear.reassignment_cost_total).to.equal(0);
    expect(dear.total_cost).to.be.closeTo(cheap.total_cost - 1 + 6.9, 0.1);
    checkDistanceResult(twoRoutes(25) as never, dear as never);
  });

  it("prices the moved stops in total_cost and route_details, as the evaluator and an independent checker count them", () => {
    let moved = 0;
    let checked = 0;
    fc.assert(
      fc.property(
        fleetArb("none", 14),
        fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: 0.1, max: 30, noNaN: true }),
        (o, seed, price) => {
          // The independent checker recomputes distance-objective costs.
          const planned = withRandomPlan(fleetInstance({ ...o, cost: false }), seed);
          const req = { ...planned, vehicle_locked_stops: undefined, reassignment_cost: price } as SolveRequestInput;
          const p = compileRequest(req).problem;
          const outcome = solve(req, seed, 60);
          // Random fleets are sometimes too small for their customers: those prove nothing here.
          fc.pre(outcome.status === "solved");
          const result = solved(outcome);
          checked++;
          const routes = Array.from({ length: req.vehicle_num }, (_, v) => (result.routes[`Vehicle ${v}`] ?? [0, 0]).slice(1, -1));
          const score = evaluateSolution(p, { routes });
          expect(judgeSolution(p, { routes }, score).feasible).to.equal(true);
          expect(result.total_cost).to.equal(withoutDust(score.cost));
          const details = Object.values(result.route_details).reduce((sum, r) => sum + (r.reassignment_cost ?? 0), 0);
          expect(details).to.be.closeTo(result.reassignment_cost_total!, 1e-6 * Math.max(1, details));
          checkDistanceResult(req as never, result as never);
          moved += result.reassigned_stops!.length;
        },
      ),
      { numRuns: 25, seed: 21 },
    );
    expect(checked, "feasible cases checked").to.be.greaterThan(12);
    expect(moved, "some stops moved, so the count is tested").to.be.greaterThan(0);
  });

  it("evaluates a given plan with no reassigned stops, and leaves the result without the fields when the price is 0", () => {
    const given = solved(solve({ ...twoRoutes(5), max_iterations: 0 } as SolveRequestInput, 1, 0));
    expect(given.reassigned_stops).to.deep.equal([]);
    expect(given.reassignment_cost_total).to.equal(0);
    const free = solved(solve(twoRoutes(0), 1, 200));
    expect(free).to.not.have.property("reassigned_stops");
    expect(free).to.not.have.property("reassignment_cost_total");
    expect(compileRequest(twoRoutes(0)).problem.reassignment ?? null).to.equal(null);
  });

  it("defaults, in a re-plan with locked stops, to keeping a stop whose move saves less than 6% of a stop's cost", () => {
    // twoLockedRoutes: the plan costs 11.5 a stop, so the default price is 0.69; a move saves 0.5.
    const request = twoLockedRoutes;
    expect(defaultReassignmentCost(compileRequest(request({})).problem, request({}))).to.be.closeTo(0.06 * 11.5, 1e-9);
    for (const seed of [1, 2]) {
      const kept = solved(solve(request({}), seed, 200));
      expect(kept.routes).to.deep.equal({ "Vehicle 0": [0, 1, 3, 0], "Vehicle 1": [0, 2, 4, 0] });
      // The price steers the search only: the answer's cost and fields are those of a request without it.
      expect(kept.total_cost).to.equal(46);
      expect(kept).to.not.have.property("reassigned_stops");
      checkDistanceResult(request({}) as never, kept as never);
      const free = solved(solve(request({ reassignment_cost: 0 }), seed, 200));
      expect(free.total_cost).to.equal(45.5);
    }
    // Without locked stops no price is assumed.
    const unlocked = request({ vehicle_locked_stops: undefined });
    expect(defaultReassignmentCost(compileRequest(unlocked).problem, unlocked)).to.equal(null);
  });

  it("moves a whole route back to the free vehicle its stops came from, or swaps two vehicles of one type", () => {
    // Three identical vehicles: their only difference is which stops the given plan had on each.
    const req = { ...twoRoutes(5), vehicle_num: 3, start_nodes: [0, 0, 0], end_nodes: [0, 0, 0], vehicles_capacity: [3, 3, 3] };
    req.initial_routes = [[1, 2], [3, 4], []];
    const p = compileRequest(req).problem;
    const m = buildProblemData(p);
    expect(m.typeSlots.length, "one type: the vehicles are alike but for their stops").to.equal(1);
    const rs = new Routes(m);
    const ls = new PerVehiclePricing(rs);
    let predicted = 0;
    ls.onCommit = (price: number) => (predicted += price);
    const plan = (routes: number[][]) => {
      rs.loadRoutes(routes);
      const before = rs.totalCost();
      expect(improveFleetUse(ls)).to.equal(true);
      return { before, after: rs.totalCost(), routes: rs.routes() };
    };
    const moved = plan([[], [3, 4], [1, 2]]);
    expect(moved.routes).to.deep.equal([[1, 2], [3, 4], []]);
    expect(moved.before - moved.after, "two stops back home").to.be.closeTo(10, 1e-9);
    expect(moved.after).to.be.closeTo(evaluateSolution(p, { routes: moved.routes }).cost, 1e-9);
    const swapped = plan([[3, 4], [1, 2], []]);
    expect(swapped.routes).to.deep.equal([[1, 2], [3, 4], []]);
    expect(swapped.before - swapped.after, "four stops back home").to.be.closeTo(20, 1e-9);
    expect(predicted).to.be.greaterThan(0);
    // At home already: nothing moves.
    rs.loadRoutes([[1, 2], [3, 4], []]);
    expect(improveFleetUse(ls)).to.equal(false);
  });
});
