import { expect } from "chai";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

/** Depot 0, customers 1..3, one vehicle. */
function base(extra: Record<string, unknown> = {}): SolveRequestInput {
  return {
    node_num: 4,
    vehicle_num: 1,
    distance_matrix: Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (_, j) => Math.abs(i - j))),
    start_nodes: [0],
    end_nodes: [0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [3],
    ...extra,
  } as SolveRequestInput;
}

const timed = {
  node_time_windows: Array.from({ length: 4 }, () => [0, 1000]),
  node_service_time: [0, 5, 5, 5],
  vehicle_speeds: [1],
};

describe("validation of time_dependent_durations (422 messages and loc)", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });
  const issuesOf = (body: unknown) => {
    const outcome = validateSolveRequest(api, body, allowAll);
    return outcome.ok ? [] : outcome.issues.map((i) => ({ loc: i.loc.join("."), msg: i.msg, type: i.type }));
  };
  const slots = [
    { start: 0, factor: 1 },
    { start: 60, factor: 1.6 },
    { start: 180, factor: 1 },
  ];

  it("accepts sorted slots from minute 0 with the time dimension, by speeds or by a duration matrix", () => {
    expect(issuesOf(base({ ...timed, time_dependent_durations: slots }))).to.deep.equal([]);
    const matrix = base({ ...timed, time_dependent_durations: slots, duration_matrix: base().distance_matrix });
    delete (matrix as { vehicle_speeds?: number[] }).vehicle_speeds;
    expect(issuesOf(matrix)).to.deep.equal([]);
  });

  it("refuses slots without the time dimension", () => {
    expect(issuesOf(base({ time_dependent_durations: slots }))).to.deep.equal([
      {
        loc: "body.time_dependent_durations",
        msg:
          "time_dependent_durations needs the time dimension: give node_time_windows, node_service_time and " +
          "vehicle_speeds (or duration_matrix)",
        type: "time_dimension_required",
      },
    ]);
  });

  it("names the slot that does not start at 0 or is not after the one before", () => {
    const wrong = [
      { start: 10, factor: 1 },
      { start: 60, factor: 1.6 },
      { start: 60, factor: 1 },
      { start: 30, factor: 1 },
    ];
    expect(issuesOf(base({ ...timed, time_dependent_durations: wrong }))).to.deep.equal([
      {
        loc: "body.time_dependent_durations.0.start",
        msg: "time_dependent_durations[0].start must be 0 (the first slot starts at minute 0), got 10",
        type: "value_error",
      },
      {
        loc: "body.time_dependent_durations.2.start",
        msg: "time_dependent_durations must be sorted by start, each slot after the one before: slot 2 starts at 60, slot 1 at 60",
        type: "value_error",
      },
      {
        loc: "body.time_dependent_durations.3.start",
        msg: "time_dependent_durations must be sorted by start, each slot after the one before: slot 3 starts at 30, slot 2 at 60",
        type: "value_error",
      },
    ]);
  });

  it("refuses a factor that is not positive, naming its index", () => {
    const issues = issuesOf(
      base({
        ...timed,
        time_dependent_durations: [
          { start: 0, factor: 0 },
          { start: 5, factor: -1 },
        ],
      }),
    );
    expect(issues.map((i) => i.loc)).to.deep.equal(["body.time_dependent_durations.0.factor", "body.time_dependent_durations.1.factor"]);
    for (const issue of issues) expect(issue.msg).to.match(/> 0/);
  });

  it("refuses an empty list, an unknown key and a negative start by the document's schema", () => {
    expect(issuesOf(base({ ...timed, time_dependent_durations: [] })).map((i) => i.loc)).to.deep.equal(["body.time_dependent_durations"]);
    const extra = issuesOf(base({ ...timed, time_dependent_durations: [{ start: 0, factor: 1, speed: 2 }] }));
    expect(extra.map((i) => i.loc)[0]).to.match(/^body\.time_dependent_durations\.0/);
    const negative = issuesOf(base({ ...timed, time_dependent_durations: [{ start: -5, factor: 1 }] }));
    expect(negative.map((i) => i.loc)).to.deep.equal(["body.time_dependent_durations.0.start"]);
  });

  it("refuses traffic together with breaks, naming both fields", () => {
    const issues = issuesOf(
      base({ ...timed, time_dependent_durations: slots, vehicle_breaks: [[{ earliest_start: 10, latest_start: 50, duration: 15 }]] }),
    );
    expect(issues).to.deep.equal([
      {
        loc: "body.time_dependent_durations",
        msg: "time_dependent_durations together with vehicle_breaks is not supported yet; send the request without one of them",
        type: "unsupported_feature",
      },
    ]);
  });
});
