import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateAnswer } from "../../strategies/core/answer-evaluation.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { exact } from "../../strategies/exact/index.js";
import { hgs } from "../../strategies/hgs/index.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { relocateGroups } from "../../strategies/search/moves/group-relocate.js";
import { Routes } from "../../strategies/search/routes.js";
import { validLists } from "./load-problems.js";
import { scratchVisitCost, visitArb, visitInstance } from "./visit-problems.js";

/** Seven nodes: a ride-limited shipment 3 -> 4, food at 1 and 5, bleach at 2, group {5, 6}. */
function smallRequest() {
  return {
    node_num: 7,
    vehicle_num: 2,
    node_positions: [
      [0, 0],
      [10, 0],
      [20, 0],
      [0, 10],
      [0, 20],
      [10, 10],
      [5, 5],
    ],
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 0, 0, 1, 1],
    vehicles_capacity: [10, 10],
    node_time_windows: Array.from({ length: 7 }, () => [0, 1000]),
    node_service_time: [0, 5, 5, 5, 5, 5, 5],
    vehicle_speeds: [1, 1],
    shipments: [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 20 }],
    node_load_types: [null, "food", "bleach", null, null, "food", null],
    incompatible_load_types: [["food", "bleach"]],
    same_vehicle_groups: [[5, 6]],
  };
}

describe("visit rules: ride-time limits, incompatible goods, same-vehicle groups (evaluate-visits.ts, route-visits.ts)", function () {
  this.timeout(300_000);

  it("the evaluator finds ride excess, conflicting legs and split groups, and the answer names each", () => {
    const { problem: p } = compileRequest(smallRequest());
    const ok = evaluateSolution(p, {
      routes: [
        [1, 5, 6],
        [3, 4, 2],
      ],
    });
    expect(ok.feasible).to.equal(true);
    const bad = evaluateSolution(p, {
      routes: [
        [1, 2],
        [3, 5, 4, 6],
      ],
    });
    expect(bad.feasible).to.equal(false);
    // 3 -> 5 -> 4: service at 3 ends at 15, 4 is reached at 15 + 10 + 5 + 14.14: a ride of 29.14 against 20.
    expect(bad.routes[1]!.rideExcessMin).to.be.closeTo(10 + 5 + 10 * Math.SQRT2 - 20, 1e-6);
    expect(bad.routes[0]!.conflictLegs, "food and bleach leave the depot together").to.equal(1);
    const split = evaluateSolution(p, {
      routes: [
        [1, 5],
        [6, 3, 4, 2],
      ],
    });
    expect(split.feasible).to.equal(false);
    expect(split.splitGroups).to.deep.equal([0]);
    const answer = evaluateAnswer(p, {
      routes: [
        [1, 2],
        [3, 5, 4, 6],
      ],
    });
    expect(answer.routes[1]!.visits!.rides).to.have.length(1);
    expect(answer.routes[0]!.visits!.conflicts[0]!.nodes).to.deep.equal([1, 2]);
    expect(answer.groups).to.deep.equal([]);
  });

  it("a pickup's goods ride from its stop to the end, a delivery's from the start: they conflict only when their legs overlap", () => {
    const req = {
      ...smallRequest(),
      shipments: [],
      node_demands: [0, 1, 0, 0, 0, 0, 0],
      node_pickups: [0, 0, 1, 0, 0, 0, 0],
      same_vehicle_groups: [],
    };
    const { problem: p } = compileRequest(req);
    // Delivery of food (1) then pickup of bleach (2): never on board together.
    expect(evaluateSolution(p, { routes: [[1, 2], []] }).routes[0]!.conflictLegs).to.equal(0);
    // Pickup of bleach first: it rides while the food is still on board, on the leg to node 1.
    expect(evaluateSolution(p, { routes: [[2, 1], []] }).routes[0]!.conflictLegs).to.equal(1);
  });

  it("prices every applied move, ruin and recreate, and a group moved as one block as the evaluator does", () => {
    let commits = 0;
    fc.assert(
      fc.property(
        fc.oneof(visitArb("none", 10), visitArb("hard", 10), visitArb("soft", 10)),
        fc.record({
          load: fc.double({ min: 0.1, max: 50, noNaN: true }),
          duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
          timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
          distance: fc.constant(1),
          stops: fc.constant(1),
        }),
        (o, pen) => {
          const { problem: p } = compileRequest(visitInstance(o));
          if (!p.visits || !p.loads) return;
          const rs = new Routes(buildProblemData(p));
          rs.penalties = pen;
          const rng = new Rng(o.seed);
          rs.loadRoutes(validLists(p, rng));
          const total = () => rs.routes().reduce((sum, r, v) => sum + scratchVisitCost(p, v, pen, r), 0);
          expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, total()));
          const ls = LocalSearch.perVehicle(rs);
          ls.onCommit = (predicted, ra, rb) => {
            commits++;
            const now = rs.routes();
            const actual = scratchVisitCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchVisitCost(p, rb, pen, now[rb]!) : 0);
            expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, actual));
          };
          ls.run(rng);
          ls.onCommit = null;
          recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(p.customers.length), true));
          expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, total()));
          // A group moved as one block is kept only when the routes it touches cost less.
          const before = rs.totalCost();
          relocateGroups(rs);
          expect(rs.totalCost()).to.be.at.most(before + 1e-9 * Math.max(1, before));
          expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, total()));
        },
      ),
      { numRuns: 60 },
    );
    expect(commits).to.be.greaterThan(50);
  });

  it("moves a split group as one block onto one vehicle, at a lower price by the route model", () => {
    // Customers 1 and 2 sit together, on two vehicles: the split costs a penalty on both routes.
    const { problem: p } = compileRequest({
      node_num: 4,
      vehicle_num: 2,
      node_positions: [
        [0, 0],
        [10, 0],
        [11, 0],
        [0, 10],
      ],
      distance_matrix: [],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: [0, 1, 1, 1],
      vehicles_capacity: [5, 5],
      same_vehicle_groups: [[1, 2]],
    } as never);
    const rs = new Routes(buildProblemData(p));
    rs.penalties = { load: 10, duration: 10, timeWarp: 10, distance: 1, stops: 1 };
    rs.loadRoutes([[1, 3], [2]]);
    const before = rs.totalCost();
    expect(relocateGroups(rs), "a group moved").to.equal(true);
    const [a, b] = rs.routes();
    expect(
      [a, b].some((r) => r!.includes(1) && r!.includes(2)),
      "1 and 2 on one vehicle",
    ).to.equal(true);
    expect(rs.totalCost()).to.be.lessThan(before);
    expect(rs.totalCost()).to.be.closeTo(
      rs.routes().reduce((sum, r, v) => sum + scratchVisitCost(p, v, rs.penalties, r), 0),
      1e-6,
    );
  });

  it("never fails when the exhaustive search finds a feasible plan (5-7 stops), and never splits a group", () => {
    let feasibleCases = 0;
    fc.assert(
      fc.property(
        fc.oneof(visitArb("none", 6), visitArb("hard", 6), visitArb("soft", 6)).filter((o) => o.customers >= 5 && o.types <= 2),
        (o) => {
          const { problem: p } = compileRequest(visitInstance(o));
          if (!exact.supports(p).ok || !hgs.supports(p).ok) return;
          const best = exact.solve(p, new Budget(performance.now() + 10_000, o.seed));
          if (!evaluateSolution(p, best).feasible) return;
          feasibleCases++;
          const found = hgs.solve(p, new Budget(performance.now() + 2_000, o.seed, 400));
          const score = evaluateSolution(p, found);
          expect(score.feasible, `hgs answers a feasible plan: ${JSON.stringify(found.routes)}`).to.equal(true);
          expect(score.splitGroups ?? []).to.deep.equal([]);
        },
      ),
      { numRuns: 60 },
    );
    expect(feasibleCases, "instances with a feasible plan were tried").to.be.greaterThan(5);
  });
});
