import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Pieces } from "../../strategies/search/pieces.js";
import { Routes } from "../../strategies/search/routes.js";
import { loadArb, loadInstance } from "./load-problems.js";

/**
 * routes.ts basePrice with a limit skips the order and load walks when fixed + unit x distance
 * already reaches the limit. The moves only compare its answer with the limit, so it must be the
 * full base price, or a lower bound of it that is itself at or above the limit.
 */
describe("route model: base price with a limit", function () {
  this.timeout(120_000);

  it("is the full base price, or a lower bound of it at or above the limit", () => {
    let cut = 0;
    let full = 0;
    fc.assert(
      fc.property(loadArb("hard", 14), fc.double({ min: 0, max: 2, noNaN: true }), (o, share) => {
        const { problem: p } = compileRequest(loadInstance(o));
        const m = buildProblemData(p);
        const rng = new Rng(o.seed);
        const rs = new Routes(m);
        // Random routes (order rules may break: such candidates price Infinity, as the moves see them).
        const lists: number[][] = Array.from({ length: m.routes }, () => []);
        for (const c of m.customers) lists[rng.int(m.routes)]!.push(c);
        rs.loadRoutes(lists);
        for (let r = 0; r < m.routes; r++) {
          const len = rs.length[r]!;
          if (len < 2) continue;
          // A move within the route: position i's customer after position j (a middle piece).
          const i = 1 + rng.int(len);
          const j = rng.int(len + 1);
          if (j === i || j === i - 1) continue;
          const pieces = new Pieces();
          if (j > i)
            pieces
              .add(r, 1, i - 1)
              .add(r, i + 1, j)
              .add(r, i, i)
              .add(r, j + 1, len);
          else
            pieces
              .add(r, 1, j)
              .add(r, i, i)
              .add(r, j + 1, i - 1)
              .add(r, i + 1, len);
          const exact = rs.candidates.basePrice(r, pieces);
          const limit = share * rs.cost[r]!;
          const bounded = rs.candidates.basePrice(r, pieces, false, limit);
          if (bounded === exact) full++;
          else {
            cut++;
            expect(bounded).to.be.at.least(limit);
            expect(bounded).to.be.at.most(exact);
          }
        }
      }),
      { numRuns: 150, seed: 22 },
    );
    expect(cut, "some candidates stopped at the limit").to.be.greaterThan(0);
    expect(full, "some priced in full").to.be.greaterThan(0);
  });
});
