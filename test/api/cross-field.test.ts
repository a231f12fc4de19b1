import { expect } from "chai";
import { crossFieldIssues, largeRequestMessage } from "../../src/api/validation/cross-field.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

function base(): SolveRequestInput {
  return {
    node_num: 3,
    vehicle_num: 2,
    distance_matrix: [
      [0, 1, 2],
      [1, 0, 1],
      [2, 1, 0],
    ],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1],
    vehicles_capacity: [5, 5],
  };
}

describe("cross-field validation", () => {
  it("accepts a consistent request", () => {
    expect(crossFieldIssues(base(), allowAll)).to.deep.equal([]);
  });

  it("accepts an empty matrix when every node has a position", () => {
    const r = {
      ...base(),
      distance_matrix: [],
      node_positions: [
        [0, 0],
        [1, 0],
        [2, 0],
      ] as [number, number][],
    };
    expect(crossFieldIssues(r, allowAll)).to.deep.equal([]);
  });

  it("requires the matrix when positions are missing or incomplete", () => {
    const r = { ...base(), distance_matrix: [], node_positions: [[0, 0]] as [number, number][] };
    const locs = crossFieldIssues(r, allowAll).map((i) => i.loc.join("."));
    expect(locs).to.deep.equal(["body.node_positions", "body.distance_matrix"]);
  });

  it("requires node_positions above 3,000 nodes instead of a matrix, and says why", () => {
    const n = 3001;
    const r = { ...base(), node_num: n, distance_matrix: [], node_demands: Array(n).fill(0) };
    const issues = crossFieldIssues(r, allowAll);
    expect(issues.map((i) => i.loc.join("."))).to.deep.equal(["body.node_positions"]);
    expect(issues[0]!.msg).to.equal(largeRequestMessage(n));
    expect(issues[0]!.msg).to.match(/node_positions are required above 3,000 nodes \(got 3001\)/);
    const withPositions = { ...r, node_positions: Array.from({ length: n }, (_, i): [number, number] => [i, 0]) };
    expect(crossFieldIssues(withPositions, allowAll)).to.deep.equal([]);
  });

  it("reports start/end indices out of range and depot demand with the spec's message", () => {
    const r = { ...base(), end_nodes: [0, 3], node_demands: [2, 1, 1] };
    const issues = crossFieldIssues(r, allowAll);
    expect(issues).to.deep.include({
      loc: ["body", "end_nodes", "1"],
      msg: "node index 3 is out of range (node_num is 3)",
      type: "index_out_of_range",
    });
    expect(issues).to.deep.include({ loc: ["body"], msg: "Depot/start/end node 0 demand must be 0 (got 2)", type: "value_error" });
  });

  it("checks time-dimension lengths and window order", () => {
    const r = {
      ...base(),
      node_time_windows: [
        [0, 10],
        [5, 1],
      ] as [number, number][],
      node_service_time: [0, 0, 0, 0],
      vehicle_speeds: [1],
    };
    const locs = crossFieldIssues(r, allowAll).map((i) => i.loc.join("."));
    expect(locs).to.deep.equal(["body.node_time_windows", "body.node_service_time", "body.vehicle_speeds"]);
    const order = crossFieldIssues(
      {
        ...base(),
        node_time_windows: [
          [0, 10],
          [5, 1],
          [0, 0],
        ] as [number, number][],
      },
      allowAll,
    );
    expect(order.map((i) => i.msg)).to.deep.equal(["time window start 5 is after its end 1"]);
  });

  it("passes the callback URL to the guard and reports its reason", () => {
    const issues = crossFieldIssues({ ...base(), callback_url: "http://x" }, () => "nope");
    expect(issues).to.deep.equal([{ loc: ["body", "callback_url"], msg: "nope", type: "url_not_allowed" }]);
  });

  it("caps the number of issues for a huge ragged matrix", () => {
    const n = 500;
    const r = { ...base(), node_num: n, node_demands: Array(n).fill(0), distance_matrix: Array.from({ length: n }, () => [0]) };
    expect(crossFieldIssues(r, allowAll)).to.have.length(100);
  });
});
