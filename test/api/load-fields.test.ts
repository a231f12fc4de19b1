import { expect } from "chai";
import { crossFieldIssues } from "../../src/api/validation/cross-field.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

/** Depot 0 and five customers; two vehicles from node 0. */
function base(extra: Partial<SolveRequestInput & ConstraintFields> = {}): SolveRequestInput {
  const n = 6;
  return {
    node_num: n,
    vehicle_num: 2,
    distance_matrix: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Math.abs(i - j))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 0, 0, 1],
    vehicles_capacity: [5, 5],
    ...extra,
  } as SolveRequestInput;
}

const issues = (extra: Partial<SolveRequestInput & ConstraintFields>) => crossFieldIssues(base(extra), allowAll);

/** The pickup-and-delivery fields' cross-field rules: exact messages, loc naming field and index. */
describe("cross-field validation of pickups, shipments and extra dimensions", () => {
  it("accepts a consistent request using every field", () => {
    const ok = issues({
      node_pickups: [0, 0, 2, 0, 0, 0],
      shipments: [{ pickup: 3, delivery: 4, amount: 2 }],
      node_extra_demands: [
        [0, 0],
        [1, 2],
        [1, 0],
        [0, 0],
        [0, 0],
        [3, 1],
      ],
      vehicles_extra_capacity: [
        [5, 5],
        [4, 4],
      ],
    });
    expect(ok).to.deep.equal([]);
    expect(issues({ pickups_after_deliveries: true, node_pickups: [0, 0, 0, 3, 2, 0] })).to.deep.equal([]);
  });

  it("checks the lengths against node_num and vehicle_num", () => {
    const got = issues({ node_pickups: [0, 1], node_extra_demands: [[1]], vehicles_extra_capacity: [[1], [1], [1]] });
    expect(got).to.deep.equal([
      { loc: ["body", "node_pickups"], msg: "node_pickups must have node_num (6) entries, got 2", type: "length_mismatch" },
      { loc: ["body", "node_extra_demands"], msg: "node_extra_demands must have node_num (6) entries, got 1", type: "length_mismatch" },
      {
        loc: ["body", "vehicles_extra_capacity"],
        msg: "vehicles_extra_capacity must have vehicle_num (2) entries, got 3",
        type: "length_mismatch",
      },
    ]);
  });

  it("refuses a pickup on a depot", () => {
    expect(issues({ node_pickups: [4, 0, 0, 0, 0, 0] })).to.deep.equal([
      { loc: ["body", "node_pickups", "0"], msg: "depot node 0 (a start or end node) must have pickup 0 (got 4)", type: "value_error" },
    ]);
  });

  it("refuses a shipment naming a depot, a node out of range, or the same node twice", () => {
    const got = issues({
      shipments: [
        { pickup: 0, delivery: 3, amount: 1 },
        { pickup: 3, delivery: 9, amount: 1 },
        { pickup: 4, delivery: 4, amount: 1 },
      ],
    });
    expect(got).to.deep.equal([
      {
        loc: ["body", "shipments", "0", "pickup"],
        msg: "shipment 0: node 0 is a depot (a start or end node); a shipment's pickup and delivery are customers",
        type: "value_error",
      },
      { loc: ["body", "shipments", "1", "delivery"], msg: "node index 9 is out of range (node_num is 6)", type: "index_out_of_range" },
      { loc: ["body", "shipments", "2"], msg: "shipment 2: pickup and delivery are the same node 4", type: "value_error" },
    ]);
  });

  it("refuses a node in two shipments", () => {
    expect(
      issues({
        shipments: [
          { pickup: 3, delivery: 4, amount: 1 },
          { pickup: 4, delivery: 3, amount: 1 },
        ],
      }),
    ).to.deep.equal([
      {
        loc: ["body", "shipments", "1", "pickup"],
        msg: "shipment 1: node 4 is already in shipment 0; a node is in at most one shipment",
        type: "value_error",
      },
      {
        loc: ["body", "shipments", "1", "delivery"],
        msg: "shipment 1: node 3 is already in shipment 0; a node is in at most one shipment",
        type: "value_error",
      },
    ]);
  });

  it("refuses a demand, a pickup or an extra demand on a node of a shipment", () => {
    const got = issues({
      shipments: [
        { pickup: 1, delivery: 3, amount: 1 },
        { pickup: 4, delivery: 2, amount: 1 },
      ],
      node_pickups: [0, 0, 0, 0, 7, 0],
      node_extra_demands: [[0], [0], [0], [2], [0], [0]],
      vehicles_extra_capacity: [[3], [3]],
    });
    expect(got).to.deep.equal([
      {
        loc: ["body", "node_demands", "1"],
        msg: "node 1 is in shipment 0 and must have demand 0 (got 1); the shipment's amount is its load",
        type: "value_error",
      },
      {
        loc: ["body", "node_extra_demands", "3"],
        msg: "node 3 is in shipment 0 and must have extra demands 0 (got [2]); a shipment's amount is in the first dimension only",
        type: "value_error",
      },
      {
        loc: ["body", "node_pickups", "4"],
        msg: "node 4 is in shipment 1 and must have pickup 0 (got 7); the shipment's amount is its load",
        type: "value_error",
      },
      {
        loc: ["body", "node_demands", "2"],
        msg: "node 2 is in shipment 1 and must have demand 0 (got 1); the shipment's amount is its load",
        type: "value_error",
      },
    ]);
  });

  it("refuses, with pickups_after_deliveries, a node that has both a demand and a pickup (and only then)", () => {
    const both = { node_pickups: [0, 2, 0, 0, 0, 0] };
    expect(issues(both)).to.deep.equal([]);
    expect(issues({ ...both, pickups_after_deliveries: true })).to.deep.equal([
      {
        loc: ["body", "node_pickups", "1"],
        msg:
          "node 1 has both a demand (1) and a pickup (2), which pickups_after_deliveries " +
          "does not allow (every pickup comes after every delivery): make them two nodes",
        type: "value_error",
      },
    ]);
  });

  it("refuses dimension counts that differ between nodes and vehicles, and one field without the other", () => {
    const got = issues({ node_extra_demands: [[0, 0], [1, 2], [1], [0, 0], [0, 0], [3, 1]], vehicles_extra_capacity: [[5, 5], [4]] });
    expect(got).to.deep.equal([
      {
        loc: ["body", "node_extra_demands", "2"],
        msg: "node 2 has 1 extra dimension(s) but node 0 has 2; every node and vehicle must have the same number",
        type: "dimension_mismatch",
      },
      {
        loc: ["body", "vehicles_extra_capacity", "1"],
        msg: "vehicle 1 has 1 extra dimension(s) but node_extra_demands has 2; every node and vehicle must have the same number",
        type: "dimension_mismatch",
      },
    ]);
    expect(issues({ node_extra_demands: Array.from({ length: 6 }, () => [0]) })).to.deep.equal([
      {
        loc: ["body", "vehicles_extra_capacity"],
        msg: "vehicles_extra_capacity is required when node_extra_demands is given (each vehicle's capacity in every extra dimension)",
        type: "missing",
      },
    ]);
    expect(issues({ vehicles_extra_capacity: [[1], [1]] }).map((i) => i.msg)).to.deep.equal([
      "node_extra_demands is required when vehicles_extra_capacity is given (each node's amount in every extra dimension)",
    ]);
    expect(issues({ node_extra_demands: [[1], [0], [0], [0], [0], [0]], vehicles_extra_capacity: [[1], [1]] })).to.deep.equal([
      {
        loc: ["body", "node_extra_demands", "0"],
        msg: "depot node 0 (a start or end node) must have extra demands 0 (got [1])",
        type: "value_error",
      },
    ]);
  });

  it("requires equal skip penalties on a shipment's two nodes when node_skip_penalties is given", () => {
    const shipments = [{ pickup: 3, delivery: 4, amount: 1 }];
    expect(issues({ shipments, node_skip_penalties: [null, null, null, 10, 10, null] })).to.deep.equal([]);
    expect(issues({ shipments, node_skip_penalties: [null, null, null, 10, null, null] })).to.deep.equal([
      {
        loc: ["body", "node_skip_penalties", "4"],
        msg:
          "shipment 0: the skip penalties of its pickup (node 3: 10) and its delivery " +
          "(node 4: null) must be equal, so that the pair is served or skipped together",
        type: "value_error",
      },
    ]);
  });
});
