import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { fitFleet, generateStrongTight, readCache, strongTightFamily } from "../../bench/strong-tight-fleets.js";

/** The strong tight-fleet benchmark: a known plan that is feasible, priced as stored, and exactly fills its fleet. */
describe("bench/strong-tight-fleets.ts", function () {
  this.timeout(60_000);
  const options = { seconds: 5, maxIterations: 100, customers: 30 };

  it("builds a fleet whose vehicles exactly fit the known plan's routes", () => {
    const instance = generateStrongTight(0, 11, options);
    const r = instance.request;
    const { problem } = compileRequest(r);
    const score = evaluateSolution(problem, { routes: instance.plan });
    expect(score.feasible).to.equal(true);
    expect(score.missing).to.deep.equal([]);
    expect(score.cost).to.be.closeTo(instance.planCost, 1e-9);
    // One vehicle per route, each route's load at most its vehicle's capacity, and every type's
    // capacity reached by one of its routes (nothing to spare at the top of a type).
    expect(r.vehicle_num).to.equal(instance.plan.length);
    const loads = instance.plan.map((route) => route.reduce((a, c) => a + r.node_demands![c]!, 0));
    loads.forEach((load, v) => expect(load).to.be.at.most(r.vehicles_capacity[v]!));
    let first = 0;
    for (const type of instance.types) {
      const mine = loads.slice(first, first + type.count);
      expect(Math.max(...mine)).to.equal(type.capacity);
      first += type.count;
    }
    expect(first).to.equal(instance.plan.length);
    expect(instance.plan.flat().sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it("merges groups of equal capacity and keeps the routes sorted by load", () => {
    let draw = 0;
    const demands = [0, 5, 5, 5, 5, 3];
    const { types, plan } = fitFleet([[1], [2], [3], [4], [5]], demands, 4, () => (draw = (draw + 0.3) % 1));
    expect(types.reduce((a, t) => a + t.count, 0)).to.equal(5);
    expect(new Set(types.map((t) => t.capacity)).size).to.equal(types.length);
    expect(plan[0]).to.deep.equal([5]);
  });

  it("caches the family and rejects a stored plan whose cost does not match", () => {
    const dir = mkdtempSync(join(tmpdir(), "strong-tight-"));
    try {
      const path = join(dir, "cache.json");
      const made = strongTightFamily(path, 1, 5, options, () => {});
      const records = readCache(path);
      expect(records).to.have.length(1);
      const again = strongTightFamily(path, 1, 5, { ...options, seconds: 0 }, () => {});
      expect(again[0]!.planCost).to.equal(made[0]!.planCost);
      expect(again[0]!.request).to.deep.equal(made[0]!.request);
      records[0]!.planCost += 1;
      writeFileSync(path, JSON.stringify({ instances: records }));
      expect(() => strongTightFamily(path, 1, 5, options, () => {})).to.throw(/priced/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
