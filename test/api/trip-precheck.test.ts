import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

/** Depot 0 at x = 0, customers 1..3 at x = 10, 20, 30; windows [0, 100], depot [0, 300]. */
function line(extra: Record<string, unknown> = {}): SolveRequestInput {
  const xs = [0, 10, 20, 30];
  return {
    node_num: 4,
    vehicle_num: 2,
    distance_matrix: xs.map((a) => xs.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 2, 2, 2],
    vehicles_capacity: [2, 2],
    node_time_windows: [
      [0, 300],
      [0, 100],
      [0, 100],
      [0, 100],
    ],
    node_service_time: [0, 5, 5, 5],
    vehicle_speeds: [1, 1],
    ...extra,
  } as SolveRequestInput;
}

describe("the pre-check with several trips and release times (trip-diagnostics.ts)", () => {
  it("names a customer released too late for its window, with the earliest arrival once released", () => {
    const p = compileRequest(line({ node_release_times: [0, 0, 85, 50], vehicles_capacity: [4, 4] })).problem;
    const found = infeasibilities(p);
    expect(found.map((f) => [f.kind, f.node])).to.deep.equal([["window_unreachable", 2]]);
    expect(found[0]!.message).to.equal(
      "node 2 is released at 85 (node_release_times), too late to be served within its time window [0, 100] by any vehicle: " +
        "the earliest arrival, leaving a depot once it is released, is 105, 5 min after the window closes",
    );
    expect(found[0]!.evidence).to.deep.include({ release_time: 85, earliest_arrival: 105, late_by: 5, vehicle: "Vehicle 0" });
  });

  it("counts a reload node closer to the customer as a depot the trip may leave from", () => {
    // Node 3 becomes vehicle 1's end node, a depot: leaving it at 85 reaches node 2 at 95.
    const req = line({ end_nodes: [0, 3], node_demands: [0, 2, 2, 0], node_release_times: [0, 0, 85, 0] });
    expect(infeasibilities(compileRequest(req).problem)).to.have.length(1);
    const reload = compileRequest({ ...req, vehicle_reload_nodes: [null, [3]] } as SolveRequestInput).problem;
    expect(infeasibilities(reload)).to.deep.equal([]);
  });

  it("does not call a total demand above the fleet's capacity infeasible when vehicles reload", () => {
    const plain = infeasibilities(compileRequest(line()).problem);
    expect(plain.map((f) => f.kind)).to.deep.equal(["total_demand_exceeds_capacity"]);
    const reloading = compileRequest(line({ vehicle_reload_nodes: [[0], null] })).problem;
    expect(infeasibilities(reloading)).to.deep.equal([]);
  });
});
