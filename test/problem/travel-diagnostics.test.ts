import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

type Request = SolveRequestInput & ConstraintFields;
const square = (n: number, f: (i: number, j: number) => number) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => f(i, j)));

/** Depot 0, customers 1 and 2; distances 10 a hop; travel minutes from a duration matrix (5 a hop). */
function request(extra: Partial<Request> = {}): Request {
  return {
    node_num: 3,
    vehicle_num: 2,
    distance_matrix: square(3, (i, j) => 10 * Math.abs(i - j)),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1],
    vehicles_capacity: [5, 5],
    node_time_windows: [
      [0, 100],
      [0, 8],
      [0, 100],
    ],
    node_service_time: [0, 1, 1],
    duration_matrix: square(3, (i, j) => 5 * Math.abs(i - j)),
    ...extra,
  } as Request;
}

const kinds = (req: Request) => {
  const { problem } = compileRequest(req);
  return infeasibilities(problem, undefined, req).map((i) => ({ kind: i.kind, node: i.node, may: i.may_be_unassigned ?? false }));
};

describe("the validate pre-check with the travel fields", () => {
  it("reads travel minutes from the duration matrix, not distance / speed", () => {
    // 10 distance units to node 1 would be 10 minutes at speed 1, past its window; the matrix says 5.
    expect(kinds(request())).to.deep.equal([]);
    expect(kinds(request({ duration_matrix: undefined, vehicle_speeds: [1, 1] })).map((k) => k.kind)).to.deep.equal(["window_unreachable"]);
  });

  it("proves a node no window of which any vehicle reaches on its profile", () => {
    const slow = { profiles: { slow: { duration_matrix: square(3, (i, j) => 9 * Math.abs(i - j)) } } };
    expect(kinds(request({ ...slow, vehicle_profiles: ["slow", null] }))).to.deep.equal([]);
    expect(kinds(request({ ...slow, vehicle_profiles: ["slow", "slow"] }))).to.deep.equal([
      { kind: "window_unreachable", node: 1, may: false },
    ]);
  });

  it("checks no return on an open route", () => {
    const tight = {
      node_time_windows: [
        [0, 6],
        [0, 100],
        [0, 100],
      ],
    };
    expect(kinds(request(tight)).map((k) => k.kind)).to.include("return_too_late");
    expect(kinds(request({ ...tight, vehicle_return_to_end: [false, false] }))).to.deep.equal([]);
  });

  it("tells a shift too short for its breaks: fatal only when no vehicle is left", () => {
    const breaks = [
      { earliest_start: 0, latest_start: 50, duration: 60 },
      { earliest_start: 40, latest_start: 90, duration: 50 },
    ];
    expect(kinds(request({ vehicle_breaks: [breaks, null] }))).to.deep.equal([{ kind: "breaks_exceed_shift", node: undefined, may: true }]);
    const { problem } = compileRequest(request({ vehicle_breaks: [breaks, breaks] }));
    const found = infeasibilities(problem);
    expect(found.map((i) => [i.kind, i.may_be_unassigned])).to.deep.equal([
      ["breaks_exceed_shift", undefined],
      ["breaks_exceed_shift", undefined],
    ]);
    expect(found[0]!.message).to.equal(
      "vehicle 0's breaks (2, 110 min in all) cannot all be taken within its shift [0, 100]: the vehicle cannot be used",
    );
    expect(found[0]!.evidence).to.deep.equal({ vehicle: "Vehicle 0", break_minutes: 110, shift_start: 0, shift_end: 100 });
  });

  it("bounds travel minutes by the shortest path on a duration matrix that breaks the triangle inequality", () => {
    // Straight to node 2 takes 100 minutes, through node 1 5 + 1 (its service) + 5.
    const detour = {
      duration_matrix: [
        [0, 5, 100],
        [5, 0, 5],
        [100, 5, 0],
      ],
      node_time_windows: [
        [0, 100],
        [0, 100],
        [0, 20],
      ],
    };
    expect(kinds(request(detour))).to.deep.equal([]);
    // Closing before even the shortest way arrives (at 11): proven.
    expect(
      kinds(
        request({
          ...detour,
          node_time_windows: [
            [0, 100],
            [0, 100],
            [0, 10],
          ],
        }),
      ),
    ).to.deep.equal([{ kind: "window_unreachable", node: 2, may: false }]);
  });
});
