import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { textbookIteratedLocalSearch } from "../../strategies/ils/textbook-ils.js";
import { TextbookRuin } from "../../strategies/ils/textbook-ruin.js";
import { buildBackhaulModel } from "../../strategies/search/backhaul-model.js";
import type { HgsModel } from "../../strategies/search/textbook-model.js";
import { LocalSearch } from "../../strategies/search/textbook/local-search.js";
import { loadArb, loadInstance, type LoadOptions } from "./load-problems.js";

/** Backhaul instances the textbook transformation takes (one depot, identical vehicles, no time). */
const backhaulArb = (customers: number): fc.Arbitrary<LoadOptions> => loadArb("none", customers, "backhauls").map((o) => ({ ...o, types: 1, depots: 1, mixedEnds: false }));

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/** Per customer: its route and its two route neighbours as an unordered pair ("r:a,b", a <= b). */
function neighbourhoods(ls: LocalSearch, m: HgsModel): Map<number, string> {
  const out = new Map<number, string>();
  for (let r = 0; r < m.vehicles; r++) {
    const seq = ls.seq[r]!;
    for (let k = 1; k <= ls.length[r]!; k++) {
      const a = seq[k - 1]!;
      const b = seq[k + 1]!;
      out.set(seq[k]!, `${r}:${Math.min(a, b)},${Math.max(a, b)}`);
    }
  }
  return out;
}

/** Customers whose route or route neighbours differ between two snapshots. */
function changed(before: Map<number, string>, after: Map<number, string>): number[] {
  return Array.from(after.keys()).filter((c) => before.get(c) !== after.get(c));
}

/**
 * The localised search by customer (search/textbook/promising.ts, used for backhauls by
 * ils/textbook-ils.ts): a customer is examined again only when its own route neighbours changed
 * (or its whole route was marked). These tests check that no such customer is ever missed:
 * after a ruin and recreate and after every move the local search applies, each customer whose
 * route or route neighbours changed is promising, so the localised search sees what the
 * route-wide one saw around every change.
 */
describe("promising customers by customer (backhauls)", function () {
  this.timeout(120_000);

  it("every customer whose route neighbours a ruin and recreate or an applied move changed is promising", () => {
    let checks = 0;
    fc.assert(
      fc.property(backhaulArb(14), penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(loadInstance(o));
        const outcome = buildBackhaulModel(p);
        if (!outcome.ok) return;
        const m = outcome.model;
        const ls = new LocalSearch(m);
        ls.usePromisingByCustomer();
        const rng = new Rng(o.seed);
        const lists: number[][] = Array.from({ length: m.vehicles }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) lists[rng.int(m.vehicles)]!.push(c);
        ls.penalties = pen;
        ls.loadRoutes(lists);
        ls.run(rng);
        // A full run ends at a local optimum: nothing is promising.
        for (const c of m.customers) expect(ls.isPromising(c), `customer ${c} after a full run`).to.equal(false);
        const ruin = new TextbookRuin(ls);
        let snapshot = neighbourhoods(ls, m);
        ls.onCommit = () => {
          const now = neighbourhoods(ls, m);
          for (const c of changed(snapshot, now)) expect(ls.isPromising(c), `customer ${c} after a move`).to.equal(true);
          checks++;
          snapshot = now;
        };
        for (let round = 0; round < 6; round++) {
          const before = neighbourhoods(ls, m);
          ruin.perturb(rng);
          snapshot = neighbourhoods(ls, m);
          for (const c of changed(before, snapshot)) expect(ls.isPromising(c), `customer ${c} after a ruin`).to.equal(true);
          ls.runLocalised(rng);
          for (const c of m.customers) expect(ls.isPromising(c), `customer ${c} after a localised run`).to.equal(false);
        }
      }),
      { numRuns: 40 },
    );
    expect(checks, "moves applied and checked").to.be.greaterThan(20);
  });

  it("by route (the default, every other textbook problem) nothing is marked by customer", () => {
    fc.assert(
      fc.property(backhaulArb(10), (o) => {
        const { problem: p } = compileRequest(loadInstance(o));
        const outcome = buildBackhaulModel(p);
        if (!outcome.ok) return;
        const m = outcome.model;
        const ls = new LocalSearch(m);
        const rng = new Rng(o.seed);
        ls.loadRoutes([Array.from(m.customers)]);
        new TextbookRuin(ls).perturb(rng);
        for (const c of m.customers) expect(ls.isPromising(c)).to.equal(false);
      }),
      { numRuns: 20 },
    );
  });

  it("the iterated search with it answers solutions the evaluator finds feasible and serving every customer once", () => {
    let feasible = 0;
    fc.assert(
      fc.property(backhaulArb(30), (o) => {
        const { problem: p } = compileRequest(loadInstance({ ...o, customers: Math.max(o.customers, 15) }));
        const outcome = buildBackhaulModel(p);
        if (!outcome.ok) return;
        const m = outcome.model;
        const start = [Array.from(m.customers)];
        const solution = textbookIteratedLocalSearch(p, m, Budget.forSeconds(60, o.seed, 400), start, { load: 1, duration: 1, timeWarp: 1 });
        expect(solution.routes.flat().sort((a, b) => a - b)).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
        if (evaluateSolution(p, solution).feasible) feasible++;
      }),
      { numRuns: 15 },
    );
    expect(feasible, "runs with a feasible answer").to.be.greaterThan(3);
  });
});
