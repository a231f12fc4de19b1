import { expect } from "chai";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { crossFieldIssues } from "../../src/api/validation/cross-field.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

/** Depot 0 and 2 customers; two vehicles, vehicle 1 ending at node 2 (also a depot then). */
function base(extra: Partial<SolveRequestInput> = {}): SolveRequestInput {
  return {
    node_num: 4,
    vehicle_num: 2,
    distance_matrix: [
      [0, 1, 2, 3],
      [1, 0, 1, 2],
      [2, 1, 0, 1],
      [3, 2, 1, 0],
    ],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [5, 5],
    ...extra,
  };
}

describe("validation of optional stops, skills, shifts and route limits (422 messages and loc)", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });
  const issuesOf = (body: unknown) => {
    const outcome = validateSolveRequest(api, body, allowAll);
    return outcome.ok ? [] : outcome.issues.map((i) => ({ loc: i.loc.join("."), msg: i.msg, type: i.type }));
  };

  it("accepts every field with consistent values", () => {
    const ok = base({
      node_skip_penalties: [null, 5, 0, null],
      allow_unassigned: true,
      node_skills: [null, ["cold"], [], null],
      vehicle_skills: [["cold", "lift"], null],
      vehicle_time_windows: [[0, 480], null],
      vehicle_max_distance: [100, null],
      vehicle_max_working_hours: [8, null],
      vehicle_max_stops: [3, null],
    });
    expect(issuesOf(ok)).to.deep.equal([]);
  });

  it("names field and length for every per-node and per-vehicle array of the wrong length", () => {
    const wrong = base({
      node_skip_penalties: [null, 1],
      node_skills: [null],
      vehicle_skills: [[]],
      vehicle_time_windows: [null, null, null],
      vehicle_max_distance: [1],
      vehicle_max_working_hours: [1, 2, 3],
      vehicle_max_stops: [],
    });
    expect(issuesOf(wrong)).to.deep.equal([
      { loc: "body.node_skip_penalties", msg: "node_skip_penalties must have node_num (4) entries, got 2", type: "length_mismatch" },
      { loc: "body.node_skills", msg: "node_skills must have node_num (4) entries, got 1", type: "length_mismatch" },
      { loc: "body.vehicle_skills", msg: "vehicle_skills must have vehicle_num (2) entries, got 1", type: "length_mismatch" },
      { loc: "body.vehicle_time_windows", msg: "vehicle_time_windows must have vehicle_num (2) entries, got 3", type: "length_mismatch" },
      { loc: "body.vehicle_max_distance", msg: "vehicle_max_distance must have vehicle_num (2) entries, got 1", type: "length_mismatch" },
      {
        loc: "body.vehicle_max_working_hours",
        msg: "vehicle_max_working_hours must have vehicle_num (2) entries, got 3",
        type: "length_mismatch",
      },
      { loc: "body.vehicle_max_stops", msg: "vehicle_max_stops must have vehicle_num (2) entries, got 0", type: "length_mismatch" },
    ]);
  });

  it("refuses a skip penalty or skills on a depot (start or end node), by index", () => {
    const r = base({
      end_nodes: [0, 3],
      node_demands: [0, 1, 1, 0],
      node_skip_penalties: [0, null, 2, 7],
      node_skills: [["x"], null, null, []],
    });
    expect(issuesOf(r)).to.deep.equal([
      {
        loc: "body.node_skip_penalties.0",
        msg: "node 0 is a depot (a start or end node) and is never skipped: its skip penalty must be null (got 0)",
        type: "depot_not_optional",
      },
      {
        loc: "body.node_skip_penalties.3",
        msg: "node 3 is a depot (a start or end node) and is never skipped: its skip penalty must be null (got 7)",
        type: "depot_not_optional",
      },
      {
        loc: "body.node_skills.0",
        msg: 'node 0 is a depot (a start or end node) and needs no skills: its skills must be null or [] (got ["x"])',
        type: "depot_skills",
      },
    ]);
  });

  it("refuses a shift that ends before it starts, naming the vehicle", () => {
    expect(issuesOf(base({ vehicle_time_windows: [null, [600, 480]] }))).to.deep.equal([
      { loc: "body.vehicle_time_windows.1", msg: "vehicle 1's shift ends (480) before it starts (600)", type: "value_error" },
    ]);
    // A shift of no length is allowed (such a vehicle can serve nobody who is not at its depot).
    expect(issuesOf(base({ vehicle_time_windows: [[60, 60], null] }))).to.deep.equal([]);
  });

  it("answers caps of zero or below, a negative penalty and a fractional stop count from the document's bounds", () => {
    expect(issuesOf(base({ vehicle_max_distance: [0, null] }))).to.deep.equal([
      { loc: "body.vehicle_max_distance.0", msg: "must be > 0", type: "greater_than" },
    ]);
    expect(issuesOf(base({ vehicle_max_working_hours: [null, -1] }))).to.deep.equal([
      { loc: "body.vehicle_max_working_hours.1", msg: "must be > 0", type: "greater_than" },
    ]);
    expect(issuesOf(base({ vehicle_max_stops: [0, null] }))).to.deep.equal([
      { loc: "body.vehicle_max_stops.0", msg: "must be >= 1", type: "greater_than_equal" },
    ]);
    expect(issuesOf(base({ vehicle_max_stops: [1.5, null] }))).to.deep.equal([
      { loc: "body.vehicle_max_stops.0", msg: "must be an integer or null", type: "integer_type" },
    ]);
    expect(issuesOf(base({ node_skip_penalties: [null, -2, null, null] }))).to.deep.equal([
      { loc: "body.node_skip_penalties.1", msg: "must be >= 0", type: "greater_than_equal" },
    ]);
    expect(issuesOf(base({ node_skills: [null, [""], null, null] }))).to.deep.equal([
      { loc: "body.node_skills.1.0", msg: "must NOT have fewer than 1 characters", type: "string_too_short" },
    ]);
    expect(issuesOf(base({ vehicle_time_windows: [[0], null] }))).to.deep.equal([
      { loc: "body.vehicle_time_windows.0", msg: "must NOT have fewer than 2 items", type: "too_short" },
    ]);
  });

  it("reports these rules together with the seed's own (one answer lists every problem)", () => {
    const r = base({ node_demands: [3, 1, 1, 1], vehicle_max_stops: [1] });
    expect(crossFieldIssues(r, allowAll).map((i) => i.loc.join("."))).to.deep.equal(["body", "body.vehicle_max_stops"]);
  });

  it("does not refuse shifts or per-vehicle working hours without the time dimension: they are ignored with a warning", () => {
    expect(issuesOf(base({ vehicle_time_windows: [[0, 100], null], vehicle_max_working_hours: [2, null] }))).to.deep.equal([]);
  });
});
