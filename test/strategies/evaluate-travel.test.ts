import { expect } from "chai";
import { evaluateRoute, evaluateSolution, type RouteSchedule } from "../../strategies/core/evaluator.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { violationReasons } from "../../src/problem/violations.js";
import { lateAt, serviceBegin, windowEndAt } from "../../strategies/core/travel.js";
import { checkTravelResult, type TravelRequest, type TravelResult } from "../../checker/check-travel.js";

type Request = SolveRequestInput & ConstraintFields;
const square = (n: number, f: (i: number, j: number) => number) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => f(i, j)));

/**
 * Depot 0 and customers 1..3 on a line, 10 distance units apart; speed 1 (10 minutes a hop) unless
 * a duration matrix says otherwise; service 5 minutes; wide windows.
 */
function request(extra: Partial<Request> = {}): Request {
  return {
    node_num: 4,
    vehicle_num: 2,
    distance_matrix: square(4, (i, j) => 10 * Math.abs(i - j)),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [5, 5],
    node_time_windows: square(4, (_, j) => (j === 0 ? 0 : 1000)),
    node_service_time: [0, 5, 5, 5],
    vehicle_speeds: [1, 1],
    ...extra,
  } as Request;
}

/** A matrix of travel minutes that is not proportional to distance: 7 from the depot, 3 between customers. */
const ODD = square(4, (i, j) => (i === j ? 0 : i === 0 || j === 0 ? 7 : 3));

function score(req: Request, v: number, route: number[]) {
  const { problem } = compileRequest(req);
  const schedule: RouteSchedule = { nodes: [], arrive: [], leave: [], loads: [] };
  return { score: evaluateRoute(problem, v, route, route.length, schedule), schedule, problem };
}

describe("the evaluator with the travel fields", () => {
  it("without them, scores as before: 10 minutes a hop, no breaks, the end node last", () => {
    const { score: s, schedule } = score(request(), 0, [1, 2]);
    expect(s.distance).to.equal(40);
    expect(schedule.arrive).to.deep.equal([0, 10, 25, 50]);
    expect(s.durationMin).to.equal(50);
    expect(s.timeCost).to.equal(undefined);
  });

  it("duration_matrix: travel minutes from the matrix, distance from distance_matrix", () => {
    const { score: s, schedule } = score(request({ vehicle_speeds: undefined, duration_matrix: ODD }), 0, [1, 2, 3]);
    expect(s.distance).to.equal(60);
    expect(schedule.arrive).to.deep.equal([0, 7, 15, 23, 35]);
    expect(s.durationMin).to.equal(35);
    expect(s.feasible).to.equal(true);
  });

  it("profiles: each vehicle drives on its own network; a profile without a matrix uses the request's", () => {
    const req = request({
      profiles: { bike: { distance_matrix: square(4, (i, j) => (i === j ? 0 : 4)), duration_matrix: ODD }, slow: {} },
      vehicle_profiles: ["bike", "slow"],
    });
    const bike = score(req, 0, [1, 3]);
    expect(bike.score.distance).to.equal(12);
    expect(bike.schedule.arrive).to.deep.equal([0, 7, 15, 27]);
    const slow = score(req, 1, [1, 3]);
    expect(slow.score.distance).to.equal(60);
    expect(slow.schedule.arrive).to.deep.equal([0, 10, 35, 70]);
  });

  it("vehicle_unit_time_costs: per hour of route duration, waiting included, under min_total_cost only", () => {
    const costs = {
      objective: "min_total_cost" as const,
      vehicle_fixed_costs: [100, 100],
      vehicle_unit_distance_costs: [2, 2],
      vehicle_unit_time_costs: [60, 30],
    };
    // Node 1 closes at 12 (so leaving at 2 is the latest), node 2 opens at 60: 33 minutes of waiting.
    const windows = [
      [0, 1000],
      [0, 12],
      [60, 1000],
      [0, 1000],
    ];
    const { score: s } = score(request({ ...costs, node_time_windows: windows }), 0, [1, 2]);
    expect(s.departureMin).to.equal(2);
    expect(s.durationMin).to.equal(83);
    expect(s.timeCost).to.equal(83);
    expect(s.cost).to.equal(100 + 2 * 40 + 83);
    expect(score(request({ ...costs, node_time_windows: windows }), 1, [1, 2]).score.cost).to.equal(100 + 80 + 41.5);
    // Under the distance objective the field is ignored (with a warning).
    const { problem, warnings } = compileRequest(request({ vehicle_unit_time_costs: [60, 60] }));
    expect(evaluateRoute(problem, 0, [1, 2]).cost).to.equal(40);
    expect(warnings).to.include("vehicle_unit_time_costs was ignored because the objective is min_total_distance");
  });

  it("node_time_window_sets: service in the earliest window it reaches; waits between windows; late after the last", () => {
    const sets = (second: number[]) => [null, [[0, 5], second], null, null];
    const hull = (end: number) => square(4, (i, j) => (j === 0 ? 0 : i === 1 ? end : 1000));
    // Arrives at 10: after the first window, waits for the second at 30.
    let got = score(request({ node_time_windows: hull(40), node_time_window_sets: sets([30, 40]) }), 0, [1]);
    expect(got.schedule.leave[1]).to.equal(35);
    expect(got.schedule.begin![1]).to.equal(30);
    expect(got.score.feasible).to.equal(true);
    // Arrives at 10, after every window (the last ends at 8): late by 2, infeasible under hard windows.
    got = score(request({ node_time_windows: hull(8), node_time_window_sets: sets([7, 8]) }), 0, [1]);
    expect(got.score.lateMinutes).to.equal(2);
    expect(got.score.feasible).to.equal(false);
    // Soft windows: priced per late minute.
    got = score(request({ node_time_windows: hull(8), node_time_window_sets: sets([7, 8]), late_penalty_per_min: 3 }), 0, [1]);
    expect(got.score.latePenalty).to.equal(6);
    expect(got.score.feasible).to.equal(true);
  });

  it("node_time_window_sets: an arrival a rounding error past a window's end is in that window, as with one window", () => {
    const sets = [
      null,
      [
        [0, 5],
        [30, 40],
      ],
      null,
      null,
    ];
    const hull = square(4, (i, j) => (j === 0 ? 0 : i === 1 ? 40 : 1000));
    const p = compileRequest(request({ node_time_windows: hull, node_time_window_sets: sets })).problem;
    // A departure delayed to meet the first window's end exactly can arrive at 5.000000000000001.
    const dust = 5 + 1e-12;
    const serviceStart = (arrive: number) => {
      const begin = serviceBegin(p, 1, arrive);
      return { begin, late: lateAt(p, 1, begin) };
    };
    expect(serviceStart(dust)).to.deep.equal({ begin: dust, late: 0 });
    expect(windowEndAt(p, 1, dust)).to.equal(5);
    // A real minute past it waits for the second window.
    expect(serviceStart(5.01)).to.deep.equal({ begin: 30, late: 0 });
    expect(windowEndAt(p, 1, 30)).to.equal(40);
  });

  it("vehicle_breaks: taken once in its window at a stop, counted in the duration; no place makes the route infeasible", () => {
    const breaks = (b: { earliest_start: number; latest_start: number; duration: number }) => ({ vehicle_breaks: [[b], null] });
    // Due by 20: after node 1's service (15), then on to node 2.
    let got = score(request(breaks({ earliest_start: 12, latest_start: 20, duration: 30 })), 0, [1, 2]);
    expect(got.schedule.breaks).to.deep.equal([{ start: 15, end: 45, afterNode: 1 }]);
    expect(got.schedule.arrive).to.deep.equal([0, 10, 55, 80]);
    expect(got.score.durationMin).to.equal(80);
    expect(got.score.breakMinutes).to.equal(30);
    expect(got.score.feasible).to.equal(true);
    // Due by 5: before departure, at the start node.
    got = score(request(breaks({ earliest_start: 0, latest_start: 5, duration: 10 })), 0, [1, 2]);
    expect(got.schedule.breaks).to.deep.equal([{ start: 0, end: 10, afterNode: 0 }]);
    // Its window opens after the last service: the driver waits for it there.
    got = score(request(breaks({ earliest_start: 100, latest_start: 120, duration: 10 })), 0, [1]);
    expect(got.schedule.breaks).to.deep.equal([{ start: 100, end: 110, afterNode: 1 }]);
    expect(got.schedule.arrive[2]).to.equal(120);
    // Must start by 12 at the latest: the driver may wait for it at the depot before leaving.
    got = score(request(breaks({ earliest_start: 11, latest_start: 12, duration: 5 })), 0, [1]);
    expect(got.schedule.breaks).to.deep.equal([{ start: 11, end: 16, afterNode: 0 }]);
    // Before the depot opens (validation refuses such a break; the evaluator still judges it): no place.
    const late = { node_time_windows: square(4, (_, j) => (j === 0 ? 20 : 1000)) };
    got = score(request({ ...late, ...breaks({ earliest_start: 11, latest_start: 12, duration: 5 }) }), 0, [1]);
    expect(got.score.missedBreaks).to.equal(1);
    expect(got.score.feasible).to.equal(false);
    // A failed solve names the rule.
    const missed = evaluateSolution(got.problem, { routes: [[1, 2, 3], []] });
    expect(violationReasons(got.problem, missed)).to.deep.equal([
      "breaks not taken within their windows on 1 route(s) (vehicle 0 misses 1)",
    ]);
    // An unused vehicle takes no break.
    expect(score(request(breaks({ earliest_start: 11, latest_start: 12, duration: 5 })), 0, []).score.feasible).to.equal(true);
  });

  it("vehicle_return_to_end false: no last leg, the route ends at its last stop", () => {
    const { score: s, schedule } = score(request({ vehicle_return_to_end: [false, true] }), 0, [1, 2]);
    expect(s.distance).to.equal(20);
    expect(schedule.nodes).to.deep.equal([0, 1, 2]);
    expect(s.durationMin).to.equal(30);
    // Without the time dimension too.
    const untimed = request({ vehicle_return_to_end: [false, true], node_time_windows: undefined, node_service_time: undefined });
    expect(score(untimed, 0, [3]).score.distance).to.equal(30);
    expect(score(untimed, 1, [3]).score.distance).to.equal(60);
  });

  it("all fields together: the exact strategy's answer passes the independent checker", () => {
    const req = request({
      vehicle_speeds: undefined,
      duration_matrix: ODD,
      objective: "min_total_cost",
      vehicle_fixed_costs: [10, 10],
      vehicle_unit_distance_costs: [1, 1],
      vehicle_unit_time_costs: [60, 30],
      profiles: { bike: { duration_matrix: square(4, (i, j) => 2 * ODD[i]![j]!) } },
      vehicle_profiles: [null, "bike"],
      node_time_windows: [
        [0, 1000],
        [0, 60],
        [0, 1000],
        [0, 1000],
      ],
      node_time_window_sets: [
        null,
        [
          [0, 5],
          [40, 60],
        ],
        null,
        null,
      ],
      vehicle_breaks: [[{ earliest_start: 10, latest_start: 30, duration: 15 }], null],
      vehicle_return_to_end: [false, true],
      // The bike takes one customer: vehicle 0 (with its break and open route) serves the others.
      vehicles_capacity: [5, 1],
    });
    const outcome = solveRequest(req, { requestId: "travel", timeLimitSeconds: 5, strategy: "exact" });
    expect(outcome.status, JSON.stringify(outcome)).to.equal("solved");
    if (outcome.status !== "solved") return;
    checkTravelResult(req as TravelRequest, outcome.result as TravelResult);
    // The checker is not a rubber stamp: a moved break, a route closed where it is open, a dearer cost all fail it.
    const tampered = (f: (r: TravelResult) => void) => {
      const copy = structuredClone(outcome.result) as TravelResult;
      f(copy);
      return () => checkTravelResult(req as TravelRequest, copy);
    };
    expect(outcome.result.breaks).to.have.property("Vehicle 0");
    expect(tampered((r) => (r.breaks!["Vehicle 0"]![0]!.start = "09:05:00"))).to.throw();
    expect(tampered((r) => (r.breaks = {}))).to.throw();
    expect(tampered((r) => (r.total_cost += 1))).to.throw();
    expect(tampered((r) => r.routes["Vehicle 0"]!.push(0))).to.throw();
    const { problem } = compileRequest(req);
    const routes = Object.entries(outcome.result.routes).map(([label, nodes]) => [Number(label.slice(8)), nodes] as const);
    const plan = { routes: [[], []] as number[][] };
    for (const [v, nodes] of routes) plan.routes[v] = nodes.filter((c) => c !== 0);
    expect(evaluateSolution(problem, plan).cost).to.be.closeTo(outcome.result.total_cost, 1e-9);
  });
});
