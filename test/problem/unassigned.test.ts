import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import { formatResult } from "../../src/problem/format-result.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { judgeSolution } from "../../src/problem/route-rules.js";
import { violationReasons } from "../../src/problem/violations.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { Solution } from "../../strategies/core/problem.js";
import { checkDistanceResult } from "../../checker/check-result.js";

/** Depot 0 and five customers on a line, 10 apart (node i at 10 i); two vehicles, speed 1, wide windows. */
function line(extra: Partial<SolveRequestInput> = {}): SolveRequestInput {
  const pos = [0, 10, 20, 30, 40, 50];
  return {
    node_num: 6,
    vehicle_num: 2,
    distance_matrix: pos.map((a) => pos.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1, 1, 1],
    vehicles_capacity: [10, 10],
    node_time_windows: pos.map(() => [0, 1000] as [number, number]),
    node_service_time: pos.map(() => 0),
    vehicle_speeds: [1, 1],
    ...extra,
  };
}

const META = {
  requestId: "t",
  solveSeconds: 0,
  strategy: "test",
  warnings: [],
  baseStartSeconds: 9 * 3600,
  seed: 1,
  iterations: 0,
  solverVersion: "t",
};

function result(req: SolveRequestInput, solution: Solution) {
  const { problem } = compileRequest(req);
  const proven = infeasibilities(problem, undefined, req);
  return formatResult(problem, solution, evaluateSolution(problem, solution), { ...META, proven });
}

describe("the pre-check of optional stops, skills, shifts and route limits (src/problem/service-diagnostics.ts)", () => {
  it("proves a node no vehicle has the skills for, naming the skills and the closest vehicle", () => {
    const req = line({ node_skills: [null, ["cold", "lift"], null, null, null, null], vehicle_skills: [["cold"], []] });
    const found = infeasibilities(compileRequest(req).problem, undefined, req);
    expect(found).to.deep.equal([
      {
        kind: "no_vehicle_with_skills",
        message: 'node 1 needs the skills ["cold","lift"], which no vehicle has all of (vehicle 0, the closest, lacks ["lift"])',
        node: 1,
        evidence: { required_skills: ["cold", "lift"], missing_skills: ["lift"], vehicle: "Vehicle 0" },
      },
    ]);
  });

  it("counts only the capacities of the vehicles with a node's skills", () => {
    const req = line({
      vehicles_capacity: [3, 10],
      node_demands: [0, 5, 1, 1, 1, 1],
      node_skills: [null, ["cold"], null, null, null, null],
      vehicle_skills: [["cold"], null],
    });
    const [reason] = infeasibilities(compileRequest(req).problem, undefined, req);
    expect(reason).to.deep.equal({
      kind: "demand_exceeds_capacity",
      message: "node 1 demand 5 exceeds the largest capacity of the vehicles with its skills 3 by 2",
      node: 1,
      evidence: { demand: 5, largest_capacity: 3, excess: 2 },
    });
  });

  it("proves a shift too short to reach a node and come back, per vehicle allowed for it", () => {
    // Node 5 is 50 away: a 100-minute round trip. Vehicle 0's shift is 90 minutes; vehicle 1 may not serve it.
    const req = line({
      vehicle_time_windows: [
        [0, 90],
        [0, 1000],
      ],
      node_skills: [null, null, null, null, null, ["x"]],
      vehicle_skills: [["x"], []],
    });
    const found = infeasibilities(compileRequest(req).problem, undefined, req);
    expect(found).to.deep.equal([
      {
        kind: "shift_too_short",
        message:
          "node 5 cannot be served within the shift of any vehicle allowed to serve it, " +
          "even driving there and back alone: vehicle 0 (shift [0, 90]) misses by 10 min " +
          "at best, back at 100 at the earliest",
        node: 5,
        evidence: { earliest_return: 100, shift_start: 0, shift_end: 90, late_by: 10, vehicle: "Vehicle 0" },
      },
    ]);
    // With vehicle 1 allowed too (no skills), the shift no longer rules it out.
    const { node_skills: _skills, ...open } = req;
    expect(infeasibilities(compileRequest(open).problem, undefined, open)).to.deep.equal([]);
  });

  it("proves a node beyond every vehicle's distance cap, out and back", () => {
    const req = line({ vehicle_max_distance: [90, 95] });
    const found = infeasibilities(compileRequest(req).problem, undefined, req);
    expect(found.map((i) => [i.kind, i.node, i.evidence])).to.deep.equal([
      ["distance_limit", 5, { round_trip_distance: 100, max_distance: 95, vehicle: "Vehicle 1" }],
    ]);
    expect(found[0]!.message).to.equal(
      "node 5 is farther than the distance cap of every vehicle allowed to serve it: " +
        "the shortest trip there and back, by vehicle 1, is 100 against its vehicle_max_distance 95",
    );
  });

  it("uses each vehicle's own working hours", () => {
    const req = line({ max_working_hours: 10, vehicle_max_working_hours: [1.5, 1.6] });
    const found = infeasibilities(compileRequest(req).problem, undefined, req);
    expect(found.map((i) => [i.kind, i.node, i.evidence])).to.deep.equal([
      ["working_hours_too_short", 5, { round_trip_minutes: 100, cap_minutes: 96, vehicle: "Vehicle 1" }],
    ]);
    // The request-wide 10 h alone rules out nothing.
    const wide = line({ max_working_hours: 10 });
    expect(infeasibilities(compileRequest(wide).problem, undefined, wide)).to.deep.equal([]);
  });

  it("proves too few stops for the customers that must be served, counting optional ones out", () => {
    const req = line({ vehicle_max_stops: [2, 2] });
    const [reason] = infeasibilities(compileRequest(req).problem, undefined, req);
    expect(reason).to.deep.equal({
      kind: "stops_limit",
      message: "5 customers must be served but the vehicles may visit at most 4 together (vehicle_max_stops)",
      evidence: { customers: 5, total_max_stops: 4 },
    });
    const optional = { ...req, node_skip_penalties: [null, 1, null, null, null, null] };
    expect(infeasibilities(compileRequest(optional).problem, undefined, optional)).to.deep.equal([]);
  });

  it("flags the reasons of customers that may be left out (they do not fail the task)", () => {
    const req = line({ vehicle_max_distance: [90, 90], node_skip_penalties: [null, null, null, null, null, 3] });
    expect(infeasibilities(compileRequest(req).problem, undefined, req).map((i) => i.may_be_unassigned)).to.deep.equal([true]);
    const required = line({ vehicle_max_distance: [90, 90] });
    expect(infeasibilities(compileRequest(required).problem, undefined, required)[0]).to.not.have.property("may_be_unassigned");
    const allowed = { ...required, allow_unassigned: true };
    expect(infeasibilities(compileRequest(allowed).problem, undefined, allowed)[0]!.may_be_unassigned).to.equal(true);
  });
});

describe("unassigned and skip_penalty_total in the result (src/problem/format-result.ts, unassigned.ts)", () => {
  it("lists every unserved customer ascending with its reason and puts the penalties in total_cost", () => {
    const req = line({
      node_skip_penalties: [null, null, null, 5, 100, null],
      allow_unassigned: true,
      node_skills: [null, null, ["lift"], null, null, null],
      vehicle_max_distance: [90, 90],
    });
    // Route 0 -> 1 -> 0 (20); 2 has no vehicle with skills, 3 and 4 optional, 5 beyond every cap.
    const r = result(req, { routes: [[1], []] });
    expect(r.unassigned!.map((u) => [u.node, u.reason])).to.deep.equal([
      [2, "no_vehicle_with_skills"],
      [3, "skipped_cheaper"],
      [4, "skipped_cheaper"],
      [5, "distance_limit"],
    ]);
    // 3 costs 40 more on vehicle 0 (0-1-3-0 = 60 against 20), more than its penalty 5; 4 costs 60, less than its 100.
    expect(r.unassigned![1]).to.deep.equal({
      node: 3,
      reason: "skipped_cheaper",
      message:
        "node 3 is optional and was left out: its skip penalty 5 is less than the 40 its " +
        "cheapest feasible insertion into this plan would add",
      evidence: { skip_penalty: 5, insertion_cost: 40 },
    });
    expect(r.unassigned![2]!.evidence).to.deep.equal({ skip_penalty: 100, insertion_cost: 60 });
    expect(r.skip_penalty_total).to.equal(105);
    expect(r.total_cost).to.equal(20 + 105);
    expect(r.route_details["Vehicle 0"]).to.include({ cost: 20, stops: 1, max_stops: null, max_distance: 90, shift: null });
    checkDistanceResult(req, r);
  });

  it("names stops_limit when every vehicle allowed for a node is full", () => {
    const req = line({ allow_unassigned: true, vehicle_max_stops: [2, 2] });
    const r = result(req, {
      routes: [
        [1, 2],
        [3, 4],
      ],
    });
    expect(r.unassigned).to.deep.equal([
      {
        node: 5,
        reason: "stops_limit",
        message:
          "node 5 was left out: every vehicle allowed to serve it already visits its vehicle_max_stops (2 vehicle(s), 4 stops in all)",
        evidence: { allowed_vehicles: 2, total_max_stops: 4 },
      },
    ]);
  });

  it("is exactly the version 1 result for a request without the fields (no new keys, same numbers)", () => {
    const req = line();
    const r = result(req, {
      routes: [
        [1, 2, 3],
        [4, 5],
      ],
    });
    expect(r).to.not.have.any.keys("unassigned", "skip_penalty_total");
    expect(r.route_details["Vehicle 0"]).to.not.have.any.keys("stops", "max_stops", "max_distance", "shift");
    expect(r.total_cost).to.equal(60 + 100);
    expect(Object.keys(r).sort()).to.deep.equal(
      [
        "status",
        "success",
        "error",
        "total_cost",
        "routes",
        "distances",
        "loads",
        "time_windows",
        "time",
        "request_id",
        "strategy",
        "total_distance",
        "lateness_minutes",
        "lateness_penalty",
        "warnings",
        "seed",
        "iterations",
        "solver_version",
        "route_details",
      ].sort(),
    );
  });

  it("judges a plan: required customers out only under allow_unassigned, rules kept on every route", () => {
    const req = line({ node_skip_penalties: [null, 1, null, null, null, null], vehicle_max_stops: [3, 3] });
    const { problem } = compileRequest(req);
    const judge = (routes: number[][]) => judgeSolution(problem, { routes }, evaluateSolution(problem, { routes })).feasible;
    expect(judge([[2, 3, 4], [5]])).to.equal(true); // 1 optional, left out
    expect(judge([[2, 3], [5]])).to.equal(false); // 4 required
    expect(judge([[1, 2, 3, 4], [5]])).to.equal(false); // 4 stops on vehicle 0
    const allowed = compileRequest({ ...req, allow_unassigned: true }).problem;
    expect(judgeSolution(allowed, { routes: [[2, 3], [5]] }, evaluateSolution(allowed, { routes: [[2, 3], [5]] })).feasible).to.equal(true);
  });

  it("fails a plan without allow_unassigned with a message naming the rule that keeps a required customer out", () => {
    const req = line({ vehicle_max_stops: [2, 2] });
    const { problem } = compileRequest(req);
    const solution = {
      routes: [
        [1, 2],
        [3, 4],
      ],
    };
    const why = violationReasons(problem, evaluateSolution(problem, solution), { solution, proven: [] });
    expect(why).to.deep.equal([
      "1 customer(s) that must be served could not be placed on any route under the " +
        "hard constraints (node 5 was left out: every vehicle allowed to serve it " +
        "already visits its vehicle_max_stops (2 vehicle(s), 4 stops in all); " +
        "allow_unassigned would return the rest of the plan)",
    ]);
    const broken = {
      routes: [
        [1, 2, 3],
        [4, 5],
      ],
    };
    expect(violationReasons(problem, evaluateSolution(problem, broken), { solution: broken, proven: [] })).to.deep.equal([
      "stop caps exceeded on 1 route(s) (vehicle 0 visits 3 customers against its vehicle_max_stops 2)",
    ]);
  });
});
