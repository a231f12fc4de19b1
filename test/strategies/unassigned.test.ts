import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { unservedNodes } from "../../strategies/core/evaluate-rules.js";
import { findStrategy } from "../../strategies/registry.js";
import { selectStrategy } from "../../strategies/select.js";

/** Twelve customers on a grid around depot 0, two vehicles; windows wide open unless changed. */
function grid(extra: Record<string, unknown>): SolveRequestInput {
  const pos = [[50, 50], ...Array.from({ length: 12 }, (_, i) => [10 + 20 * (i % 4), 10 + 30 * Math.floor(i / 4)])];
  return {
    objective: "min_total_distance",
    node_num: pos.length,
    vehicle_num: 2,
    distance_matrix: pos.map((a) => pos.map((b) => Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!)))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: [10, 10],
    node_time_windows: pos.map(() => [0, 1000]),
    node_service_time: pos.map((_, i) => (i === 0 ? 0 : 5)),
    vehicle_speeds: [1, 1],
    ...extra,
  } as SolveRequestInput;
}

function solve(req: SolveRequestInput) {
  const { problem } = compileRequest(req);
  const strategy = selectStrategy(problem);
  expect(strategy.name).to.equal("hgs");
  const solution = strategy.solve(problem, Budget.forSeconds(60, 1, 200));
  return { problem, solution, score: evaluateSolution(problem, solution) };
}

describe("required customers the search cannot place, with allow_unassigned (general search)", function () {
  this.timeout(120_000);

  it("a window no vehicle can reach: that customer stays out, every other one is served, the solution is feasible", () => {
    const windows = grid({}).node_time_windows!.map((w, i) => (i === 5 ? [0, 1] : w));
    const { problem, solution, score } = solve(grid({ allow_unassigned: true, node_time_windows: windows }));
    expect(score.feasible).to.equal(true);
    expect(score.missing).to.deep.equal([5]);
    expect(unservedNodes(problem, solution).required).to.deep.equal([5]);
    expect(score.skipped).to.deep.equal([]);
  });

  it("a skill no vehicle has: that customer stays out; the others are served by vehicles with their skills", () => {
    const skills = Array.from({ length: 13 }, (_, i) => (i === 3 ? ["crane"] : i % 2 === 1 ? ["cold"] : null));
    const { score, solution } = solve(grid({ allow_unassigned: true, node_skills: skills, vehicle_skills: [["cold"], []] }));
    expect(score.feasible).to.equal(true);
    expect(score.missing).to.deep.equal([3]);
    for (const c of solution.routes[1]!) expect(c % 2, `customer ${c} needs cold`).to.equal(0);
  });

  it("without allow_unassigned the same request is not solved (the customer is missing: infeasible)", () => {
    const windows = grid({}).node_time_windows!.map((w, i) => (i === 5 ? [0, 1] : w));
    const { problem } = compileRequest(grid({ node_time_windows: windows, vehicle_max_stops: [6, 6] }));
    const solution = findStrategy("hgs").solve(problem, Budget.forSeconds(60, 1, 100));
    expect(evaluateSolution(problem, solution).feasible).to.equal(false);
  });

  it("optional customers whose penalty is below their cheapest insertion are skipped, the others served", () => {
    const penalties = Array.from({ length: 13 }, (_, i) => (i === 0 ? null : i <= 4 ? 1 : 1000));
    const { score } = solve(grid({ node_skip_penalties: penalties }));
    expect(score.feasible).to.equal(true);
    expect(score.skipped).to.deep.equal([1, 2, 3, 4]);
    expect(score.skipPenaltyTotal).to.equal(4);
  });
});
