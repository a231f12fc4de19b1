import { expect } from "chai";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

/** Depot 0 at x = 0, customers 1..4 at x = 10, 20, 30, 40; two vehicles of capacity 4. */
function base(extra: Record<string, unknown> = {}): SolveRequestInput {
  const xs = [0, 10, 20, 30, 40];
  return {
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: xs.map((a) => xs.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 0, 0],
    vehicles_capacity: [4, 4],
    ...extra,
  } as SolveRequestInput;
}

const timed = {
  node_time_windows: Array.from({ length: 5 }, () => [0, 1000]),
  node_service_time: [0, 5, 5, 5, 5],
  vehicle_speeds: [1, 1],
};

describe("validation and pre-check of ride-time limits, incompatible goods and same-vehicle groups", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });
  const issuesOf = (body: unknown) => {
    const outcome = validateSolveRequest(api, body, allowAll);
    return outcome.ok ? [] : outcome.issues.map((i) => ({ loc: i.loc.join("."), msg: i.msg, type: i.type }));
  };

  it("accepts every field well formed", () => {
    const ok = base({
      ...timed,
      shipments: [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 30 }],
      node_load_types: [null, "food", "bleach", "food", null],
      incompatible_load_types: [["food", "bleach"]],
      same_vehicle_groups: [[1, 2]],
    });
    expect(issuesOf(ok)).to.deep.equal([]);
  });

  it("refuses max_ride_minutes without the time dimension, and a non-positive one", () => {
    const noTime = base({ shipments: [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 30 }] });
    expect(issuesOf(noTime)).to.deep.equal([
      {
        loc: "body.shipments.0.max_ride_minutes",
        msg: "max_ride_minutes needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds (or duration_matrix)",
        type: "time_dimension_required",
      },
    ]);
    const zero = issuesOf(base({ ...timed, shipments: [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 0 }] }));
    expect(zero.map((i) => i.loc)).to.deep.equal(["body.shipments.0.max_ride_minutes"]);
  });

  it("names the pair and position of an unknown load type, a pair of one type twice, a typed depot, a wrong length", () => {
    const wrong = base({
      node_load_types: ["cash", "food", null, null, null],
      incompatible_load_types: [
        ["food", "fish"],
        ["food", "food"],
      ],
    });
    expect(issuesOf(wrong)).to.deep.equal([
      {
        loc: "body.node_load_types.0",
        msg: 'node 0 is a depot (a start or end node): its load type must be null (got "cash")',
        type: "depot_load_type",
      },
      { loc: "body.incompatible_load_types.0.1", msg: 'load type "fish" is no node\'s node_load_types entry', type: "unknown_load_type" },
      { loc: "body.incompatible_load_types.1", msg: 'pair 1 names "food" twice: a pair needs two different types', type: "value_error" },
    ]);
    expect(issuesOf(base({ node_load_types: [null, "food"] }))[0]).to.deep.equal({
      loc: "body.node_load_types",
      msg: "node_load_types must have node_num (5) entries, got 2",
      type: "length_mismatch",
    });
  });

  it("names a node in two groups, a depot in a group, a group splitting a shipment or mixing optional and required stops", () => {
    const wrong = base({
      shipments: [{ pickup: 3, delivery: 4, amount: 2 }],
      node_skip_penalties: [null, 5, null, null, null],
      same_vehicle_groups: [
        [1, 2, 3],
        [0, 2],
      ],
    });
    expect(issuesOf(wrong)).to.deep.equal([
      {
        loc: "body.same_vehicle_groups.1.0",
        msg: "node 0 is a depot (a start or end node): a group names customers only",
        type: "group_depot",
      },
      {
        loc: "body.same_vehicle_groups.1.1",
        msg: "node 2 is already in group 0: a node is in at most one group, once",
        type: "node_in_two_groups",
      },
      {
        loc: "body.shipments.0",
        msg:
          "shipment 0's pickup 3 and delivery 4 are in different same_vehicle_groups (or one in none): " +
          "put both in the same group or in none",
        type: "group_splits_shipment",
      },
      {
        loc: "body.same_vehicle_groups.0",
        msg:
          "group 0 mixes optional nodes (1) with required ones: its nodes are served or left out together, " +
          "so give all of them a skip penalty or none",
        type: "group_mixed_optional",
      },
    ]);
    expect(issuesOf(base({ same_vehicle_groups: [[1]] })).map((i) => i.loc)).to.deep.equal(["body.same_vehicle_groups.0"]);
  });

  it("refuses the visit rules together with several trips, naming the field", () => {
    const issues = issuesOf(base({ ...timed, same_vehicle_groups: [[1, 2]], vehicle_reload_nodes: [[0], null] }));
    expect(issues).to.deep.equal([
      {
        loc: "body.same_vehicle_groups",
        msg:
          "same_vehicle_groups together with vehicle_reload_nodes or node_release_times is not supported yet; " +
          "send the request without one of them",
        type: "unsupported_combination",
      },
    ]);
  });

  it("the pre-check names a group heavier than every vehicle and a shipment whose direct drive exceeds its ride limit", () => {
    const p = compileRequest(
      base({
        ...timed,
        node_demands: [0, 3, 2, 0, 0],
        shipments: [{ pickup: 3, delivery: 4, amount: 1, max_ride_minutes: 8 }],
        same_vehicle_groups: [[1, 2]],
      }),
    ).problem;
    const found = infeasibilities(p);
    expect(found.map((f) => [f.kind, f.node])).to.deep.equal([
      ["group_exceeds_capacity", 1],
      ["ride_time_too_short", 4],
    ]);
    expect(found[0]!.message).to.equal(
      "same_vehicle_groups[0] (nodes 1, 2) demands 5 together, more than the largest vehicle capacity 4 by 1: " +
        "its stops must share one vehicle",
    );
    expect(found[1]!.evidence).to.deep.include({ shipment: 0, travel_minutes: 10, max_ride_minutes: 8, late_by: 2 });
    const fits = compileRequest(base({ ...timed, shipments: [{ pickup: 3, delivery: 4, amount: 1, max_ride_minutes: 10 }] })).problem;
    expect(infeasibilities(fits)).to.deep.equal([]);
  });
});
