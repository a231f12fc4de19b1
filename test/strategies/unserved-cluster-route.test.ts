import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { hgs } from "../../strategies/hgs/index.js";
import { ClusterRoute } from "../../strategies/search/moves/unserved-cluster-route.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { scratchRouteCost } from "./fleet-problems.js";
import { modelOf, penaltyArb, prizeProblem, scratchTotal } from "./prize-problems.js";

/**
 * Customers 1..near around the depot (on a line through it), then `far` customers in a tight
 * group far away with wide windows: each far one alone costs more than its prize to reach, the
 * group together less. Every customer optional; `vehicles` identical vehicles.
 */
function farCluster(near: number, far: number, prize: number, vehicles: number): SolveRequestInput {
  const pos: [number, number][] = [[0, 0]];
  for (let i = 0; i < near; i++) pos.push([5 + 3 * i, 0]);
  for (let i = 0; i < far; i++) pos.push([200 + (i % 4), 200 + Math.floor(i / 4)]);
  const n = pos.length;
  const matrix = pos.map((a) => pos.map((b) => Math.floor(10 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 10));
  return {
    objective: "min_total_distance",
    node_num: n,
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

const arb = fc.record({
  customers: fc.integer({ min: 4, max: 45 }),
  seed: fc.integer({ min: 1, max: 1e6 }),
  windows: fc.boolean(),
  hours: fc.boolean(),
  prize: fc.constantFrom(0.3, 1, 3, 10, 30, 100),
  required: fc.boolean(),
  allowUnassigned: fc.constant(false),
});

describe("a route for a cluster of unserved optional customers (moves/unserved-cluster-route.ts)", function () {
  this.timeout(300_000);

  it(
    "opens a route only when it serves unserved customers within every constraint " +
      "for less than their skip prices; its price is the evaluator's, the other routes stay",
    () => {
      let opened = 0;
      let refused = 0;
      fc.assert(
        fc.property(arb, penaltyArb, fc.integer({ min: 1, max: 60 }), (o, pen, limit) => {
          const { problem: p } = compileRequest(prizeProblem(o));
          const m = modelOf(p);
          // Windows that cannot bind become an additive duration cap: that model prices them too.
          const rng = new Rng(o.seed);
          const ls = LocalSearch.identicalVehicles(m);
          ls.penalties = pen;
          const lists: number[][] = Array.from({ length: m.routes }, () => []);
          // Vehicle `empty` gets nothing: the route to open.
          const empty = rng.int(m.routes);
          for (const c of rng.shuffle(Array.from(m.customers))) {
            if (m.skipPrice![c] !== Number.POSITIVE_INFINITY && rng.next() < 0.6) continue;
            let v = rng.int(m.routes);
            if (v === empty) v = (v + 1) % m.routes;
            if (v !== empty) lists[v]!.push(c);
          }
          ls.loadRoutes(lists);
          const unserved = Array.from(m.customers).filter((c) => ls.rs.routeOf[c]! < 0);
          if (unserved.length === 0 || m.routes < 2) return;
          const seed = unserved[rng.int(unserved.length)]!;
          const before = ls.routes();
          const totalBefore = ls.totalCost();
          const gain = new ClusterRoute(ls).open(seed, empty, limit);
          const after = ls.routes();
          for (let v = 0; v < m.routes; v++) if (v !== empty) expect(after[v], `route ${v} untouched`).to.deep.equal(before[v]);
          for (const c of m.customers) if (ls.rs.routeOf[c]! >= 0) expect(after[ls.rs.routeOf[c]!]![ls.rs.pos[c]! - 1]).to.equal(c);
          expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, pen, after), 1e-6 * Math.max(1, totalBefore));
          if (gain === 0) {
            refused++;
            expect(after[empty]).to.deep.equal([]);
            expect(ls.totalCost()).to.be.closeTo(totalBefore, 1e-9 * Math.max(1, totalBefore));
            return;
          }
          opened++;
          const route = after[empty]!;
          expect(route).to.include(seed);
          expect(route.length).to.be.at.most(limit);
          for (const c of route) expect(unserved, `customer ${c} was unserved`).to.include(c);
          // Within every constraint: the evaluator sees no excess, so the price is distance alone.
          const score = evaluateRoute(p, empty, route);
          expect(score.capacityExcess).to.equal(0);
          expect(score.lateMinutes).to.equal(0);
          expect(score.durationExcessMin).to.equal(0);
          const price = scratchRouteCost(p, empty, pen, route);
          expect(ls.rs.cost[empty]).to.be.closeTo(price, 1e-6 * Math.max(1, price));
          expect(price).to.be.closeTo(p.fixedCost[empty]! + p.unitCost[empty]! * score.distance, 1e-6 * Math.max(1, price));
          // It gains at least what it says (a customer is worth at most its skip price there).
          const prizes = route.reduce((sum, c) => sum + m.skipPrice![c]!, 0);
          expect(gain).to.be.at.most(prizes - price + 1e-6);
          expect(ls.totalCost()).to.be.at.most(totalBefore - gain + 1e-6 * Math.max(1, totalBefore));
        }),
        { numRuns: 400, seed: 2121 },
      );
      expect(opened, "routes opened").to.be.greaterThan(20);
      expect(refused, "routes refused").to.be.greaterThan(20);
    },
  );

  it(
    "opens a route for a far group that pays together, not for one far customer, and " + "not for customers a passing route takes for less",
    () => {
      const { problem: p } = compileRequest(farCluster(6, 12, 60, 3));
      const m = modelOf(p);
      const ls = LocalSearch.identicalVehicles(m);
      ls.penalties = { load: 10, duration: 10, timeWarp: 10 };
      ls.loadRoutes([[1, 2, 3, 4, 5, 6]]);
      const cluster = new ClusterRoute(ls);
      // Alone, the first far customer (about 2 x 283 away) is worth 60: refused; the twelve together (720) pay.
      expect(cluster.open(7, 1, 1)).to.equal(0);
      expect(ls.rs.length[1]).to.equal(0);
      const gain = cluster.open(7, 1, 20);
      expect(gain).to.be.greaterThan(0);
      expect(
        ls
          .routes()[1]!
          .slice()
          .sort((a, b) => a - b),
      ).to.deep.equal(Array.from({ length: 12 }, (_, i) => 7 + i));
      expect(ls.totalCost()).to.be.closeTo(scratchTotal(p, m, ls.penalties, ls.routes()), 1e-6);

      // The near customers unserved, and a route through them: another route for them is refused,
      // since the passing route takes each for less than a route of their own costs.
      const near = compileRequest(farCluster(8, 0, 100, 3)).problem;
      const mn = modelOf(near);
      const lsn = LocalSearch.identicalVehicles(mn);
      lsn.penalties = { load: 10, duration: 10, timeWarp: 10 };
      lsn.loadRoutes([[1, 3, 5, 7]]);
      expect(new ClusterRoute(lsn).open(2, 1, 20)).to.equal(0);
    },
  );

  it("hgs serves a far group that pays: the evaluator's solution is feasible and cheaper than leaving it", () => {
    const { problem: p } = compileRequest(farCluster(10, 16, 60, 4));
    const solution = hgs.solve(p, Budget.forSeconds(5, 1, 400));
    const score = evaluateSolution(p, solution);
    expect(score.feasible).to.equal(true);
    const served = new Set(solution.routes.flat());
    for (let c = 11; c <= 26; c++) expect(served.has(c), `far customer ${c} served`).to.equal(true);
  });
});
