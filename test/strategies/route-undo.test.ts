import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { Budget } from "../../strategies/core/budget.js";
import { PerVehicleBest, PerVehicleEducation, SnapshotCurrent } from "../../strategies/ils/per-vehicle-parts.js";
import type { PoolRecombination } from "../../strategies/ils/pool-recombination.js";
import { RouteUndo } from "../../strategies/ils/route-undo.js";
import { SetPartitioningStep } from "../../strategies/ils/set-partitioning-step.js";
import { snapshot } from "../../strategies/ils/snapshot.js";
import { PenaltyManager } from "../../strategies/search/penalty-manager.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance, rulesPenaltyArb, withRules } from "./fleet-problems.js";
import { modelOf, penaltyArb, prizeArb, prizeProblem } from "./prize-problems.js";

/** What must hold after a restore: the saved routes, every customer's place agreeing with them, and their price. */
function expectHeld(ls: LocalSearch, saved: number[][], freshTotal: number): void {
  const rs = ls.rs;
  expect(rs.routes()).to.deep.equal(saved);
  for (const c of rs.m.customers) {
    const r = saved.findIndex((route) => route.includes(c));
    expect(rs.routeOf[c], `customer ${c}`).to.equal(r);
    if (r >= 0) expect(rs.pos[c]).to.equal(saved[r]!.indexOf(c) + 1);
  }
  // A required customer left unserved prices the plan at infinity, on both sides.
  if (Number.isFinite(freshTotal)) expect(ls.totalCost()).to.be.closeTo(freshTotal, 1e-9 * Math.max(1, Math.abs(freshTotal)));
  else expect(ls.totalCost()).to.equal(freshTotal);
}

/**
 * Runs candidates (a perturbation, then the local search) from the held routes, keeping every
 * other one: after each rejected candidate the store must hold the current routes again, with
 * routes equal to their copy not rewritten; a kept one becomes what later restores go back to.
 */
function exercise(ls: LocalSearch, perturb: () => void, freshTotal: (routes: number[][]) => number, rng: Rng): number {
  const rs = ls.rs;
  const undo = new RouteUndo(ls);
  undo.save(-1);
  let current = rs.routes();
  let restored = 0;
  for (let round = 0; round < 6; round++) {
    const mark = rs.clock;
    perturb();
    ls.run(rng);
    if (round % 2 === 1) {
      undo.save(mark);
      current = rs.routes();
      continue;
    }
    const candidate = rs.routes();
    const same = current.map((route, r) => route.length === candidate[r]!.length && route.every((c, k) => candidate[r]![k] === c));
    const modifiedBefore = Float64Array.from(rs.modifiedAt);
    undo.restore(mark);
    expectHeld(ls, current, freshTotal(current));
    for (let r = 0; r < rs.m.routes; r++) {
      if (same[r]) expect(rs.modifiedAt[r], `route ${r} held its routes and stays as it was`).to.equal(modifiedBefore[r]);
      else restored++;
    }
  }
  return restored;
}

describe("the iterated search's one undo (ils/route-undo.ts)", function () {
  this.timeout(120_000);

  it("restores the current routes on identical vehicles, optional customers and windows included", () => {
    let restored = 0;
    fc.assert(
      fc.property(prizeArb(6), penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(prizeProblem(o));
        const m = modelOf(p);
        const rng = new Rng(o.seed);
        const ls = LocalSearch.identicalVehicles(m);
        ls.penalties = pen;
        const lists: number[][] = Array.from({ length: m.routes }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) lists[rng.int(m.routes)]!.push(c);
        ls.loadRoutes(lists);
        ls.run(rng);
        const ruin = new IdenticalVehiclesRuin(ls);
        const fresh = (routes: number[][]) => {
          const other = LocalSearch.identicalVehicles(m);
          other.penalties = pen;
          other.loadRoutes(routes);
          return other.totalCost();
        };
        restored += exercise(ls, () => ruin.perturb(rng), fresh, rng);
      }),
      { numRuns: 80, seed: 31 },
    );
    expect(restored, "candidates rewrote routes that were restored").to.be.greaterThan(100);
  });

  it("restores the current routes on any fleet, with skills, caps and unserved customers", () => {
    let restored = 0;
    fc.assert(
      fc.property(fleetArb("hard", 16), rulesPenaltyArb, fc.boolean(), (o, pen, allowUnassigned) => {
        const { problem: p } = compileRequest(withRules(fleetInstance(o), o.seed, allowUnassigned));
        const m = buildProblemData(p);
        const rng = new Rng(o.seed);
        const rs = new Routes(m);
        rs.penalties = pen;
        const ls = LocalSearch.perVehicle(rs);
        recreate(ls.pricing, rng, Array.from(m.customers));
        ls.run(rng);
        const fresh = (routes: number[][]) => {
          const other = new Routes(m);
          other.penalties = pen;
          other.loadRoutes(routes);
          return LocalSearch.perVehicle(other).totalCost();
        };
        const perturb = () => recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)));
        restored += exercise(ls, perturb, fresh, rng);
      }),
      { numRuns: 80, seed: 32 },
    );
    expect(restored, "candidates rewrote routes that were restored").to.be.greaterThan(40);
  });

  it("goes back to the current routes when a recombined plan is not a new best after all", () => {
    let checked = 0;
    fc.assert(
      fc.property(fleetArb("hard", 16), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const { problem: p } = compileRequest(fleetInstance(o));
        const m = buildProblemData(p);
        const rng = new Rng(seed);
        const rs = new Routes(m);
        const penalties = PenaltyManager.forProblem(m);
        rs.penalties = penalties.current;
        const ls = LocalSearch.perVehicle(rs);
        recreate(ls.pricing, rng, Array.from(m.customers));
        ls.run(rng);
        const budget = Budget.forSeconds(60, seed);
        // A best no plan can beat: every recombined plan is turned down.
        const best = new PerVehicleBest(p, m, budget);
        best.solution = { routes: rs.routes() };
        best.cost = Number.NEGATIVE_INFINITY;
        const current = new SnapshotCurrent(rs, ls, penalties, best, false);
        const s = snapshot(rs);
        current.set({ snapshot: s, held: true, cost: 0, feasible: true });
        const held = rs.routes();
        // The pool offers the current routes shuffled among the vehicles.
        const plan = rng.shuffle(held.map((route) => route.slice()));
        const pool = { due: () => true, recombine: () => plan } as unknown as PoolRecombination;
        const education = new PerVehicleEducation(rs, ls, penalties, null, false, rng, () => false);
        const step = new SetPartitioningStep(pool, rs, current, education, best, false);
        expect(step.step()).to.equal(false);
        expect(rs.routes()).to.deep.equal(held);
        if (plan.some((route, r) => route.join() !== held[r]!.join())) checked++;
      }),
      { numRuns: 60, seed: 33 },
    );
    expect(checked, "plans that differed from the current routes").to.be.greaterThan(20);
  });
});
