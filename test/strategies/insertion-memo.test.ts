import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { InsertionMemo } from "../../strategies/core/insertion-memo.js";
import { Rng } from "../../strategies/core/rng.js";
import { Workspace } from "../../strategies/core/workspace.js";
import { arbitraryRequest } from "./random-problems.js";

describe("InsertionMemo", () => {
  it("ranks every pending customer's insertions as Workspace.bestInsertions does, insertion after insertion", () => {
    fc.assert(
      fc.property(arbitraryRequest(14), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 1000 }), (req, k, seed) => {
        const { problem } = compileRequest(req);
        const ws = new Workspace(problem);
        const rng = new Rng(seed);
        const pending = ws.unassigned.slice();
        const memo = new InsertionMemo(ws, pending);
        while (pending.length > 0) {
          for (const c of pending) expect(memo.bestInsertions(c, k)).to.deep.equal(ws.bestInsertions(c, k));
          // Insert a random pending customer at its best place (or drop it when it fits nowhere).
          const i = Math.floor(rng.next() * pending.length);
          const c = pending[i]!;
          pending.splice(i, 1);
          const best = ws.bestInsertions(c, 1)[0];
          if (!best) continue;
          ws.insert(c, best.vehicle, best.position);
          memo.forget(best.vehicle);
        }
      }),
      { numRuns: 150 },
    );
  });
});
