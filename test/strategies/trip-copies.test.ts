import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { hgs } from "../../strategies/hgs/index.js";
import { copiesBack, copiesOf, expandTrips } from "../../strategies/search/trip-copies.js";
import { star } from "./trip-problems.js";

describe("reload copies of the search's problem (trip-copies.ts)", () => {
  it("gives each reloading vehicle copies of its reload node, optional at price 0 and allowed on it alone", () => {
    const p = compileRequest(star({ vehicle_max_reloads: [2, null] })).problem;
    const q = expandTrips(p);
    const copies = Array.from(q.trips!.reloadNodes[0]!);
    expect(copies).to.deep.equal([7, 8]);
    expect(q.trips!.reloadNodes[1]!.length).to.equal(0);
    expect(Array.from(q.trips!.copyOf!.subarray(7))).to.deep.equal([0, 0]);
    expect(q.rules!.skipPenalty[7]).to.equal(0);
    expect(q.rules!.skipPenalty[1]).to.equal(Number.POSITIVE_INFINITY);
    expect([q.rules!.allowed![0 * 9 + 7], q.rules!.allowed![1 * 9 + 7]]).to.deep.equal([1, 0]);
    expect(q.dist[7 * 9 + 3]).to.equal(p.dist[0 * 7 + 3]);
    // Without a limit: the fleet's trips for its demand (12 / 8: 2) plus a spare one.
    expect(expandTrips(compileRequest(star()).problem).trips!.reloadNodes[0]!.length).to.equal(3);
  });

  it("maps copies back to the reload node and drops reload stops that change nothing", () => {
    // Capacity 2: six trips for the fleet's demand, so vehicle 0 has four copies.
    const p = compileRequest(star({ vehicles_capacity: [2, 2] })).problem;
    const q = expandTrips(p);
    const [a, b, c, d] = Array.from(q.trips!.reloadNodes[0]!);
    const back = copiesBack(p, q, { routes: [[a!, 1, 2, b!, c!, 3, d!], [4]] });
    expect(back.routes).to.deep.equal([[1, 2, 0, 3], [4]]);
    expect(copiesBack(p, q, { routes: [[a!, b!], []] }).routes).to.deep.equal([[], []]);
    expect(
      copiesOf(p, q, {
        routes: [
          [1, 0, 2, 0, 3],
          [4, 0, 5],
        ],
      }).routes,
    ).to.deep.equal([
      [1, a, 2, b, 3],
      [4, 5],
    ]);
  });

  it("lets hgs plan several trips: one vehicle serves all six customers in three trips of capacity 4", () => {
    const p = compileRequest(
      star({ vehicle_num: 1, start_nodes: [0], end_nodes: [0], vehicles_capacity: [4], vehicle_reload_nodes: [[0]] }),
    ).problem;
    const s = hgs.solve(p, Budget.forSeconds(1, 1, 300));
    const score = evaluateSolution(p, s);
    expect(score.feasible).to.equal(true);
    expect(s.routes[0]!.filter((c) => c === 0)).to.have.length(2);
    expect(score.routes[0]!.reloads).to.equal(2);
    // The optimum: each pair of neighbours on a trip of its own.
    expect(score.cost).to.be.closeTo(3 * (10 + Math.hypot(2, 3) + Math.hypot(12, 3)), 1e-9);
  });
});
