import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import { WindowRoute, windowsOnly } from "../../strategies/search/window-insertion.js";
import { arbitraryRequest } from "./random-problems.js";

describe("window route (route elimination's time segments)", () => {
  it("prices an insertion after ejecting none, one or two customers as the evaluator does (property)", () => {
    let placed = 0;
    let refused = 0;
    fc.assert(
      fc.property(arbitraryRequest(10), fc.integer({ min: 0, max: 1_000_000 }), fc.nat(), fc.nat(), (request, pick, a, b) => {
        const { problem } = compileRequest(request);
        fc.pre(windowsOnly(problem));
        const customers = Array.from(problem.customers);
        const c = customers[pick % customers.length]!;
        const route = customers.filter((x, i) => x !== c && (pick >> i) % 2 === 0);
        const v = pick % problem.vehicleCount;
        // -1 (none) or a customer index of the route.
        const skipA = route.length > 0 ? (a % (route.length + 1)) - 1 : -1;
        const skipB = route.length > 0 ? (b % (route.length + 1)) - 1 : -1;
        const rest = route.filter((_, k) => k !== skipA && k !== skipB);
        const built = new WindowRoute().build(problem, v, route, skipA, skipB);
        const restScore = evaluateRoute(problem, v, rest);
        // An empty route is an unused vehicle to the evaluator (no distance); the segments still drive it.
        if (rest.length > 0) {
          expect(built.feasible(), "the route without the ejected").to.equal(restScore.feasible);
          expect(built.distance).to.be.closeTo(restScore.distance, 1e-6 * Math.max(1, restScore.distance));
        }

        let cheapest = Number.POSITIVE_INFINITY;
        for (let at = 0; at <= rest.length; at++) {
          const score = evaluateRoute(problem, v, [...rest.slice(0, at), c, ...rest.slice(at)]);
          if (score.feasible) cheapest = Math.min(cheapest, score.distance);
        }
        const found = built.cheapest(c);
        if (cheapest === Number.POSITIVE_INFINITY) {
          refused++;
          expect(found).to.equal(null);
          return;
        }
        placed++;
        expect(found).to.not.equal(null);
        expect(built.distance + found!.added).to.be.closeTo(cheapest, 1e-6 * Math.max(1, cheapest));
        const chosen = [...rest.slice(0, found!.position), c, ...rest.slice(found!.position)];
        const score = evaluateRoute(problem, v, chosen);
        expect(score.feasible, "the chosen position").to.equal(true);
        expect(score.distance).to.be.closeTo(cheapest, 1e-6 * Math.max(1, cheapest));
      }),
      { numRuns: 400 },
    );
    expect(placed, "insertions found").to.be.greaterThan(20);
    expect(refused, "insertions refused").to.be.greaterThan(5);
  });
});
