import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tightFleetInstance } from "../../bench/tight-fleet-generator.js";
import { scaledRequest } from "../../bench/scale-request.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { restoreFeasibility, solveFeasibly } from "../../strategies/core/feasibility.js";
import { packFleet } from "../../strategies/core/fleet-packing.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { hgs } from "../../strategies/hgs/index.js";
import { stubSearch } from "./stub-strategy.js";

const example = JSON.parse(readFileSync(join(REPO_ROOT, "examples/small-cvrp.json"), "utf8")) as SolveRequestInput;

/** Demands that only one packing fits (100% of the capacity), with positions that pull the other way. */
function exactPacking(): CompiledProblem {
  const demands = [0, 6, 5, 5, 4, 4, 3, 3];
  const pos = demands.map((_, i) => [i * 10, 0]);
  return compileRequest({
    node_num: demands.length,
    vehicle_num: 3,
    node_positions: pos,
    distance_matrix: [],
    start_nodes: [0, 0, 0],
    end_nodes: [0, 0, 0],
    node_demands: demands,
    vehicles_capacity: [10, 10, 10],
  }).problem;
}

describe("the feasibility phase (core/feasibility.ts)", () => {
  it("packs demands into the actual vehicles when only an exact packing fits", () => {
    const p = exactPacking();
    const vehicleOf = packFleet(p, new Rng(1), () => false);
    expect(vehicleOf).to.not.equal(null);
    const loads = [0, 0, 0];
    for (const c of p.customers) loads[vehicleOf![c]!] = loads[vehicleOf![c]!]! + p.demand[c]!;
    expect(loads).to.deep.equal([10, 10, 10]);
  });

  it("turns an overloaded solution into a feasible one, checked by the evaluator", () => {
    const p = exactPacking();
    const overloaded: Solution = {
      routes: [
        [1, 2, 3],
        [4, 5],
        [6, 7],
      ],
    };
    expect(evaluateSolution(p, overloaded).feasible).to.equal(false);
    const repaired = restoreFeasibility(p, Budget.forSeconds(2, 1), overloaded);
    expect(repaired).to.not.equal(null);
    expect(evaluateSolution(p, repaired!).feasible).to.equal(true);
  });

  it("finds a feasible solution for every generated tight fleet (80-95% of capacity, mixed types) on its own", function () {
    this.timeout(60_000);
    for (let i = 0; i < 20; i++) {
      const { problem } = compileRequest(tightFleetInstance(i).request);
      const found = restoreFeasibility(problem, Budget.forSeconds(2, 1));
      expect(found, `tight-${i + 1}`).to.not.equal(null);
      expect(evaluateSolution(problem, found!).feasible, `tight-${i + 1}`).to.equal(true);
    }
  });

  it("repairs the end of a strategy that never finds a feasible solution, and hands the rest of the budget back to it", () => {
    const p = exactPacking();
    const starts: (Solution | undefined)[] = [];
    // Everyone on the first vehicle, whatever it is given: never feasible, never reported.
    const stubborn = stubSearch("stubborn", (problem, budget, initial) => {
      starts.push(initial);
      while (!budget.tick());
      return { routes: [Array.from(problem.customers), [], []] };
    });
    const budget = new Budget(performance.now() + 60_000, 1, 1000);
    const answer = solveFeasibly(stubborn, p, budget);
    expect(evaluateSolution(p, answer).feasible).to.equal(true);
    // Stopped at the checkpoint (half of the 1,000 iterations), then given the repaired solution.
    expect(starts).to.have.length(2);
    expect(starts[0]).to.equal(undefined);
    expect(evaluateSolution(p, starts[1]!).feasible).to.equal(true);
    expect(budget.iterationCount).to.equal(1000);
  });

  it("lets a search that finds its first feasible solution late go on when the phase finds none at the checkpoint", () => {
    // Three demands of 6 into two vehicles of 10: no packing exists, so the phase finds nothing.
    const p = compileRequest({
      node_num: 4,
      vehicle_num: 2,
      distance_matrix: [
        [0, 1, 1, 1],
        [1, 0, 1, 1],
        [1, 1, 0, 1],
        [1, 1, 1, 0],
      ],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: [0, 6, 6, 6],
      vehicles_capacity: [10, 10],
    }).problem;
    let calls = 0;
    const late = stubSearch("late", (_problem, budget) => {
      calls++;
      const s = { routes: [[1, 2], [3]] };
      while (!budget.tick()) if (budget.iterationCount === 700) budget.improved(s);
      return s;
    });
    const budget = new Budget(performance.now() + 60_000, 1, 1000);
    solveFeasibly(late, p, budget);
    expect(calls).to.equal(1);
    expect(budget.iterationCount).to.equal(1000);
  });

  it("does not interrupt a search that has reported a feasible solution", () => {
    const p = exactPacking();
    let calls = 0;
    const reporting = stubSearch("reporting", (_problem, budget) => {
      calls++;
      const s = {
        routes: [
          [1, 4],
          [2, 3],
          [5, 6, 7],
        ],
      };
      budget.improved(s);
      while (!budget.tick());
      return s;
    });
    const budget = new Budget(performance.now() + 60_000, 1, 400);
    solveFeasibly(reporting, p, budget);
    expect(calls).to.equal(1);
    expect(budget.iterationCount).to.equal(400);
  });
});

describe("scale-free prices of infeasibility", () => {
  for (const factor of [100_000, 0.001]) {
    it(`let hgs alone solve examples/small-cvrp.json with every distance x ${factor}, seeds 1-6`, () => {
      const { problem } = compileRequest(scaledRequest(example, factor));
      for (let seed = 1; seed <= 6; seed++) {
        const solution = hgs.solve(problem, new Budget(performance.now() + 20_000, seed, 3000));
        const score = evaluateSolution(problem, solution);
        expect(score.feasible, `seed ${seed}`).to.equal(true);
        // Same routes as unscaled: the optimum (70) times the factor.
        expect(score.cost / factor, `seed ${seed}`).to.be.closeTo(70, 1e-6);
      }
    });
  }
});
