import { expect } from "chai";
import type { OpenAPIBackend } from "openapi-backend";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { crossFieldIssues } from "../../src/api/validation/cross-field.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

type Request = SolveRequestInput & ConstraintFields;
const allowAll = () => null;
const square = (n: number, f: (i: number, j: number) => number) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => f(i, j)));

/** Depot 0 and three customers; two vehicles from node 0; the time dimension from a duration matrix. */
function base(extra: Partial<Request> = {}): Request {
  return {
    node_num: 4,
    vehicle_num: 2,
    distance_matrix: square(4, (i, j) => Math.abs(i - j)),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [5, 5],
    node_time_windows: [
      [0, 600],
      [0, 300],
      [60, 400],
      [0, 600],
    ],
    node_service_time: [0, 5, 5, 5],
    duration_matrix: square(4, (i, j) => 2 * Math.abs(i - j)),
    ...extra,
  } as Request;
}

const issues = (extra: Partial<Request>) => crossFieldIssues(base(extra), allowAll);

/** Travel times, profiles, cost per hour, several windows, breaks and open routes: exact 422 messages naming field and index. */
describe("validation of the travel fields", () => {
  let api: OpenAPIBackend;
  before(async () => {
    api = (await sharedSpecBackend()) as OpenAPIBackend;
  });

  it("accepts a consistent request using every field", () => {
    const ok = issues({
      profiles: { bike: { distance_matrix: square(4, () => 1), duration_matrix: square(4, () => 3) }, truck: {} },
      vehicle_profiles: ["bike", null],
      objective: "min_total_cost",
      vehicle_unit_time_costs: [30, 0],
      node_time_window_sets: [
        null,
        [
          [0, 100],
          [200, 300],
        ],
        null,
        null,
      ],
      vehicle_breaks: [[{ earliest_start: 100, latest_start: 200, duration: 30 }], null],
      vehicle_return_to_end: [true, false],
    });
    expect(ok).to.deep.equal([]);
  });

  it("refuses a duration matrix of the wrong size, and one beside vehicle_speeds", () => {
    expect(issues({ duration_matrix: square(3, () => 1) })).to.deep.equal([
      { loc: ["body", "duration_matrix"], msg: "duration_matrix must have node_num (4) rows, got 3", type: "length_mismatch" },
    ]);
    const rows = base().duration_matrix!;
    rows[2] = [0, 1];
    expect(issues({ duration_matrix: rows })).to.deep.equal([
      {
        loc: ["body", "duration_matrix", "2"],
        msg: "duration_matrix row 2 must have node_num (4) entries, got 2",
        type: "length_mismatch",
      },
    ]);
    expect(issues({ duration_matrix: square(4, (i, j) => (i === 1 && j === 3 ? Number.NaN : 1)) })).to.deep.equal([
      {
        loc: ["body", "duration_matrix", "1", "3"],
        msg: "duration_matrix[1][3] must be a finite number >= 0, got NaN",
        type: "value_error",
      },
    ]);
    expect(issues({ vehicle_speeds: [1, 1] })).to.deep.equal([
      {
        loc: ["body", "vehicle_speeds"],
        msg:
          "vehicle_speeds must be omitted when duration_matrix is given: travel minutes then come from duration_matrix " +
          "(and from the vehicles' profiles), not from distance / speed",
        type: "conflicting_fields",
      },
    ]);
  });

  it("refuses a negative entry through the schema, naming row and column", () => {
    const body = base({ duration_matrix: square(4, (i, j) => (i === 2 && j === 1 ? -4 : 1)) });
    const got = validateSolveRequest(api, body, allowAll);
    expect(got.ok).to.equal(false);
    const found = !got.ok ? got.issues.find((i) => i.loc.join("/") === "body/duration_matrix/2/1") : undefined;
    expect(found, JSON.stringify(got)).to.not.equal(undefined);
  });

  it("refuses unknown profiles, bad profile names and profile matrices of the wrong size", () => {
    expect(issues({ profiles: { bike: {} }, vehicle_profiles: [null, "truck"] })).to.deep.equal([
      {
        loc: ["body", "vehicle_profiles", "1"],
        msg: "vehicle 1's profile 'truck' is not in profiles (known: bike)",
        type: "unknown_profile",
      },
    ]);
    expect(issues({ vehicle_profiles: ["bike"] })).to.deep.equal([
      { loc: ["body", "vehicle_profiles"], msg: "vehicle_profiles must have vehicle_num (2) entries, got 1", type: "length_mismatch" },
    ]);
    expect(issues({ profiles: { "a b": {} } })).to.deep.equal([
      {
        loc: ["body", "profiles", "a b"],
        msg: "profile name 'a b' must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -",
        type: "value_error",
      },
    ]);
    expect(issues({ profiles: { bike: { distance_matrix: square(2, () => 1) } } })).to.deep.equal([
      {
        loc: ["body", "profiles", "bike", "distance_matrix"],
        msg: "profiles.bike.distance_matrix must have node_num (4) rows, got 2",
        type: "length_mismatch",
      },
    ]);
  });

  it("refuses window sets not sorted, overlapping, inverted, or whose hull differs from node_time_windows", () => {
    const sets = (set: number[][]) => [null, set, null, null];
    expect(
      issues({
        node_time_window_sets: sets([
          [200, 300],
          [0, 100],
        ]),
      }),
    ).to.deep.equal([
      {
        loc: ["body", "node_time_window_sets", "1", "1"],
        msg: "node 1's window 1 [0, 100] is not sorted after window 0 (which ends at 300)",
        type: "value_error",
      },
    ]);
    expect(
      issues({
        node_time_window_sets: sets([
          [0, 150],
          [100, 300],
        ]),
      }),
    ).to.deep.equal([
      {
        loc: ["body", "node_time_window_sets", "1", "1"],
        msg: "node 1's window 1 [100, 300] overlaps or touches window 0 (which ends at 150)",
        type: "value_error",
      },
    ]);
    expect(
      issues({
        node_time_window_sets: sets([
          [0, 100],
          [250, 200],
        ]),
      }),
    ).to.deep.equal([
      { loc: ["body", "node_time_window_sets", "1", "1"], msg: "node 1's window 1 starts (250) after it ends (200)", type: "value_error" },
    ]);
    expect(
      issues({
        node_time_window_sets: sets([
          [0, 100],
          [200, 250],
        ]),
      }),
    ).to.deep.equal([
      {
        loc: ["body", "node_time_window_sets", "1"],
        msg: "node 1's windows span [0, 250], which must equal its node_time_windows entry [0, 300]",
        type: "window_hull_mismatch",
      },
    ]);
  });

  it("refuses breaks that close before they open or cannot fit in the shift", () => {
    const breaks = (b: { earliest_start: number; latest_start: number; duration: number }) => [null, [b]];
    expect(issues({ vehicle_breaks: breaks({ earliest_start: 100, latest_start: 50, duration: 10 }) })).to.deep.equal([
      {
        loc: ["body", "vehicle_breaks", "1", "0"],
        msg: "vehicle 1's break 0 must start by 50, before it may start (100)",
        type: "value_error",
      },
    ]);
    expect(issues({ vehicle_breaks: breaks({ earliest_start: 580, latest_start: 590, duration: 30 }) })).to.deep.equal([
      {
        loc: ["body", "vehicle_breaks", "1", "0"],
        msg: "vehicle 1's break 0 (start in [580, 590], 30 min) cannot fit in its shift [0, 600]",
        type: "break_outside_shift",
      },
    ]);
    // The shift narrows the depot's window; an open route has no end to fit before.
    const shifted = { vehicle_time_windows: [null, [0, 200]] as (number[] | null)[] };
    expect(issues({ ...shifted, vehicle_breaks: breaks({ earliest_start: 190, latest_start: 300, duration: 30 }) })).to.have.length(1);
    expect(
      issues({
        ...shifted,
        vehicle_return_to_end: [true, false],
        vehicle_breaks: breaks({ earliest_start: 190, latest_start: 300, duration: 30 }),
      }),
    ).to.deep.equal([]);
  });

  it("refuses the fields that need the time dimension without it", () => {
    const untimed = { duration_matrix: undefined, node_time_windows: undefined, node_service_time: undefined };
    const got = issues({
      ...untimed,
      vehicle_unit_time_costs: [1, 1],
      vehicle_breaks: [null, [{ earliest_start: 0, latest_start: 9, duration: 1 }]],
    });
    const tail = "needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds (or duration_matrix)";
    expect(got).to.deep.equal([
      { loc: ["body", "vehicle_unit_time_costs"], msg: `vehicle_unit_time_costs ${tail}`, type: "time_dimension_required" },
      { loc: ["body", "vehicle_breaks"], msg: `vehicle_breaks ${tail}`, type: "time_dimension_required" },
    ]);
  });

  it("accepts every travel field for the automatic choice, and refuses the ones a pinned strategy does not honour, naming them", () => {
    const body = base({
      duration_matrix: undefined,
      vehicle_speeds: [1, 1],
      vehicle_breaks: [[{ earliest_start: 10, latest_start: 200, duration: 15 }], null],
      profiles: { bike: { distance_matrix: square(4, (i, j) => 2 * Math.abs(i - j)) } },
      vehicle_profiles: [null, "bike"],
    });
    expect(validateSolveRequest(api, body, allowAll).ok).to.equal(true);
    const pinned = validateSolveRequest(api, { ...body, strategy: "alns" }, allowAll);
    const tail = "is not supported yet: the pinned strategy 'alns' does not honour it; send the request without it";
    expect(pinned.ok ? [] : pinned.issues.map((i) => i.msg)).to.deep.equal([
      `vehicle_profiles (feature 'profiles') ${tail}`,
      `profiles (feature 'profile_distances') ${tail}`,
      `vehicle_breaks (feature 'breaks') ${tail}`,
    ]);
    // hgs searches every travel field, a profile's own distances too; exact enumerates tiny problems with them.
    expect(validateSolveRequest(api, { ...body, strategy: "hgs" }, allowAll).ok).to.equal(true);
    expect(validateSolveRequest(api, { ...body, strategy: "exact" }, allowAll).ok).to.equal(true);
  });

  it("refuses the travel fields above the size the search takes them at", () => {
    const n = 3001;
    const body = {
      node_num: n,
      vehicle_num: 1,
      node_positions: Array.from({ length: n }, (_, i) => [i, 0]),
      distance_matrix: [],
      start_nodes: [0],
      end_nodes: [0],
      node_demands: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1)),
      vehicles_capacity: [n],
      vehicle_return_to_end: [false],
    };
    const got = validateSolveRequest(api, body, allowAll);
    expect(got.ok ? [] : got.issues).to.deep.equal([
      {
        loc: ["body", "vehicle_return_to_end"],
        msg: "vehicle_return_to_end (feature 'open_routes') is not supported above 3,000 nodes yet (got 3001); send the request without it",
        type: "unsupported_feature",
      },
    ]);
    expect(validateSolveRequest(api, { ...body, vehicle_return_to_end: [true] }, allowAll).ok).to.equal(true);
  });
});
