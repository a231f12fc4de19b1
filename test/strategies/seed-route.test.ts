import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { hgs } from "../../strategies/hgs/index.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { SeedRoute } from "../../strategies/search/moves/seed-route.js";
import { modelOf, penaltyArb, prizeArb, prizeProblem, scratchTotal } from "./prize-problems.js";

/**
 * Customers on a line through the depot, 1..near close to it, then `far` customers in a tight group
 * far away; every customer optional at `prize`, wide windows.
 */
function nearAndFar(near: number, far: number, prize: number, vehicles: number): SolveRequestInput {
  const pos: [number, number][] = [[0, 0]];
  for (let i = 0; i < near; i++) pos.push([5 + 3 * i, 0]);
  for (let i = 0; i < far; i++) pos.push([200 + (i % 4), 200 + Math.floor(i / 4)]);
  const matrix = pos.map((a) => pos.map((b) => Math.floor(10 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 10));
  return {
    objective: "min_total_distance",
    node_num: pos.length,
    vehicle_num: vehicles,
    distance_matrix: matrix,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: Array(vehicles).fill(1000),
    node_skip_penalties: pos.map((_, i) => (i === 0 ? null : prize)),
    node_time_windows: pos.map((): [number, number] => [0, 10_000]),
    node_service_time: pos.map((_, i) => (i === 0 ? 0 : 1)),
    vehicle_speeds: Array(vehicles).fill(1),
  };
}

/** A random plan of m's customers on every vehicle but `empty` (optional ones left out at 40%). */
function loadRandom(ls: LocalSearch, rng: Rng, empty: number): void {
  const m = ls.m;
  const lists: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) {
    if (m.skipPrice![c] !== Number.POSITIVE_INFINITY && rng.next() < 0.4) continue;
    const v = (empty + 1 + rng.int(m.routes - 1)) % m.routes;
    lists[v]!.push(c);
  }
  ls.loadRoutes(lists);
}

describe("a route opened around a seed customer (moves/seed-route.ts)", function () {
  this.timeout(300_000);

  it(
    "changes the penalised total by what it returns (the evaluator's prices), serves the seed there " +
      "with granular neighbours only where they cost less there than where they were",
    () => {
      let followed = 0;
      fc.assert(
        fc.property(prizeArb(4), penaltyArb, fc.integer({ min: 1, max: 40 }), (o, pen, limit) => {
          const { problem: p } = compileRequest(prizeProblem(o));
          const m = modelOf(p);
          if (m.routes < 2) return;
          const rng = new Rng(o.seed);
          const empty = rng.int(m.routes);
          const make = () => {
            const ls = LocalSearch.identicalVehicles(m);
            ls.penalties = pen;
            loadRandom(ls, new Rng(o.seed), empty);
            return ls;
          };
          const ls = make();
          const seed = m.customers[rng.int(m.customers.length)]!;
          const before = ls.routes();
          const totalBefore = ls.totalCost();
          const change = new SeedRoute(ls).open(seed, empty, limit);
          const after = ls.routes();
          const scale = Math.max(1, Math.abs(totalBefore));
          expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, after), 1e-6 * scale);
          expect(ls.totalCost() - totalBefore).to.be.closeTo(change, 1e-6 * scale);
          for (const c of m.customers) if (ls.rs.routeOf[c]! >= 0) expect(after[ls.rs.routeOf[c]!]![ls.rs.pos[c]! - 1]).to.equal(c);
          expect(after.flat().length).to.equal(new Set(after.flat()).size);
          const opened = after[empty]!;
          expect(opened).to.include(seed);
          expect(opened.length).to.be.at.most(limit);
          const near = new Set(m.neighbours[seed]!);
          for (const c of opened) if (c !== seed) expect(near.has(c), `customer ${c} is a neighbour of ${seed}`).to.equal(true);
          // Customers not in the new route stay where they were, in order.
          for (let v = 0; v < m.routes; v++) if (v !== empty) expect(after[v]).to.deep.equal(before[v]!.filter((c) => !opened.includes(c)));
          // The neighbours that follow lower the total: no dearer than the seed's route alone.
          const alone = new SeedRoute(make()).open(seed, empty, 1);
          expect(change).to.be.at.most(alone + 1e-6 * scale);
          if (opened.length > 1) followed++;
        }),
        { numRuns: 300, seed: 4747 },
      );
      expect(followed, "routes some neighbours followed").to.be.greaterThan(20);
    },
  );

  it("leaves a route that is not empty as it is, and moves a far group off a route that passes it", () => {
    const { problem: p } = compileRequest(nearAndFar(6, 8, 60, 3));
    const m = modelOf(p);
    const ls = LocalSearch.identicalVehicles(m);
    ls.penalties = { load: 10, duration: 10, timeWarp: 10 };
    ls.loadRoutes([[1, 2, 3, 4, 5, 6], [7]]);
    expect(Number.isNaN(new SeedRoute(ls).open(8, 1, 20))).to.equal(true);
    // One far customer served in the near route; its group unserved: the route around it serves the
    // whole group (each worth 60, a step within the group costs a few units) and gains overall.
    ls.loadRoutes([[1, 2, 3, 7, 4, 5, 6]]);
    const before = ls.totalCost();
    const change = new SeedRoute(ls).open(7, 2, 20);
    expect(
      ls
        .routes()[2]!
        .slice()
        .sort((a, b) => a - b),
    ).to.deep.equal([7, 8, 9, 10, 11, 12, 13, 14]);
    expect(ls.routes()[0]).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(change).to.be.lessThan(0);
    expect(ls.totalCost()).to.be.closeTo(before + change, 1e-6);
    expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, ls.penalties, ls.routes()), 1e-6);
  });

  it("the iterated search that opens such a route on every served seed returns feasible plans, each customer once", () => {
    for (const seed of [3, 8]) {
      const request = prizeProblem({ customers: 40, seed, windows: true, hours: false, prize: 3, required: false, allowUnassigned: false });
      const { problem: p } = compileRequest(request);
      const budget = Budget.forSeconds(60, seed, 300, undefined, { identicalVehicles: { seedRoutes: 1 } });
      const score = evaluateSolution(p, hgs.solve(p, budget));
      expect(score.feasible).to.equal(true);
      expect(score.duplicated).to.deep.equal([]);
      expect(score.missing).to.deep.equal([]);
    }
  });
});
