import { expect } from "chai";
import fc from "fast-check";
import { generateRichXxl } from "../../bench/rich-xxl-instance.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { RouteRotation } from "../../strategies/decomposition/rotation.js";
import { extractSubProblem, liftRoutes } from "../../strategies/decomposition/subproblem.js";
import { large } from "../../strategies/large/index.js";
import { largeStart } from "../../strategies/large/start.js";
import { selectStrategy } from "../../strategies/select.js";
import { arbitraryRequest } from "./random-problems.js";
import { xxlFixture } from "../helpers/benchmark-fixtures.js";

describe("decomposition of rich problems: windows, several depots, mixed fleets", function () {
  this.timeout(120_000);

  it("scores every route of a sub-problem exactly as in the whole problem, and lifts the routes back unchanged", () => {
    fc.assert(
      fc.property(arbitraryRequest(12), fc.integer({ min: 1, max: 1e6 }), (request, seed) => {
        const p = compileRequest(request).problem;
        const rng = new Rng(seed);
        const routes: number[][] = Array.from({ length: p.vehicleCount }, () => []);
        for (const c of rng.shuffle(Array.from(p.customers))) routes[rng.int(p.vehicleCount)]!.push(c);
        const vehicles = rng.shuffle(Array.from({ length: p.vehicleCount }, (_, v) => v)).slice(0, 1 + rng.int(p.vehicleCount));
        const sub = extractSubProblem(
          p,
          vehicles,
          vehicles.map((v) => routes[v]!),
        );
        expect(liftRoutes(sub, sub.start)).to.deep.equal(vehicles.map((v) => routes[v]));
        vehicles.forEach((v, k) => {
          const whole = evaluateRoute(p, v, routes[v]!);
          const part = evaluateRoute(sub.problem, k, sub.start.routes[k]!);
          expect(part.cost).to.be.closeTo(whole.cost, 1e-9);
          expect(part.feasible).to.equal(whole.feasible);
          expect(part.lateMinutes).to.be.closeTo(whole.lateMinutes, 1e-9);
          expect(part.durationMin).to.be.closeTo(whole.durationMin, 1e-9);
          expect(part.capacityExcess).to.be.closeTo(whole.capacityExcess, 1e-9);
        });
      }),
      { numRuns: 400 },
    );
  });

  it("goes round the used routes: within a round no seed was covered before, and every used route is covered by the round's end", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 40 }), (seed, vehicles) => {
        const rng = new Rng(seed);
        const routes: number[][] = Array.from({ length: vehicles }, (_, v) => (rng.next() < 0.7 ? [v + 1] : []));
        const used = routes.flatMap((r, v) => (r.length > 0 ? [v] : []));
        const rotation = new RouteRotation(vehicles);
        for (let round = 0; round < 3; round++) {
          const covered = new Set<number>();
          // Groups of the seed and up to two random other routes, as a group picker would make.
          while (covered.size < used.length) {
            const next = rotation.next(routes, rng);
            expect(used).to.include(next);
            expect(covered.has(next), `round ${round}: ${next} seeded twice`).to.equal(false);
            expect(rotation.rounds, "rounds begun").to.equal(round + 1);
            const group = [next, ...rng.shuffle(used.slice()).slice(0, rng.int(3))];
            rotation.cover(group);
            group.forEach((v) => covered.add(v));
          }
        }
        if (used.length === 0) expect(rotation.next(routes, rng)).to.equal(-1);
      }),
      { numRuns: 300 },
    );
  });

  it("starts a multi-depot problem from per-depot savings: feasible, every customer once", () => {
    const { request } = generateRichXxl(xxlFixture("Leuven1"), 700, 3, 7);
    const p = compileRequest(request).problem;
    const score = evaluateSolution(p, largeStart(p));
    expect(score.missing).to.deep.equal([]);
    expect(score.duplicated).to.deep.equal([]);
    expect(score.feasible).to.equal(true);
  });

  it(
    "improves a 900-customer problem with windows, three depots and a mixed fleet: " +
      "feasible, cheaper than its start, every improvement reported",
    () => {
      const { request } = generateRichXxl(xxlFixture("Leuven1"), 900, 3, 3);
      const p = compileRequest(request).problem;
      expect(large.supports(p).ok).to.equal(true);
      const start = evaluateSolution(p, largeStart(p));
      // The first improvements come within about half a second; three leave room for a busy machine.
      const budget = Budget.forSeconds(3, 1);
      const reported: number[] = [];
      budget.onImprovement((s) => reported.push(evaluateSolution(p, s).cost));
      const score = evaluateSolution(p, large.solve(p, budget));
      expect(score.feasible).to.equal(true);
      expect(score.missing).to.deep.equal([]);
      expect(score.cost).to.be.lessThan(start.cost);
      expect(reported.length).to.be.greaterThan(1);
      for (let i = 1; i < reported.length; i++) expect(reported[i]!).to.be.lessThan(reported[i - 1]!);
      expect(reported[reported.length - 1]).to.be.closeTo(score.cost, 1e-6);
    },
  );

  it("sends rich and identical-vehicles windows problems above 1,000 customers to the decomposition, not ALNS or savings alone", () => {
    const rich = compileRequest(generateRichXxl(xxlFixture("Leuven1"), 1200, 3, 1).request).problem;
    expect(selectStrategy(rich).name).to.equal("large");
    const matrixLess = compileRequest(generateRichXxl(xxlFixture("Leuven2"), 3500, 3, 1).request).problem;
    expect(matrixLess.dist.length).to.equal(0);
    expect(selectStrategy(matrixLess).name).to.equal("large");
    // Identical vehicles with windows: the decomposition too (select.ts).
    const identicalVehicles = compileRequest(generateRichXxl(xxlFixture("Leuven1"), 1200, 1, 1, false).request).problem;
    expect(selectStrategy(identicalVehicles).name).to.equal("large");
    const identicalVehiclesLarge = compileRequest(generateRichXxl(xxlFixture("Leuven2"), 3500, 1, 1, false).request).problem;
    expect(selectStrategy(identicalVehiclesLarge).name).to.equal("large");
  });
});
