import { expect } from "chai";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

/** Depot 0 and four customers on a line; `timed` adds windows, service times and speeds. */
function base(extra: Record<string, unknown> = {}, timed = false): SolveRequestInput {
  const n = 5;
  return {
    node_num: n,
    vehicle_num: 2,
    node_positions: Array.from({ length: n }, (_, i) => [i, 0]),
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1, 1],
    vehicles_capacity: [4, 4],
    ...(timed
      ? {
          node_time_windows: Array.from({ length: n }, () => [0, 600]),
          node_service_time: [0, 5, 5, 5, 5],
          vehicle_speeds: [1, 1],
        }
      : {}),
    ...extra,
  } as SolveRequestInput;
}

describe("validation of balance (422 messages and loc)", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });
  const issuesOf = (body: unknown) => {
    const outcome = validateSolveRequest(api, body, allowAll);
    return outcome.ok ? [] : outcome.issues.map((i) => ({ loc: i.loc.join("."), msg: i.msg, type: i.type }));
  };

  it("accepts each measure where it applies", () => {
    expect(issuesOf(base({ balance: { measure: "stops", cost_per_unit: 3 } }))).to.deep.equal([]);
    expect(issuesOf(base({ balance: { measure: "distance", cost_per_unit: 0.5 } }))).to.deep.equal([]);
    expect(issuesOf(base({ balance: { measure: "duration", cost_per_unit: 2 } }, true))).to.deep.equal([]);
  });

  it("refuses an unknown measure, naming balance.measure", () => {
    const issues = issuesOf(base({ balance: { measure: "hours", cost_per_unit: 1 } }));
    expect(issues).to.have.length(1);
    expect(issues[0]!.loc).to.equal("body.balance.measure");
    expect(issues[0]!.msg).to.match(/duration.*stops.*distance/);
  });

  it("refuses a cost per unit that is not above 0, and a missing one", () => {
    for (const cost of [0, -1]) {
      const issues = issuesOf(base({ balance: { measure: "stops", cost_per_unit: cost } }));
      expect(issues.map((i) => i.loc)).to.deep.equal(["body.balance.cost_per_unit"]);
    }
    const missing = issuesOf(base({ balance: { measure: "stops" } }));
    expect(missing.map((i) => i.loc)).to.deep.equal(["body.balance.cost_per_unit"]);
    const extra = issuesOf(base({ balance: { measure: "stops", cost_per_unit: 1, weight: 2 } }));
    expect(extra).to.have.length(1);
    expect(extra[0]!.loc).to.match(/^body\.balance/);
  });

  it("refuses duration without the time dimension, with the exact message", () => {
    expect(issuesOf(base({ balance: { measure: "duration", cost_per_unit: 2 } }))).to.deep.equal([
      {
        loc: "body.balance.measure",
        msg:
          "balance.measure 'duration' needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds " +
          "(or duration_matrix), or balance by 'stops' or 'distance'",
        type: "time_dimension_required",
      },
    ]);
  });

  it("refuses balance pinned to a strategy that does not price it, and accepts it pinned to hgs", () => {
    expect(issuesOf(base({ balance: { measure: "stops", cost_per_unit: 1 }, strategy: "clarke-wright" }))).to.deep.equal([
      {
        loc: "body.balance",
        msg:
          "balance (feature 'balance') is not supported yet: the pinned strategy 'clarke-wright' does not honour it; " +
          "send the request without it or without the strategy",
        type: "unsupported_feature",
      },
    ]);
    expect(issuesOf(base({ balance: { measure: "stops", cost_per_unit: 1 }, strategy: "hgs" }))).to.deep.equal([]);
  });

  it("refuses balance together with several trips, whose search does not price it", () => {
    const trips = { balance: { measure: "stops", cost_per_unit: 1 }, vehicle_reload_nodes: [[0], [0]] };
    expect(issuesOf(base(trips))).to.deep.equal([
      {
        loc: "body.vehicle_reload_nodes",
        msg: "vehicle_reload_nodes together with balance is not supported yet; send the request without one of them",
        type: "unsupported_feature",
      },
    ]);
  });
});
