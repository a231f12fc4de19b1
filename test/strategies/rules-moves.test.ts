import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { iteratedLocalSearch } from "../../strategies/ils/iterated-local-search.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { Budget } from "../../strategies/core/budget.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { SwapStar } from "../../strategies/search/moves/swap-star.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance, rulesPenaltyArb as penaltyArb, scratchCost, withRules } from "./fleet-problems.js";

describe("the search under optional stops, skills, shifts and route limits (route-rules.ts, operators/insert-unserved.ts)", function () {
  this.timeout(300_000);

  it("prices every applied move (relocate, swap, 2-opt, 2-opt*, vehicle change, insert, remove, exchange) as the evaluator does", () => {
    let commits = 0;
    let optionalCommits = 0;
    fc.assert(
      fc.property(
        fc.oneof(fleetArb("none", 10), fleetArb("hard", 10), fleetArb("soft", 10)),
        penaltyArb,
        fc.boolean(),
        (o, pen, allowUnassigned) => {
          const { problem: p } = compileRequest(withRules(fleetInstance(o), o.seed, allowUnassigned));
          const rules = p.rules!;
          const rs = new Routes(buildProblemData(p));
          rs.penalties = pen;
          const rng = new Rng(o.seed);
          // Random routes that respect skills, some optional customers left out.
          const lists: number[][] = Array.from({ length: p.vehicleCount }, () => []);
          for (const c of rng.shuffle(Array.from(p.customers))) {
            if (rules.skipPenalty[c]! !== Number.POSITIVE_INFINITY && rng.next() < 0.3) continue;
            const allowed = Array.from({ length: p.vehicleCount }, (_, v) => v).filter(
              (v) => !rules.allowed || rules.allowed[v * p.nodeCount + c] === 1,
            );
            if (allowed.length > 0) lists[allowed[rng.int(allowed.length)]!]!.push(c);
          }
          rs.loadRoutes(lists);
          const total = () => rs.routes().reduce((sum, r, v) => sum + scratchCost(p, v, pen, r), 0);
          expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, total()));
          const ls = LocalSearch.perVehicle(rs);
          let served = rs.routes().flat().length;
          ls.onCommit = (predicted, ra, rb) => {
            commits++;
            const now = rs.routes();
            const actual = scratchCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchCost(p, rb, pen, now[rb]!) : 0);
            expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, actual));
            const count = now.flat().length;
            if (count !== served) optionalCommits++;
            served = count;
          };
          ls.run(rng);
          ls.onCommit = null;
          // Nothing on a vehicle without its skills; every customer left out may be.
          for (const [v, route] of rs.routes().entries())
            for (const c of route) expect(!rules.allowed || rules.allowed[v * p.nodeCount + c] === 1).to.equal(true);
          // The general search ruins problems with rules preferring short routes (per-vehicle-ils.ts).
          recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(p.customers.length), true));
          expect(rs.totalCost()).to.be.closeTo(total(), 1e-6 * Math.max(1, total()));
          const routed = new Set(rs.routes().flat());
          for (const c of p.customers) {
            if (routed.has(c)) continue;
            const noVehicle =
              rules.allowed !== null &&
              Array.from({ length: p.vehicleCount }, (_, v) => rules.allowed![v * p.nodeCount + c]).every((a) => a === 0);
            expect(rules.skipPenalty[c]! !== Number.POSITIVE_INFINITY || allowUnassigned || noVehicle, `customer ${c} left out`).to.equal(
              true,
            );
          }
        },
      ),
      { numRuns: 120 },
    );
    expect(commits).to.be.greaterThan(100);
    expect(optionalCommits, "insertions and removals of optional customers were applied").to.be.greaterThan(5);
  });

  it("prices every SWAP* move under skills, shifts, working hours, route caps and optional stops as the evaluator does", () => {
    let commits = 0;
    let overCap = 0;
    fc.assert(
      fc.property(fc.oneof(fleetArb("none", 12), fleetArb("hard", 12)), penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(withRules(fleetInstance(o), o.seed, false));
        const rules = p.rules!;
        const rs = new Routes(buildProblemData(p));
        rs.penalties = pen;
        const rng = new Rng(o.seed);
        const lists: number[][] = Array.from({ length: p.vehicleCount }, () => []);
        for (const c of rng.shuffle(Array.from(p.customers))) {
          if (rules.skipPenalty[c]! !== Number.POSITIVE_INFINITY && rng.next() < 0.3) continue;
          const allowed = Array.from({ length: p.vehicleCount }, (_, v) => v).filter(
            (v) => !rules.allowed || rules.allowed[v * p.nodeCount + c] === 1,
          );
          if (allowed.length > 0) lists[allowed[rng.int(allowed.length)]!]!.push(c);
        }
        rs.loadRoutes(lists);
        const ls = LocalSearch.perVehicle(rs);
        ls.onCommit = (predicted, ra, rb) => {
          commits++;
          const now = rs.routes();
          const actual = scratchCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchCost(p, rb, pen, now[rb]!) : 0);
          expect(predicted, `SWAP* on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, actual));
          for (const r of [ra, rb]) if (r >= 0 && (rs.distanceExcess[r]! > 0 || rs.stopsExcess[r]! > 0)) overCap++;
        };
        const swapStar = new SwapStar(ls);
        for (let pass = 0; pass < 20 && swapStar.pass(rng, pass); pass++);
        for (const [v, route] of rs.routes().entries())
          for (const c of route)
            expect(!rules.allowed || rules.allowed[v * p.nodeCount + c] === 1, `customer ${c} on vehicle ${v}`).to.equal(true);
        ls.run(rng);
      }),
      { numRuns: 120 },
    );
    expect(commits).to.be.greaterThan(50);
    expect(overCap, "moves that leave a route above a cap were priced").to.be.greaterThan(5);
  });

  it("the general search's answers are feasible by the evaluator, and skipped customers are priced in its cost", () => {
    let feasible = 0;
    let skipped = 0;
    fc.assert(
      fc.property(fc.oneof(fleetArb("none", 12), fleetArb("hard", 12)), (o) => {
        const { problem: p } = compileRequest(withRules(fleetInstance(o), o.seed, true));
        const solution = iteratedLocalSearch(p, Budget.forSeconds(60, o.seed, 150));
        const score = evaluateSolution(p, solution);
        if (!score.feasible) return;
        feasible++;
        skipped += score.skipped.length;
        const routesCost = score.routes.reduce((sum, r) => sum + r.cost, 0);
        expect(score.cost).to.be.closeTo(routesCost + score.skipPenaltyTotal, 1e-6);
      }),
      { numRuns: 25 },
    );
    expect(feasible).to.be.greaterThan(15);
    expect(skipped).to.be.greaterThan(0);
  });
});
