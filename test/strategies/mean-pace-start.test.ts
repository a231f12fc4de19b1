import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { meanPaceProblem } from "../../strategies/hgs/mean-pace-start.js";

type Request = SolveRequestInput & ConstraintFields;

/** Depot 0 open [0, 600] and three customers, one vehicle at speed 2. */
function request(extra: Partial<Request> = {}): Request {
  const at = [0, 30, 60, 90];
  return {
    node_num: 4,
    vehicle_num: 1,
    distance_matrix: at.map((a) => at.map((b) => Math.abs(a - b))),
    start_nodes: [0],
    end_nodes: [0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [3],
    node_time_windows: [
      [0, 600],
      [0, 600],
      [0, 600],
      [0, 600],
    ],
    node_service_time: [0, 10, 10, 10],
    vehicle_speeds: [2],
    ...extra,
  } as Request;
}

const rush = [
  { start: 0, factor: 1 },
  { start: 40, factor: 2 },
  { start: 200, factor: 1 },
];

describe("traffic: the problem at the day's mean pace (the search's start)", () => {
  it("drops the slots and drives at the mean of their factors over the depot's opening hours", () => {
    const p = compileRequest(request({ time_dependent_durations: rush })).problem;
    const mean = meanPaceProblem(p)!;
    // (40 x 1 + 160 x 2 + 400 x 1) / 600 minutes.
    expect(mean.travel ?? null).to.equal(null);
    expect(mean.time!.speed[0]).to.be.closeTo(2 / (760 / 600), 1e-12);
    expect(p.time!.speed[0]).to.equal(2);
  });

  it("is not built without slots, nor beside another travel rule", () => {
    expect(meanPaceProblem(compileRequest(request()).problem)).to.equal(null);
    const open = request({ time_dependent_durations: rush, vehicle_return_to_end: [false] });
    expect(meanPaceProblem(compileRequest(open).problem)).to.equal(null);
  });
});
