import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import { restoreFeasibility } from "../../strategies/core/feasibility.js";
import { Workspace } from "../../strategies/core/workspace.js";
import { squeeze } from "../../strategies/search/squeeze.js";
import { windowsOnly } from "../../strategies/search/window-insertion.js";
import { arbitraryRequest } from "./random-problems.js";

const sorted = (xs: readonly number[]) => xs.slice().sort((a, b) => a - b);

describe("squeeze (route elimination)", () => {
  it("places the customer with every route feasible by the evaluator, or leaves the plan as it was (property)", () => {
    let squeezed = 0;
    let refused = 0;
    fc.assert(
      fc.property(arbitraryRequest(9), fc.integer({ min: 0, max: 1_000_000 }), (request, pick) => {
        const { problem } = compileRequest(request);
        fc.pre(windowsOnly(problem));
        const start = restoreFeasibility(problem, Budget.forSeconds(1));
        fc.pre(start !== null);
        const used = start!.routes.flatMap((r, v) => (r.length > 0 ? [v] : []));
        fc.pre(used.length >= 2);
        // One route's customers leave; the squeeze places its last one in the other routes.
        const gone = used[pick % used.length]!;
        const open = used.filter((v) => v !== gone);
        const ws = new Workspace(problem, start!);
        for (const c of ws.routes[gone]!.slice()) ws.remove(c);
        const c = ws.unassigned[ws.unassigned.length - 1]!;
        const before = ws.solution();
        const pool = ws.unassigned.slice();
        if (squeeze(ws, c, open)) {
          squeezed++;
          expect(ws.routeOf[c]).to.be.oneOf(open);
          expect(ws.unassigned).to.deep.equal(pool.slice(0, -1));
          for (const v of open) expect(evaluateRoute(problem, v, ws.routes[v]!).feasible, `route ${v}`).to.equal(true);
          for (const v of open) for (const u of ws.routes[v]!) expect(ws.routeOf[u]).to.equal(v);
          const placed = open.flatMap((v) => ws.routes[v]!);
          const placedBefore = open.flatMap((v) => before.routes[v]!);
          expect(sorted(placed)).to.deep.equal(sorted([...placedBefore, c]));
        } else {
          refused++;
          expect(ws.solution()).to.deep.equal(before);
          expect(ws.unassigned).to.deep.equal(pool);
        }
      }),
      { numRuns: 300 },
    );
    expect(squeezed, "squeezes that placed the customer").to.be.greaterThan(0);
    expect(refused, "squeezes that gave up").to.be.greaterThan(0);
  });
});
