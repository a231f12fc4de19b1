import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { alns } from "../../strategies/alns/index.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { regretInsertion } from "../../strategies/core/repair.js";
import { Rng } from "../../strategies/core/rng.js";
import { Workspace } from "../../strategies/core/workspace.js";
import { WorkspaceSearch } from "../../strategies/ils/workspace-search.js";
import { sweepSolution } from "../../strategies/sweep/index.js";
import { fleetArb, fleetInstance, scratchRouteCost } from "./fleet-problems.js";
import { arbitraryRequest } from "./random-problems.js";

/** Every cached score and route index of ws agrees with the evaluator and its route lists. */
function expectConsistent(ws: Workspace): void {
  const p = ws.p;
  ws.routes.forEach((route, v) => {
    expect(ws.scores[v]!.cost).to.be.closeTo(evaluateRoute(p, v, route).cost, 1e-6);
    for (const c of route) expect(ws.routeOf[c]).to.equal(v);
  });
  const placed = ws.routes.flat().concat(ws.unassigned);
  expect(placed.sort((a, b) => a - b)).to.deep.equal(Array.from(p.customers).sort((a, b) => a - b));
}

describe("the one local search on a Workspace (ALNS, sweep)", function () {
  this.timeout(120_000);

  it("prices every applied move as the evaluator does, and writes back only allowed routes that are no dearer", () => {
    let improved = 0;
    let moves = 0;
    fc.assert(
      fc.property(
        fc.oneof(fleetArb("none"), fleetArb("hard"), fleetArb("soft")),
        fc.integer({ min: 1, max: 1e6 }),
        fc.boolean(),
        (o, seed, weighted) => {
          const p = compileRequest(fleetInstance(o)).problem;
          const ws = new Workspace(p);
          const rng = new Rng(seed);
          // A poor start: customers in random order on random routes where they fit.
          for (const c of rng.shuffle(Array.from(p.customers))) {
            const v = rng.int(p.vehicleCount);
            const at = rng.int(ws.routes[v]!.length + 1);
            if (Number.isFinite(ws.insertionDelta(c, v, at))) ws.insert(c, v, at);
          }
          regretInsertion(ws, 2);
          if (weighted && p.time) ws.violationWeight = 1 + rng.int(20);
          const search = new WorkspaceSearch(p);
          search.ls.onCommit = (predicted, ra, rb) => {
            moves++;
            const now = search.rs.routes();
            const pen = search.rs.penalties;
            const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
            expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
          };
          const feasibleBefore = ws.isFeasible();
          const unassigned = ws.unassigned.slice().sort((a, b) => a - b);
          const before = ws.cost();
          const changed = search.educate(ws, rng, () => false);
          expectConsistent(ws);
          expect(ws.unassigned.slice().sort((a, b) => a - b)).to.deep.equal(unassigned);
          expect(ws.cost()).to.be.at.most(before + 1e-9);
          for (const s of ws.scores) expect(s.capacityExcess).to.be.at.most(1e-9);
          if (feasibleBefore && ws.violationWeight === 0) expect(ws.isFeasible()).to.equal(true);
          if (changed && ws.cost() < before - 1e-9) improved++;
        },
      ),
      { numRuns: 150, seed: 17 },
    );
    expect(moves, "moves were priced").to.be.greaterThan(500);
    expect(improved, "most random starts improve").to.be.greaterThan(75);
  });

  it("polishes routes to a local optimum of the moves within each route", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.boolean(), (seed, asymmetric) => {
        const p = oneVehicle(seed, asymmetric);
        const ws = new Workspace(p);
        const route = new Rng(seed).shuffle(Array.from(p.customers));
        for (const c of route) ws.insert(c, 0, ws.routes[0]!.length);
        if (!ws.isFeasible()) return;
        const before = ws.cost();
        new WorkspaceSearch(p).polishRoutes(ws);
        expectConsistent(ws);
        expect(ws.isFeasible()).to.equal(true);
        expect(ws.cost()).to.be.at.most(before + 1e-9);
        const best = evaluateRoute(p, 0, ws.routes[0]!).cost;
        for (const other of withinNeighbours(ws.routes[0]!))
          expect(evaluateRoute(p, 0, other).cost, `${other}`).to.be.at.least(best - 1e-7);
      }),
      { numRuns: 40, seed: 9 },
    );
  });

  it("gives feasible ALNS answers never worse than the savings construction it starts from", () => {
    let compared = 0;
    fc.assert(
      fc.property(arbitraryRequest(12), fc.integer({ min: 1, max: 1e6 }), (req, seed) => {
        const { problem } = compileRequest(req);
        if (!alns.supports(problem).ok) return;
        const solution = alns.solve(problem, Budget.forSeconds(5, seed, 60));
        const score = evaluateSolution(problem, solution);
        const start = evaluateSolution(problem, clarkeWrightSolution(problem));
        if (!start.feasible) return;
        compared++;
        expect(score.feasible).to.equal(true);
        expect(score.cost).to.be.at.most(start.cost + 1e-6);
      }),
      { numRuns: 60, seed: 5 },
    );
    expect(compared).to.be.greaterThan(20);
  });

  it("builds feasible sweep solutions no dearer than without the polish", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const p = withCoords(seed);
      const plain = evaluateSolution(p, sweepSolution(p, seed % 7, null));
      const polished = evaluateSolution(p, sweepSolution(p, seed % 7, new WorkspaceSearch(p)));
      expect(polished.feasible).to.equal(plain.feasible);
      expect(polished.cost).to.be.at.most(plain.cost + 1e-6);
    }
  });
});

/** One vehicle of ample capacity and 12 customers on a (possibly asymmetric) matrix. */
function oneVehicle(seed: number, asymmetric: boolean): CompiledProblem {
  const rng = new Rng(seed);
  const n = 13;
  const pos = Array.from({ length: n }, () => [rng.int(100), rng.int(100)]);
  const matrix = pos.map((a, i) =>
    pos.map((b, j) => (i === j ? 0 : Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) + (asymmetric ? rng.int(20) : 0)))),
  );
  return compileRequest({
    node_num: n,
    vehicle_num: 1,
    distance_matrix: matrix,
    node_positions: [],
    start_nodes: [0],
    end_nodes: [0],
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: [100],
  }).problem;
}

/** Every route one move within it away: a customer relocated, two swapped, a stretch reversed. */
function withinNeighbours(route: number[]): number[][] {
  const out: number[][] = [];
  const n = route.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const moved = route.filter((_, k) => k !== i);
      moved.splice(j, 0, route[i]!);
      out.push(moved);
      const swapped = route.slice();
      [swapped[i], swapped[j]] = [route[j]!, route[i]!];
      out.push(swapped);
      if (i < j) out.push(route.slice(0, i).concat(route.slice(i, j + 1).reverse(), route.slice(j + 1)));
    }
  }
  return out;
}

/** A CVRP with coordinates (the sweep needs them) and a few vehicles. */
function withCoords(seed: number): CompiledProblem {
  const rng = new Rng(seed);
  const n = 31;
  const positions = Array.from({ length: n }, (): [number, number] => [rng.int(100), rng.int(100)]);
  return compileRequest({
    node_num: n,
    vehicle_num: 5,
    distance_matrix: [],
    node_positions: positions,
    start_nodes: Array(5).fill(0),
    end_nodes: Array(5).fill(0),
    node_demands: positions.map((_, i) => (i === 0 ? 0 : 1 + rng.int(6))),
    vehicles_capacity: Array(5).fill(30),
  }).problem;
}
