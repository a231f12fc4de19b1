import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { hgs } from "../../strategies/hgs/index.js";
import { iteratedLocalSearch } from "../../strategies/ils/iterated-local-search.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { InsertUnserved } from "../../strategies/search/operators/insert-unserved.js";
import { PromisingCustomers } from "../../strategies/search/promising-customers.js";
import { Routes } from "../../strategies/search/routes.js";
import { buildModel, initialPenalties, identicalVehiclesMismatch } from "../../strategies/search/identical-vehicles-model.js";
import type { ProblemData } from "../../strategies/search/problem-data.js";
import { scratchRouteCost } from "./fleet-problems.js";
import { modelOf, penaltyArb, prizeArb, prizeProblem, scratchTotal } from "./prize-problems.js";

/** Inserts unserved customer c where the operator finds it gains most, as the search does; whether it did. */
function insertUnserved(op: InsertUnserved, c: number, since = -1): boolean {
  if (!op.evaluate(c, since)) return false;
  op.apply();
  return true;
}

const arb = prizeArb(4);

/** Customers the model may leave out (a finite skip price). */
function mayLeaveOut(m: ProblemData, c: number): boolean {
  return m.skipPrice![c]! !== Number.POSITIVE_INFINITY;
}

describe("optional customers in the identical-vehicles iterated search (operators/insert-unserved.ts, remove-optional.ts)", function () {
  this.timeout(300_000);

  it("takes problems whose only rules are skip penalties / allow_unassigned into the identical-vehicles model, not the others", () => {
    const { problem: p } = compileRequest(
      prizeProblem({ customers: 20, seed: 5, windows: true, hours: false, prize: 1, required: false, allowUnassigned: false }),
    );
    const m = modelOf(p);
    expect(m.skipPrice).to.not.equal(null);
    expect(m.windows).to.not.equal(null);
    // The selection table still sees a problem with rules (select.ts' rules row sends it to hgs).
    expect(identicalVehiclesMismatch(p)).to.not.equal(null);
    const withSkills = {
      ...prizeProblem({ customers: 20, seed: 5, windows: true, hours: false, prize: 1, required: false, allowUnassigned: false }),
      node_skills: [null, ["a"]],
      vehicle_skills: [["a"]],
    } as SolveRequestInput;
    expect(buildModel(compileRequest(withSkills).problem).ok).to.equal(false);
    const withStops = {
      ...prizeProblem({ customers: 20, seed: 5, windows: false, hours: false, prize: 1, required: false, allowUnassigned: false }),
      vehicle_max_stops: [3],
    } as SolveRequestInput;
    expect(buildModel(compileRequest(withStops).problem).ok).to.equal(false);
    const plain = compileRequest({
      ...prizeProblem({ customers: 20, seed: 5, windows: false, hours: false, prize: 1, required: false, allowUnassigned: false }),
      node_skip_penalties: undefined,
      allow_unassigned: undefined,
    } as SolveRequestInput).problem;
    expect(modelOf(plain).skipPrice).to.equal(null);
  });

  it("prices every applied move, removals, insertions and exchanges included, as the evaluator does; the total counts skip prices", () => {
    let commits = 0;
    let optionalCommits = 0;
    fc.assert(
      fc.property(arb, penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(prizeProblem(o));
        const m = modelOf(p);
        // Windows that cannot bind become an additive duration cap: hgs.test.ts checks that case.
        if (p.time !== null && m.windows === null) return;
        const rng = new Rng(o.seed);
        const ls = LocalSearch.identicalVehicles(m);
        ls.penalties = pen;
        const lists: number[][] = Array.from({ length: m.routes }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) if (!mayLeaveOut(m, c) || rng.next() < 0.6) lists[rng.int(m.routes)]!.push(c);
        ls.loadRoutes(lists);
        expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, ls.routes()), 1e-6 * Math.max(1, ls.totalCost()));
        let served = ls.routes().flat().length;
        let total = ls.totalCost();
        ls.onCommit = (predicted, ra, rb) => {
          commits++;
          const now = ls.routes();
          const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
          expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, actual));
          const after = ls.totalCost();
          expect(after, "every applied move lowers the total with skip prices").to.be.lessThan(total);
          total = after;
          if (now.flat().length !== served) optionalCommits++;
          served = now.flat().length;
        };
        ls.run(rng);
        ls.onCommit = null;
        const routes = ls.routes();
        expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, routes), 1e-6 * Math.max(1, ls.totalCost()));
        // Every customer at most once, every one on no route optional, and routeOf agrees.
        const flat = routes.flat();
        expect(new Set(flat).size).to.equal(flat.length);
        for (const c of m.customers) {
          if (ls.rs.routeOf[c]! >= 0) expect(routes[ls.rs.routeOf[c]!]![ls.rs.pos[c]! - 1]).to.equal(c);
          else expect(mayLeaveOut(m, c), `customer ${c} left out`).to.equal(true);
        }
      }),
      { numRuns: 150, seed: 211 },
    );
    expect(commits).to.be.greaterThan(300);
    expect(optionalCommits, "insertions, removals and exchanges were applied").to.be.greaterThan(50);
  });

  it(
    "the localised insertion of an unserved customer skips only routes unchanged " +
      "since it found nothing: the same outcome as looking at all",
    () => {
      let compared = 0;
      let moved = 0;
      fc.assert(
        fc.property(arb, penaltyArb, (o, pen) => {
          const { problem: p } = compileRequest(prizeProblem({ ...o, customers: o.customers + 10 }));
          const m = modelOf(p);
          if (p.time !== null && m.windows === null) return;
          const rng = new Rng(o.seed);
          const lists: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of rng.shuffle(Array.from(m.customers)))
            if (!mayLeaveOut(m, c) || rng.next() < 0.7) lists[rng.int(m.routes)]!.push(c);
          // Two searches in the same state, edited alike: one looks at every route, the other skips those unchanged since `since`.
          const all = LocalSearch.identicalVehicles(m);
          const localised = LocalSearch.identicalVehicles(m);
          const insertAll = new InsertUnserved(all.pricing, true);
          const insertLocalised = new InsertUnserved(localised.pricing, true);
          for (const ls of [all, localised]) {
            ls.penalties = pen;
            ls.loadRoutes(lists);
          }
          // Insert until no unserved customer gains anywhere: then every one was idle at clock `since`.
          for (let again = true; again;) {
            again = false;
            for (const c of m.customers) {
              if (all.rs.routeOf[c]! >= 0) continue;
              const done = insertUnserved(insertAll, c);
              expect(insertUnserved(insertLocalised, c)).to.equal(done);
              if (done) again = true;
            }
          }
          const idle = Array.from(m.customers).filter((c) => all.rs.routeOf[c]! < 0);
          if (idle.length === 0) return;
          const since = all.clock;
          // Rewrite a few routes alike: drop an optional customer, or serve an unserved one that is not being tested.
          const testing = idle[rng.int(idle.length)]!;
          for (let edit = 0; edit < 1 + rng.int(3); edit++) {
            const r = rng.int(m.routes);
            const route = all.routes()[r]!;
            const drop = route.findIndex((c) => mayLeaveOut(m, c));
            const unserved = Array.from(m.customers).filter((c) => all.rs.routeOf[c]! < 0 && c !== testing);
            let left = -1;
            if (drop >= 0 && (rng.next() < 0.5 || unserved.length === 0)) left = route.splice(drop, 1)[0]!;
            else if (unserved.length > 0) route.splice(rng.int(route.length + 1), 0, unserved[rng.int(unserved.length)]!);
            for (const ls of [all, localised]) {
              ls.setRoute(r, Int32Array.from(route), route.length);
              if (left >= 0) ls.rs.routeOf[left] = -1;
            }
          }
          const a = insertUnserved(insertAll, testing);
          const b = insertUnserved(insertLocalised, testing, since);
          expect(b).to.equal(a);
          expect(localised.routes()).to.deep.equal(all.routes());
          compared++;
          if (a) moved++;
        }),
        { numRuns: 200, seed: 214 },
      );
      expect(compared).to.be.greaterThan(60);
      expect(moved, "some insertions became improving after the edits").to.be.greaterThan(5);
    },
  );

  it(
    "on long routes a localised run's promising customers are the changed ones " +
      "and, for optional stops, the unserved that list one as a neighbour",
    () => {
      let checked = 0;
      let unservedPromising = 0;
      fc.assert(
        fc.property(arb, (o) => {
          const { problem: p } = compileRequest(prizeProblem({ ...o, customers: o.customers + 10 }));
          const m = modelOf(p);
          const rng = new Rng(o.seed);
          const lists: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of rng.shuffle(Array.from(m.customers)))
            if (!mayLeaveOut(m, c) || rng.next() < 0.6) lists[rng.int(m.routes)]!.push(c);
          const r = lists.findIndex((route) => route.length >= 4 && route.some((c) => mayLeaveOut(m, c)));
          if (r < 0) return;
          // The rewrite: one optional customer leaves route r, and a stretch of what is left is reversed.
          const before = lists[r]!;
          const dropAt = before.findIndex((c) => mayLeaveOut(m, c));
          const dropped = before[dropAt]!;
          const after = before.filter((_, k) => k !== dropAt);
          const from = rng.int(after.length - 1);
          const to = from + 1 + rng.int(after.length - from - 1);
          after.splice(from, to - from + 1, ...after.slice(from, to + 1).reverse());
          // Changed: a customer of the new route whose neighbours (either order) are not those it had.
          const ends = (route: number[], k: number) => [
            k > 0 ? route[k - 1]! : m.start[r]!,
            k + 1 < route.length ? route[k + 1]! : m.end[r]!,
          ];
          const changed = after.filter((c, k) => {
            const [a, b] = ends(after, k);
            const [x, y] = ends(before, before.indexOf(c));
            return !((a === x && b === y) || (a === y && b === x));
          });
          for (const near of [false, true]) {
            const rs = new Routes(m);
            const promising = new PromisingCustomers(m, rs, true, near);
            lists.forEach((route, v) => promising.setRoute(v, Int32Array.from(route), route.length));
            const out = new Int32Array(m.nodeCount);
            promising.collect(rs.seq, rs.length, out);
            rs.routeOf[dropped] = -1;
            promising.setRoute(r, Int32Array.from(after), after.length);
            const got = Array.from(out.subarray(0, promising.collect(rs.seq, rs.length, out))).sort((a, b) => a - b);
            const unserved = Array.from(m.customers).filter((u) => rs.routeOf[u]! < 0 && changed.some((w) => m.neighbours[u]!.includes(w)));
            const expected = [...changed, ...(near ? unserved : [])].sort((a, b) => a - b);
            expect(got, near ? "with the unserved near a changed customer" : "the changed customers alone").to.deep.equal(expected);
            if (near) unservedPromising += unserved.length;
          }
          checked++;
        }),
        { numRuns: 150, seed: 215 },
      );
      expect(checked).to.be.greaterThan(50);
      expect(unservedPromising, "unserved customers were promising").to.be.greaterThan(50);
    },
  );

  it("the distance bounds of insertions and exchanges prune only candidates that cannot win: the same moves as pricing every one", () => {
    let moves = 0;
    fc.assert(
      fc.property(arb, penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(prizeProblem({ ...o, customers: o.customers + 10 }));
        const m = modelOf(p);
        if (p.time !== null && m.windows === null) return;
        const rng = new Rng(o.seed);
        const lists: number[][] = Array.from({ length: m.routes }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) if (!mayLeaveOut(m, c) || rng.next() < 0.5) lists[rng.int(m.routes)]!.push(c);
        const bounded = LocalSearch.identicalVehicles(m);
        const full = LocalSearch.identicalVehicles(m);
        for (const ls of [bounded, full]) {
          ls.penalties = pen;
          ls.loadRoutes(lists);
        }
        for (const c of m.customers) {
          if (bounded.rs.routeOf[c]! >= 0) continue;
          const a = insertUnserved(new InsertUnserved(bounded.pricing, true), c);
          const b = insertUnserved(new InsertUnserved(full.pricing, false), c);
          expect(a).to.equal(b);
          expect(bounded.routes()).to.deep.equal(full.routes());
          if (a) moves++;
        }
      }),
      { numRuns: 200, seed: 215 },
    );
    expect(moves).to.be.greaterThan(100);
  });

  it("ruin and recreate keep the total exact, leave out only optional customers, and re-try those left out", () => {
    let rounds = 0;
    let reentered = 0;
    fc.assert(
      fc.property(arb, penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(prizeProblem({ ...o, customers: o.customers + 10 }));
        const m = modelOf(p);
        if (p.time !== null && m.windows === null) return;
        const rng = new Rng(o.seed);
        const ls = LocalSearch.identicalVehicles(m);
        ls.penalties = pen;
        ls.loadRoutes([]);
        const ruin = new IdenticalVehiclesRuin(ls);
        ruin.reinsert(rng, Array.from(m.customers));
        for (let round = 0; round < 6; round++) {
          const before = new Set(ls.routes().flat());
          ruin.perturb(rng);
          ls.runLocalised(rng);
          const routes = ls.routes();
          const flat = routes.flat();
          expect(new Set(flat).size).to.equal(flat.length);
          for (const c of m.customers) if (!flat.includes(c)) expect(mayLeaveOut(m, c)).to.equal(true);
          for (const c of flat) if (!before.has(c)) reentered++;
          expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, routes), 1e-6 * Math.max(1, ls.totalCost()));
          rounds++;
        }
      }),
      { numRuns: 60, seed: 212 },
    );
    expect(rounds).to.be.greaterThan(200);
    expect(reentered).to.be.greaterThan(20);
  });

  it("reports only improving feasible solutions whose evaluator cost (skip penalties included) is the search's", () => {
    let searched = 0;
    let skipped = 0;
    fc.assert(
      fc.property(arb, (o) => {
        const { problem: p } = compileRequest(prizeProblem({ ...o, customers: o.customers + 15 }));
        const m = modelOf(p);
        const budget = new Budget(performance.now() + 60_000, o.seed, 150);
        const reported: Solution[] = [];
        budget.onImprovement((s) => reported.push(s));
        const start = Array.from({ length: m.routes }, () => [] as number[]);
        const found = iteratedLocalSearch(p, budget, { model: m, routes: start, penalties: initialPenalties(m) });
        if (reported.length === 0) return;
        searched++;
        const costs = reported.map((s) => {
          const score = evaluateSolution(p, s);
          expect(score.feasible).to.equal(true);
          expect(score.missing.filter((c) => !o.allowUnassigned || m.skipPrice![c] === Number.POSITIVE_INFINITY)).to.deep.equal([]);
          return score.cost;
        });
        for (let k = 1; k < costs.length; k++) expect(costs[k]).to.be.lessThan(costs[k - 1]!);
        expect(found.routes).to.deep.equal(reported[reported.length - 1]!.routes);
        skipped += evaluateSolution(p, found).skipped.length;
      }),
      { numRuns: 20, seed: 213 },
    );
    expect(searched).to.be.greaterThan(12);
    expect(skipped, "some optional customers are left out").to.be.greaterThan(0);
  });

  it("hgs solves prize problems of every size with the iterated local search: feasible, the same routes for the same seed", () => {
    for (const customers of [30, 150]) {
      const { problem: p } = compileRequest(
        prizeProblem({ customers, seed: 9, windows: true, hours: false, prize: 1, required: false, allowUnassigned: false }),
      );
      const run = () => hgs.solve(p, new Budget(performance.now() + 60_000, 3, 200));
      const a = run();
      const score = evaluateSolution(p, a);
      expect(score.feasible).to.equal(true);
      expect(score.skipped.length).to.be.greaterThan(0);
      expect(a.routes).to.deep.equal(run().routes);
    }
  });
});
