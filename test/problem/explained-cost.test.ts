import { expect } from "chai";
import fc from "fast-check";
import { compileRequest, requestDistance } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { findStrategy } from "../../strategies/registry.js";
import { arbitraryRequest } from "../strategies/random-problems.js";

const close = (x: number, y: number, what: string) => expect(x, what).to.be.closeTo(y, 1e-6 * Math.max(1, Math.abs(y)));

/** The explained cost and the infeasibility pre-check on random requests with every feature on, without the service around them. */
describe("route_details and the infeasibility pre-check on random requests", function () {
  this.timeout(60_000);

  it("breaks every solved route's cost and duration into parts that add up (and the routes up to total_cost)", () => {
    let solved = 0;
    fc.assert(
      fc.property(arbitraryRequest(8), (request) => {
        const outcome = solveRequest(request, { requestId: "p", timeLimitSeconds: 5, seed: 3, maxIterations: 100, strategy: "alns" });
        if (outcome.status !== "solved") return;
        solved++;
        const r = outcome.result;
        expect(Object.keys(r.route_details)).to.deep.equal(Object.keys(r.routes));
        let sum = 0;
        Object.entries(r.route_details).forEach(([label, d], k) => {
          close(d.fixed_cost + d.distance_cost + d.lateness_penalty, d.cost, `${label} cost`);
          expect(d.distance).to.equal(r.distances[k]);
          expect(d.load).to.equal(r.loads[label]!.at(-1));
          expect(d.load).to.be.at.most(d.capacity + 1e-9);
          if (d.duration_minutes !== null) {
            close(d.driving_minutes! + d.waiting_minutes! + d.service_minutes!, d.duration_minutes, `${label} duration`);
            expect(d.waiting_minutes).to.be.at.least(0);
            if (d.max_duration_minutes !== null) expect(d.duration_minutes).to.be.at.most(d.max_duration_minutes + 1e-6);
          }
          close(
            d.late_stops.reduce((s, x) => s + x.penalty, 0),
            d.lateness_penalty,
            `${label} late stops`,
          );
          sum += d.cost;
        });
        close(sum, r.total_cost, "sum of the routes' cost");
        expect(Number.isInteger(r.seed) && r.seed === 3).to.equal(true);
        expect(r.iterations).to.be.at.most(100);
      }),
      { numRuns: 60, seed: 13 },
    );
    expect(solved).to.be.greaterThan(20);
  });

  it("never claims an infeasibility where the search, run without the pre-check, finds a feasible solution", () => {
    let proven = 0;
    let feasible = 0;
    fc.assert(
      fc.property(arbitraryRequest(8), (request) => {
        const { problem } = compileRequest(request);
        const found = infeasibilities(problem);
        // The API's pre-check, which reads distances on demand instead of compiling the matrix, agrees.
        expect(infeasibilities(compileRequest(request, { withDistances: false }).problem, requestDistance(request))).to.deep.equal(found);
        const solution = findStrategy("alns").solve(problem, Budget.forSeconds(5, 1, 150));
        if (evaluateSolution(problem, solution).feasible) {
          feasible++;
          expect(found, JSON.stringify(request)).to.deep.equal([]);
        }
        if (found.length === 0) return;
        proven++;
        // A task fails with exactly the proven list: the same objects validate reports.
        const outcome = solveRequest(request, { requestId: "p", timeLimitSeconds: 5 });
        expect(outcome.status).to.equal("failed");
        if (outcome.status === "failed") {
          expect(outcome.infeasibilities).to.deep.equal(found);
          expect(outcome.diagnostics).to.deep.equal(found.map((f) => f.message));
        }
      }),
      { numRuns: 80, seed: 29 },
    );
    expect(proven).to.be.greaterThan(0);
    expect(feasible).to.be.greaterThan(20);
  });
});
