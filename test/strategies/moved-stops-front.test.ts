import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { initialSolution } from "../../src/problem/compile-plan.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest, type SolveOutcome } from "../../src/problem/solve-request.js";
import { DEFAULT_MOVED_SHARE, searchedProblem } from "../../src/problem/stability-price.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { iteratedLocalSearch } from "../../strategies/ils/iterated-local-search.js";
import { MovedStopsFront } from "../../strategies/ils/moved-stops-front.js";
import type { Snapshot } from "../../strategies/ils/snapshot.js";
import { fleetArb, fleetInstance } from "./fleet-problems.js";
import { expectLocksKept, withRandomPlan } from "./replan-problems.js";

/** A snapshot of one route [id] whose priced objective is `cost` + price x `away`. */
function plan(id: number, cost: number, away: number, price: number, feasible = true): Snapshot {
  return {
    routes: [[id]],
    objective: cost + price * away,
    loadExcess: feasible ? 0 : 1,
    timeWarp: 0,
    durationExcess: 0,
    distanceExcess: 0,
    stopsExcess: 0,
    unserved: 0,
    away,
  };
}

/** The problem's customers dealt at random to its vehicles, locked heads first. */
function shuffledRoutes(p: CompiledProblem, seed: number): number[][] {
  const rng = new Rng(seed);
  const heads = p.locks?.stops ?? [];
  const routes = Array.from({ length: p.vehicleCount }, (_, v) => Array.from(heads[v] ?? []));
  for (const c of rng.shuffle(Array.from(p.customers).filter((c) => !(p.locks && p.locks.vehicle[c]! >= 0))))
    routes[rng.int(p.vehicleCount)]!.push(c);
  return routes;
}

/** Stops of the given plan served by another vehicle than there. */
function moved(p: CompiledProblem, s: Solution): number {
  let count = 0;
  s.routes.forEach((route, v) => route.forEach((c) => (p.reassignment!.home[c]! >= 0 && p.reassignment!.home[c] !== v ? count++ : 0)));
  return count;
}

describe("the default reassignment price: the cheapest plan within a few moves", function () {
  this.timeout(300_000);

  it("keeps, per count of moved stops up to the allowance, only plans cheaper than every plan with fewer moves", () => {
    const front = new MovedStopsFront(2);
    front.offer(plan(1, 100, 0, 10), 10);
    front.offer(plan(2, 101, 1, 10), 10); // dearer than a plan with fewer moves: not kept
    front.offer(plan(3, 90, 1, 10, false), 10); // infeasible: never an answer
    front.offer(plan(4, 97, 2, 3), 3); // priced at the search's price of the moment
    front.offer(plan(5, 95, 3, 10), 10); // beyond the allowance
    expect(front.answer()!.routes).to.deep.equal([[4]]);
    expect(front.takeCounts(), "feasible plans, and those within the allowance").to.deep.equal({ feasible: 4, within: 3 });
    front.offer(plan(6, 96, 1, 10), 10); // beats the plan of 2 moves, which leaves the front
    expect(front.answer()!.routes).to.deep.equal([[6]]);
    front.offer(plan(7, 96, 2, 10), 10); // no cheaper than the plan of 1 move
    expect(front.answer()!.routes).to.deep.equal([[6]]);
    expect(front.takeCounts()).to.deep.equal({ feasible: 2, within: 2 });
    expect(new MovedStopsFront(2).answer(), "no feasible plan met").to.equal(null);
  });

  it("prices every route at a new reassignment price as a route store built at that price does", () => {
    fc.assert(
      fc.property(
        fc.oneof(fleetArb("none", 20), fleetArb("soft", 20)),
        fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        (o, seed, price) => {
          const request = withRandomPlan(fleetInstance(o), seed);
          const problem = compileRequest(request).problem;
          const defaults = searchedProblem(problem, request).reassignment;
          if (!defaults) return;
          const routes = shuffledRoutes(problem, seed);
          const moving = new Routes(buildProblemData({ ...problem, reassignment: { ...defaults } }));
          moving.loadRoutes(routes);
          moving.setReassignmentPrice(price);
          const fresh = new Routes(buildProblemData({ ...problem, reassignment: { ...defaults, price } }));
          fresh.loadRoutes(routes);
          for (let r = 0; r < problem.vehicleCount; r++) expect(moving.objective[r]).to.be.closeTo(fresh.objective[r]!, 1e-6);
          expect(moving.totalCost()).to.be.closeTo(fresh.totalCost(), 1e-6);
        },
      ),
      { numRuns: 60, seed: 31 },
    );
  });

  it("answers a re-plan at the default price within the allowance, no dearer than the given plan, locked stops kept", () => {
    let cases = 0;
    let changed = 0;
    fc.assert(
      fc.property(fc.oneof(fleetArb("none", 40), fleetArb("soft", 40)), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const request = withRandomPlan(fleetInstance({ ...o, customers: Math.max(o.customers, 20) }), seed);
        const problem = compileRequest(request).problem;
        const searched = searchedProblem(problem, request);
        expect(searched.reassignment?.movedShare, "a re-plan with locked stops gets the default").to.equal(DEFAULT_MOVED_SHARE);
        const given = initialSolution(request, problem.vehicleCount)!;
        const start = evaluateSolution(problem, given);
        // A feasible given plan moves nothing: the front holds a plan from the start on.
        if (!start.feasible) return;
        cases++;
        const budget = Budget.forSeconds(60, seed, 300);
        // Every new best on the problem's cost with the default price: the last is the priced best.
        let pricedBest: Solution = given;
        budget.onImprovement((s) => (pricedBest = s));
        const answer = iteratedLocalSearch(searched, budget, given);
        const score = evaluateSolution(problem, answer);
        expect(score.feasible).to.equal(true);
        expect(score.cost).to.be.at.most(start.cost + 1e-6);
        expect(moved(searched, answer)).to.be.at.most(MovedStopsFront.forProblem(searched)!.allowance);
        expectLocksKept(problem, answer.routes, "answer");
        if (JSON.stringify(answer.routes) !== JSON.stringify(pricedBest.routes)) changed++;
      }),
      { numRuns: 30, seed: 30 },
    );
    expect(cases, "cases with a feasible given plan").to.be.at.least(10);
    expect(changed, "cases where the front answered another plan than the priced best").to.be.greaterThan(0);
  });

  it("moves more than the allowance when the changed problem forces it, and answers a feasible plan", () => {
    // Twenty customers on a circle; vehicle 0 had fifteen of them, but its capacity is now 8: at
    // least seven of its stops must change vehicle, far beyond 10% of the eighteen unlocked ones.
    const positions = [
      [0, 0],
      ...Array.from({ length: 20 }, (_, i) => [Math.round(50 * Math.cos(i / 3)), Math.round(50 * Math.sin(i / 3))]),
    ];
    const request = {
      node_num: 21,
      vehicle_num: 2,
      node_positions: positions,
      distance_matrix: [],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: [0, ...Array.from({ length: 20 }, () => 1)],
      vehicles_capacity: [8, 20],
      initial_routes: [Array.from({ length: 15 }, (_, i) => i + 1), [16, 17, 18, 19, 20]],
      vehicle_locked_stops: [1, 1],
    } as SolveRequestInput;
    const problem = compileRequest(request).problem;
    const searched = searchedProblem(problem, request);
    expect(MovedStopsFront.forProblem(searched)!.allowance).to.equal(1);
    for (const seed of [1, 2]) {
      const outcome = solveRequest(request, { requestId: "forced", timeLimitSeconds: 20, seed, maxIterations: 300 });
      expect(outcome.status, outcome.status === "failed" ? outcome.error : "").to.equal("solved");
      const result = (outcome as Extract<SolveOutcome, { status: "solved" }>).result;
      const routes = Array.from({ length: 2 }, (_, v) => result.routes[`Vehicle ${v}`]!.filter((c) => c !== 0));
      const answer = { routes };
      expect(evaluateSolution(problem, answer).feasible).to.equal(true);
      expect(moved(searched, answer), "the stops vehicle 0 can no longer carry").to.be.at.least(7);
      expectLocksKept(problem, routes, "forced");
    }
  });
});
