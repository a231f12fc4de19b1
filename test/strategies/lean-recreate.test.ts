import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Rng } from "../../strategies/core/rng.js";
import { IdenticalVehiclesRecreate } from "../../strategies/ils/identical-vehicles-recreate.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { STRINGS_PERTURBATION } from "../../strategies/settings.js";
import { modelOf, penaltyArb, prizeArb, prizeProblem, scratchTotal } from "./prize-problems.js";

/** Two optional customers on a line from the depot, at 10 and 11, worth `prize` each; one vehicle. */
function twoOnALine(prize: number): SolveRequestInput {
  const pos = [0, 10, 11];
  return {
    objective: "min_total_distance",
    node_num: 3,
    vehicle_num: 1,
    distance_matrix: pos.map((a) => pos.map((b) => Math.abs(a - b))),
    start_nodes: [0],
    end_nodes: [0],
    node_demands: [0, 1, 1],
    vehicles_capacity: [10],
    node_skip_penalties: [null, prize, prize],
  };
}

describe("the lean recreate of optional customers (ils/identical-vehicles-recreate.ts margin)", function () {
  this.timeout(120_000);

  it("puts an optional customer back only where its place costs less than the margin's share of its skip price", () => {
    const { problem: p } = compileRequest(twoOnALine(30));
    const m = modelOf(p);
    const place = (margin: number) => {
      const ls = LocalSearch.identicalVehicles(m);
      ls.loadRoutes([]);
      new IdenticalVehiclesRecreate(ls, "anywhere").recreate(new Rng(1), [1, 2], false, true, margin);
      return ls.routes().flat().sort();
    };
    // At the full price (30) the first customer opens the route (20 or 22 out and back), the other follows.
    expect(place(1)).to.deep.equal([1, 2]);
    // At 0.5 (15) the route's first customer, whichever it is, is too dear: neither goes in.
    expect(place(0.5)).to.deep.equal([]);
    // At 0.75 (22.5) either goes in first (20 or 22), and the other then costs 2 or nothing.
    expect(place(0.75)).to.deep.equal([1, 2]);
  });

  it("keeps the search's total exact through lean perturbations, leaving out only optional customers", () => {
    let leftOut = 0;
    fc.assert(
      fc.property(prizeArb(4), penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(prizeProblem({ ...o, customers: o.customers + 10 }));
        const m = modelOf(p);
        if (p.time !== null && m.windows === null) return;
        const ls = LocalSearch.identicalVehicles(m);
        ls.penalties = pen;
        ls.loadRoutes([]);
        const ruin = new IdenticalVehiclesRuin(ls, { ...STRINGS_PERTURBATION, leanRecreate: true });
        const rng = new Rng(o.seed);
        ruin.reinsert(rng, Array.from(m.customers));
        for (let round = 0; round < 6; round++) {
          ruin.perturb(rng);
          const routes = ls.routes();
          const flat = routes.flat();
          expect(new Set(flat).size).to.equal(flat.length);
          for (const c of m.customers)
            if (!flat.includes(c)) {
              expect(m.skipPrice![c]).to.not.equal(Number.POSITIVE_INFINITY);
              leftOut++;
            }
          expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, routes), 1e-6 * Math.max(1, ls.totalCost()));
        }
      }),
      { numRuns: 40, seed: 48 },
    );
    expect(leftOut).to.be.greaterThan(0);
  });
});
