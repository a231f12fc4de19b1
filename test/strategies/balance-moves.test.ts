import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import {
  fleetArb,
  fleetInstance,
  plainWarp,
  rulesPenaltyArb,
  scratchCost,
  scratchRouteCost,
  withRules,
  type FleetOptions,
} from "./fleet-problems.js";
import type { BalanceMeasure } from "./balance-problems.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/**
 * A route's workload from scratch: its customers, the evaluator's distance, or its working
 * minutes (the evaluator's under soft windows; under hard ones the plain clock of fleet-problems.ts,
 * which scratchRouteCost checks against the evaluator wherever nothing is late).
 */
function scratchWorkload(p: CompiledProblem, v: number, route: number[], measure: BalanceMeasure): number {
  if (route.length === 0) return 0;
  if (measure === "stops") return route.length;
  if (measure === "distance") return evaluateRoute(p, v, route).distance;
  return p.time!.latePenaltyPerMin > 0 ? evaluateRoute(p, v, route).durationMin : plainWarp(p, v, route).duration;
}

/** The penalised cost of a plan from scratch: its routes' prices (rules included where the problem has them) and the balance term. */
function scratchTotal(p: CompiledProblem, pen: Penalties, routes: number[][]): number {
  const b = p.balance!;
  const routeCost = p.rules ? scratchCost : scratchRouteCost;
  const routesCost = routes.reduce((sum, r, v) => sum + routeCost(p, v, pen, r), 0);
  const largest = Math.max(0, ...routes.map((r, v) => scratchWorkload(p, v, r, b.measure)));
  return routesCost + b.costPerUnit * largest;
}

/**
 * Loads random routes, runs the general local search and checks every applied move: the change
 * it predicted (its routes' new prices and the change of the balance term, less the routes' old
 * prices) is the change of the plan's price from scratch, and that price falls. Then a ruin and
 * recreate round must leave the model's total at the price from scratch.
 */
function checkEveryMove(p: CompiledProblem, pen: Penalties, seed: number): number {
  const m = buildProblemData(p);
  const rng = new Rng(seed);
  const rs = new Routes(m);
  rs.penalties = pen;
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  const rules = p.rules;
  for (const c of rng.shuffle(Array.from(m.customers))) {
    // Under rules: some optional customers start unserved, the others on a vehicle with their skills.
    if (rules && rules.skipPenalty[c]! !== Number.POSITIVE_INFINITY && rng.next() < 0.3) continue;
    const allowed = routes.map((_, v) => v).filter((v) => !rules?.allowed || rules.allowed[v * p.nodeCount + c] === 1);
    if (allowed.length > 0) routes[allowed[rng.int(allowed.length)]!]!.push(c);
  }
  rs.loadRoutes(routes);
  const routeCost = rules ? scratchCost : scratchRouteCost;
  // What the search asks for the customers on no route (optional ones at their skip price).
  const unserved = (plan: number[][]) => {
    const served = new Set(plan.flat());
    // A required customer no vehicle may serve stays out whatever the moves do: it counts on neither side.
    const price = (c: number) => (served.has(c) || !Number.isFinite(m.skipPrice![c]!) ? 0 : m.skipPrice![c]!);
    return Array.from(m.customers).reduce((sum, c) => sum + price(c), 0);
  };
  let before = rs.routes();
  let total = scratchTotal(p, pen, before);
  expect(rs.totalCost()).to.be.closeTo(total, 1e-6 * Math.max(1, total));
  const ls = LocalSearch.perVehicle(rs);
  let moves = 0;
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = rs.routes();
    const after = scratchTotal(p, pen, now);
    // Whether the move improves counts the skip prices of the customers it serves or leaves out.
    if (rules) expect(after + unserved(now)).to.be.lessThan(total + unserved(before));
    const old = routeCost(p, ra, pen, before[ra]!) + (rb >= 0 ? routeCost(p, rb, pen, before[rb]!) : 0);
    expect(predicted - old, `move on routes ${ra}, ${rb}`).to.be.closeTo(after - total, 1e-6 * Math.max(1, Math.abs(after)));
    if (!rules) expect(after).to.be.lessThan(total);
    if (!rules) expect(rs.totalCost()).to.be.closeTo(after, 1e-6 * Math.max(1, after));
    total = after;
    before = now;
  };
  ls.run(rng);
  if (rules) return moves;
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
  ls.onCommit = null;
  recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)));
  expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
  const recreated = scratchTotal(p, pen, rs.routes());
  expect(rs.totalCost()).to.be.closeTo(recreated, 1e-6 * Math.max(1, recreated));
  return moves;
}

function pricingProperty(time: FleetOptions["time"], measure: BalanceMeasure, runs: number, seed: number): number {
  let moves = 0;
  fc.assert(
    fc.property(
      fleetArb(time),
      fc.integer({ min: 1, max: 1e6 }),
      penaltyArb,
      fc.double({ min: 0.05, max: 20, noNaN: true }),
      (o, s, pen, costPerUnit) => {
        const req = { ...fleetInstance(o), balance: { measure, cost_per_unit: costPerUnit } } as SolveRequestInput;
        moves += checkEveryMove(compileRequest(req).problem, pen, s);
      },
    ),
    { numRuns: runs, seed },
  );
  return moves;
}

describe("balance in the general search: every move prices the largest workload exactly", function () {
  this.timeout(120_000);

  for (const measure of ["stops", "distance"] as const) {
    it(`prices the largest ${measure} as the evaluator counts it, without the time dimension and under hard windows`, () => {
      expect(pricingProperty("none", measure, 40, 68)).to.be.greaterThan(100);
      expect(pricingProperty("hard", measure, 30, 69)).to.be.greaterThan(100);
    });
  }

  it("prices the longest working day under hard and soft windows", () => {
    expect(pricingProperty("hard", "duration", 40, 70)).to.be.greaterThan(100);
    expect(pricingProperty("soft", "duration", 30, 71)).to.be.greaterThan(100);
  });

  it("prices the largest workload in the moves of optional stops, skills, shifts and route caps", () => {
    let moves = 0;
    fc.assert(
      fc.property(
        fc.oneof(fleetArb("none", 12), fleetArb("hard", 12)),
        rulesPenaltyArb,
        fc.constantFrom("stops", "distance"),
        fc.double({ min: 0.05, max: 20, noNaN: true }),
        (o, pen, measure, costPerUnit) => {
          const req = { ...withRules(fleetInstance(o), o.seed, false), balance: { measure, cost_per_unit: costPerUnit } };
          moves += checkEveryMove(compileRequest(req as SolveRequestInput).problem, pen, o.seed);
        },
      ),
      { numRuns: 60, seed: 72 },
    );
    expect(moves).to.be.greaterThan(100);
  });

  it("takes a move that shortens the longest route at equal distance", () => {
    // Depot 0 at the origin; 1 and 2 on one side, 3 on the other, all at distance 10: one stop more
    // or less changes no distance, so only the balance term can ask for it.
    const req = {
      node_num: 4,
      vehicle_num: 2,
      distance_matrix: [
        [0, 10, 10, 10],
        [10, 0, 0, 20],
        [10, 0, 0, 20],
        [10, 20, 20, 0],
      ],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: [0, 1, 1, 1],
      vehicles_capacity: [3, 3],
      balance: { measure: "stops", cost_per_unit: 1 },
    } as SolveRequestInput;
    const p = compileRequest(req).problem;
    const rs = new Routes(buildProblemData(p));
    rs.loadRoutes([[1, 2, 3], []]);
    expect(rs.totalCost()).to.equal(40 + 3);
    const ls = LocalSearch.perVehicle(rs);
    ls.run(new Rng(1));
    expect(rs.totalCost()).to.equal(40 + 2);
    expect(
      rs
        .routes()
        .map((r) => r.length)
        .sort(),
    ).to.deep.equal([1, 2]);
  });
});
