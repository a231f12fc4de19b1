import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import { unservedNodes } from "../../strategies/core/evaluate-rules.js";

/** A line: depot 0 at x = 0, customers 1..4 at x = 10, 20, 30, 40; two vehicles. */
function line(extra: ConstraintFields & Partial<SolveRequestInput> = {}): SolveRequestInput {
  const xs = [0, 10, 20, 30, 40];
  return {
    objective: "min_total_distance",
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: xs.map((a) => xs.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1, 1],
    vehicles_capacity: [10, 10],
    node_time_windows: [
      [0, 500],
      [0, 500],
      [0, 500],
      [0, 500],
      [0, 500],
    ],
    node_service_time: [0, 5, 5, 5, 5],
    vehicle_speeds: [1, 1],
    ...extra,
  } as SolveRequestInput;
}

const problem = (extra: ConstraintFields & Partial<SolveRequestInput> = {}) => compileRequest(line(extra)).problem;

describe("the evaluator under optional stops, skills, shifts and route limits (evaluate-rules.ts)", () => {
  it("prices unserved optional customers and reports them apart; a missing required one is infeasible", () => {
    const p = problem({ node_skip_penalties: [null, 7, 9, null, null] });
    const score = evaluateSolution(p, { routes: [[3, 4], []] });
    expect(score.skipped).to.deep.equal([1, 2]);
    expect(score.skipPenaltyTotal).to.equal(16);
    expect(score.cost).to.equal(80 + 16);
    expect(score.missing).to.deep.equal([]);
    expect(score.feasible).to.equal(true);
    const missingRequired = evaluateSolution(p, { routes: [[4], []] });
    expect(missingRequired.missing).to.deep.equal([3]);
    expect(missingRequired.feasible).to.equal(false);
    expect(unservedNodes(p, { routes: [[4], []] })).to.deep.equal({ skipped: [1, 2], required: [3], skipPenaltyTotal: 16 });
  });

  it("allow_unassigned: a missing required customer leaves the solution feasible with it reported missing", () => {
    const p = problem({ allow_unassigned: true });
    const score = evaluateSolution(p, { routes: [[1, 2, 3], []] });
    expect(score.missing).to.deep.equal([4]);
    expect(score.skipPenaltyTotal).to.equal(0);
    expect(score.cost).to.equal(60);
    expect(score.feasible).to.equal(true);
  });

  it("skills: a customer on a vehicle without its skill makes the route infeasible", () => {
    const p = problem({ node_skills: [null, ["cold"], null, null, null], vehicle_skills: [[], ["cold"]] });
    expect(evaluateRoute(p, 0, [1, 2]).forbidden).to.equal(1);
    expect(evaluateRoute(p, 0, [1, 2]).feasible).to.equal(false);
    expect(evaluateRoute(p, 1, [1, 2]).feasible).to.equal(true);
  });

  it("shifts: departure no earlier than the shift start, arrival back no later than its end", () => {
    const p = problem({ vehicle_time_windows: [[100, 200], null] });
    const early = evaluateRoute(p, 0, [1]);
    expect(early.departureMin).to.equal(100);
    expect(early.durationMin).to.equal(25);
    expect(early.feasible).to.equal(true);
    // 4 customers: 80 driving + 20 service = 100 minutes; 100 + 100 = 200 fits exactly, one more minute would not.
    expect(evaluateRoute(p, 0, [1, 2, 3, 4]).feasible).to.equal(true);
    const tight = problem({ vehicle_time_windows: [[100, 199], null] });
    const late = evaluateRoute(tight, 0, [1, 2, 3, 4]);
    expect(late.lateMinutes).to.be.closeTo(1, 1e-9);
    expect(late.feasible).to.equal(false);
    // Vehicle 1 has no shift: the depot's window alone.
    expect(evaluateRoute(tight, 1, [1, 2, 3, 4]).departureMin).to.equal(0);
    // A customer opening at 150: the shift start moves the departure, the wait stays out of the duration.
    const opening = problem({
      vehicle_time_windows: [[100, 400], null],
      node_time_windows: [
        [0, 500],
        [150, 500],
        [0, 500],
        [0, 500],
        [0, 500],
      ],
    });
    const waited = evaluateRoute(opening, 0, [1]);
    expect(waited.departureMin).to.equal(140);
    expect(waited.durationMin).to.equal(25);
  });

  it("distance, working hours and stops caps per vehicle", () => {
    const p = problem({ vehicle_max_distance: [50, null], vehicle_max_working_hours: [1, null], vehicle_max_stops: [2, null] });
    const r = evaluateRoute(p, 0, [1, 2, 3]);
    expect(r.distanceExcess).to.equal(10);
    expect(r.durationExcessMin).to.equal(15);
    expect(r.stopsExcess).to.equal(1);
    expect(r.feasible).to.equal(false);
    expect(evaluateRoute(p, 0, [1, 2]).feasible).to.equal(true);
    expect(evaluateRoute(p, 1, [1, 2, 3, 4]).feasible).to.equal(true);
  });

  it("a request without the fields evaluates as before: no rules, nothing skipped, same numbers", () => {
    const p = problem();
    expect(p.rules ?? null).to.equal(null);
    const score = evaluateSolution(p, {
      routes: [
        [1, 2],
        [3, 4],
      ],
    });
    expect(score.cost).to.equal(40 + 80);
    expect(score.skipped).to.deep.equal([]);
    expect(evaluateSolution(p, { routes: [[1, 2], [3]] }).missing).to.deep.equal([4]);
    expect(evaluateSolution(p, { routes: [[1, 2], [3]] }).feasible).to.equal(false);
  });
});
