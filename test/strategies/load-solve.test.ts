import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { findStrategy } from "../../strategies/registry.js";
import { selectStrategy } from "../../strategies/select.js";
import { loadArb, loadInstance } from "./load-problems.js";

describe("solving with load rules (pickups, backhauls, shipments, extra dimensions)", function () {
  this.timeout(300_000);

  it("selects hgs for them at every size; the strategies that do not know them refuse them", () => {
    for (const kind of ["pickups", "backhauls", "shipments", "dimensions"] as const) {
      const { problem: p } = compileRequest(loadInstance({ customers: 12, types: 1, depots: 1, mixedEnds: false, asymmetric: false, cost: false, time: "none", hours: false, speeds: false, seed: 7, kind, loadSeed: 11 }));
      expect(p.loads, kind).to.not.equal(null);
      expect(selectStrategy(p).name, kind).to.equal("hgs");
      for (const name of ["alns", "sweep", "clarke-wright", "large"]) {
        const support = findStrategy(name).supports(p);
        expect(support.ok, `${name} on ${kind}`).to.equal(false);
        if (!support.ok && name !== "sweep") expect(support.reason).to.match(/shipments/);
      }
    }
  });

  it("hgs returns solutions the evaluator finds feasible (every vehicle large enough, no windows)", () => {
    let solved = 0;
    fc.assert(
      fc.property(loadArb("none", 14), (o) => {
        const req = loadInstance({ ...o, customers: Math.max(o.customers, 9) });
        // Room for everything: each vehicle could carry all of it in every dimension.
        const total = req.node_demands!.reduce((a, b) => a + b, 0) + (req.node_pickups ?? []).reduce((a, b) => a + b, 0) + (req.shipments ?? []).reduce((a, s) => a + s.amount, 0);
        req.vehicles_capacity = req.vehicles_capacity.map(() => total + 1);
        req.vehicles_extra_capacity = req.vehicles_extra_capacity?.map((row) => row.map(() => 1000));
        const { problem: p } = compileRequest(req);
        if (!p.loads) return;
        const strategy = selectStrategy(p);
        const solution = strategy.solve(p, Budget.forSeconds(3600, 1, 200));
        const score = evaluateSolution(p, solution);
        expect(score.feasible, JSON.stringify({ routes: solution.routes, strategy: strategy.name })).to.equal(true);
        solved++;
      }),
      { numRuns: 25 },
    );
    expect(solved).to.be.greaterThan(15);
  });
});
