import { expect } from "chai";
import fc from "fast-check";
import { compileRequest, DENSE_MATRIX_MAX_NODES } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { nearestNeighbours } from "../../strategies/core/neighbours.js";
import { distanceBetween, hasDenseMatrix, type CompiledProblem, type Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { large } from "../../strategies/large/index.js";
import { findStrategy } from "../../strategies/registry.js";
import { selectStrategy } from "../../strategies/select.js";
import { arbitraryRequest } from "./random-problems.js";

/** A capacity-only request given by coordinates on an integer lattice (so distances tie often). */
function positionsRequest(customers: number, vehicles: number, capacity: number, seed: number): SolveRequestInput {
  const rng = new Rng(seed);
  const n = customers + 1;
  const pos = Array.from({ length: n }, (_, i): [number, number] => (i === 0 ? [500, 500] : [rng.int(1000), rng.int(1000)]));
  return {
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: [],
    node_positions: pos,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1 + rng.int(9))),
    vehicles_capacity: Array(vehicles).fill(capacity),
  };
}

/** The same problem without its matrix: distances from the coordinates on demand. */
function withoutMatrix(p: CompiledProblem): CompiledProblem {
  return { ...p, dist: new Float64Array(0) };
}

function randomSolution(p: CompiledProblem, rng: Rng): Solution {
  const routes: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  for (const c of rng.shuffle(Array.from(p.customers))) routes[rng.int(p.vehicleCount)]!.push(c);
  return { routes };
}

describe("large problems: distances without a matrix, grid neighbours, the large strategy", function () {
  this.timeout(120_000);

  it("compiles a request above 3,000 nodes given by positions without a matrix, with the same distances", () => {
    const big = compileRequest(positionsRequest(DENSE_MATRIX_MAX_NODES, 300, 50, 1)).problem;
    expect(big.nodeCount).to.equal(DENSE_MATRIX_MAX_NODES + 1);
    expect(big.dist.length).to.equal(0);
    expect(hasDenseMatrix(big)).to.equal(false);
    const small = compileRequest(positionsRequest(400, 40, 50, 2)).problem;
    expect(hasDenseMatrix(small)).to.equal(true);
    const onDemand = withoutMatrix(small);
    for (let i = 0; i < small.nodeCount; i++) {
      for (let j = 0; j < small.nodeCount; j++) expect(distanceBetween(onDemand, i, j)).to.equal(small.dist[i * small.nodeCount + j]);
    }
  });

  it("scores every solution identically with the matrix and with on-demand distances (windows, costs, several depots)", () => {
    fc.assert(
      fc.property(
        arbitraryRequest(12).filter((r) => (r.node_positions ?? []).length > 0),
        fc.integer({ min: 1, max: 1e6 }),
        (request, seed) => {
          const dense = compileRequest(request).problem;
          const solution = randomSolution(dense, new Rng(seed));
          expect(evaluateSolution(withoutMatrix(dense), solution)).to.deep.equal(evaluateSolution(dense, solution));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds exactly the matrix's k nearest neighbours on the grid, ties by customer index", () => {
    for (const [customers, k] of [
      [600, 20],
      [300, 60],
      [50, 80],
    ] as const) {
      const dense = compileRequest(positionsRequest(customers, 40, 50, customers)).problem;
      const fromGrid = nearestNeighbours(withoutMatrix(dense), k);
      const fromMatrix = nearestNeighbours(dense, k);
      for (const c of dense.customers) expect(Array.from(fromGrid[c]!), `customer ${c}`).to.deep.equal(Array.from(fromMatrix[c]!));
    }
  });

  it("strategies that index the matrix refuse a matrix-less problem with the reason; the selection picks large", () => {
    const big = compileRequest(positionsRequest(3500, 800, 40, 3)).problem;
    for (const name of ["alns", "hgs", "sweep"]) {
      const support = findStrategy(name).supports(big);
      expect(support.ok, name).to.equal(false);
      if (!support.ok) expect(support.reason).to.match(/needs the full distance matrix, which is not built for 3501 nodes/);
    }
    expect(large.supports(big).ok).to.equal(true);
    expect(selectStrategy(big).name).to.equal("large");
  });

  it(
    "solves 3,500 customers without a matrix: feasible by the evaluator, cheaper " + "than its savings start, every improvement reported",
    () => {
      const p = compileRequest(positionsRequest(3500, 800, 40, 4)).problem;
      const savings = evaluateSolution(p, clarkeWrightSolution(p));
      expect(savings.feasible).to.equal(true);
      // The search passes the savings within about a second; three leave room for a busy machine.
      const budget = Budget.forSeconds(3, 1);
      const reported: number[] = [];
      budget.onImprovement((s) => reported.push(evaluateSolution(p, s).cost));
      const solution = large.solve(p, budget);
      const score = evaluateSolution(p, solution);
      expect(score.feasible).to.equal(true);
      expect(score.missing).to.deep.equal([]);
      expect(score.cost).to.be.lessThan(savings.cost);
      expect(reported.length).to.be.greaterThan(1);
      for (let i = 1; i < reported.length; i++) expect(reported[i]!).to.be.lessThan(reported[i - 1]!);
      expect(reported[reported.length - 1]).to.be.closeTo(score.cost, 1e-6);
    },
  );

  it("refuses problems its sub-problems do not carry yet (route limits, pickups), in English", () => {
    const base = positionsRequest(50, 5, 40, 5);
    const limited = compileRequest({ ...base, vehicle_max_stops: [20, 20, 20, 20, 20] } as SolveRequestInput).problem;
    const limits = large.supports(limited);
    expect(limits.ok).to.equal(false);
    if (!limits.ok)
      expect(limits.reason).to.equal(
        "the large strategy cannot take this request: it does not take optional stops, skills, shifts or route limits yet",
      );
    const pickups = compileRequest({ ...base, node_pickups: base.node_demands.map(() => 0) } as SolveRequestInput).problem;
    const loads = large.supports(pickups);
    expect(loads.ok).to.equal(false);
    if (!loads.ok)
      expect(loads.reason).to.equal(
        "the large strategy cannot take this request: it does not take pickups, shipments or extra load dimensions yet",
      );
    // Mixed fleets are its own now (rich-decomposition.test.ts).
    expect(large.supports(compileRequest({ ...base, vehicles_capacity: [40, 40, 40, 40, 30] }).problem).ok).to.equal(true);
  });
});
