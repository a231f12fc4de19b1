import { expect } from "chai";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

/** Depot 0, customers 1..3, two vehicles from node 0; vehicle 1 ends at node 3 (a depot then). */
function base(extra: Record<string, unknown> = {}): SolveRequestInput {
  return {
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: Array.from({ length: 5 }, (_, i) => Array.from({ length: 5 }, (_, j) => Math.abs(i - j))),
    start_nodes: [0, 0],
    end_nodes: [0, 4],
    node_demands: [0, 1, 1, 1, 0],
    vehicles_capacity: [2, 2],
    ...extra,
  } as SolveRequestInput;
}

const timed = {
  node_time_windows: Array.from({ length: 5 }, () => [0, 1000]),
  node_service_time: [0, 5, 5, 5, 0],
  vehicle_speeds: [1, 1],
};

describe("validation of several trips and release times (422 messages and loc)", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });
  const issuesOf = (body: unknown) => {
    const outcome = validateSolveRequest(api, body, allowAll);
    return outcome.ok ? [] : outcome.issues.map((i) => ({ loc: i.loc.join("."), msg: i.msg, type: i.type }));
  };

  it("accepts reload nodes at any depot, limits and release times with the time dimension", () => {
    const ok = base({
      ...timed,
      vehicle_reload_nodes: [[0, 4], null],
      vehicle_max_reloads: [2, null],
      node_release_times: [0, 30, 0, 120.5, 0],
    });
    expect(issuesOf(ok)).to.deep.equal([]);
  });

  it("names field and length for each array of the wrong length", () => {
    const wrong = base({ ...timed, vehicle_reload_nodes: [[0]], vehicle_max_reloads: [1, 2, 3], node_release_times: [0, 1] });
    expect(issuesOf(wrong)).to.deep.equal([
      { loc: "body.vehicle_reload_nodes", msg: "vehicle_reload_nodes must have vehicle_num (2) entries, got 1", type: "length_mismatch" },
      { loc: "body.vehicle_max_reloads", msg: "vehicle_max_reloads must have vehicle_num (2) entries, got 3", type: "length_mismatch" },
      { loc: "body.node_release_times", msg: "node_release_times must have node_num (5) entries, got 2", type: "length_mismatch" },
    ]);
  });

  it("refuses a reload node that is a customer or out of range, naming vehicle and index", () => {
    const issues = issuesOf(base({ vehicle_reload_nodes: [[0, 2], [7]] }));
    expect(issues).to.deep.equal([
      {
        loc: "body.vehicle_reload_nodes.0.1",
        msg: "vehicle 0's reload node 2 is a customer: a reload node must be a depot (some vehicle's start or end node)",
        type: "reload_not_depot",
      },
      { loc: "body.vehicle_reload_nodes.1.0", msg: "node index 7 is out of range (node_num is 5)", type: "index_out_of_range" },
    ]);
  });

  it("refuses a negative or fractional max reloads by the document's bounds", () => {
    const issues = issuesOf(base({ vehicle_max_reloads: [-1, 1.5] }));
    expect(issues.map((i) => i.loc)).to.deep.equal(["body.vehicle_max_reloads.0", "body.vehicle_max_reloads.1"]);
    expect(issues[0]!.msg).to.match(/>= 0/);
    expect(issues[1]!.msg).to.match(/integer/);
  });

  it("refuses release times without the time dimension, negative ones, and one on a depot", () => {
    expect(issuesOf(base({ node_release_times: [0, 10, 0, 0, 5] }))).to.deep.equal([
      {
        loc: "body.node_release_times",
        msg: "node_release_times needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds",
        type: "time_dimension_required",
      },
      {
        loc: "body.node_release_times.4",
        msg: "node 4 is a depot (a start or end node): its release time must be 0 (got 5)",
        type: "depot_release",
      },
    ]);
    const negative = issuesOf(base({ ...timed, node_release_times: [0, -3, 0, 0, 0] }));
    expect(negative.map((i) => i.loc)).to.deep.equal(["body.node_release_times.1"]);
    expect(negative[0]!.msg).to.match(/>= 0/);
  });

  it("refuses reloads together with pickups, whose loads on board are not priced per trip", () => {
    expect(issuesOf(base({ vehicle_reload_nodes: [[0], null], node_pickups: [0, 1, 0, 0, 0] }))).to.deep.equal([
      {
        loc: "body.node_pickups",
        msg: "node_pickups cannot be combined with vehicle_reload_nodes: loads on board are not priced per trip",
        type: "unsupported_combination",
      },
    ]);
  });

  it("refuses several trips together with travel fields, naming both (not yet searched together)", () => {
    const withBreaks = base({
      ...timed,
      vehicle_reload_nodes: [[0], null],
      vehicle_breaks: [[{ earliest_start: 60, latest_start: 120, duration: 30 }], null],
    });
    expect(issuesOf(withBreaks)).to.deep.equal([
      {
        loc: "body.vehicle_reload_nodes",
        msg: "vehicle_reload_nodes together with vehicle_breaks is not supported yet; send the request without one of them",
        type: "unsupported_feature",
      },
    ]);
  });

  it("accepts several trips with locked stops and a reassignment cost, and reload stops of the vehicle in initial_routes", () => {
    const withLocks = base({ ...timed, node_release_times: [0, 30, 0, 0, 0], initial_routes: [[1], []], vehicle_locked_stops: [1, 0] });
    expect(issuesOf(withLocks)).to.deep.equal([]);
    const reloading = base({
      ...timed,
      vehicle_reload_nodes: [[0], null],
      initial_routes: [[1, 0, 2, 0, 3], []],
      vehicle_locked_stops: [3, 0],
      reassignment_cost: 10,
    });
    expect(issuesOf(reloading)).to.deep.equal([]);
  });

  it("refuses a depot in initial_routes that is not one of the vehicle's reload nodes, and a locked head over its reload limit", () => {
    const other = base({ ...timed, vehicle_reload_nodes: [[0], null], initial_routes: [[1], [0, 2]] });
    expect(issuesOf(other)).to.deep.equal([
      {
        loc: "body.initial_routes.1.0",
        msg:
          "node 0 is a depot (a start or end node) and cannot be in initial_routes: a route lists its customers only " +
          "(its start and end nodes are implicit) and the reload stops of its vehicle_reload_nodes (vehicle 1 has [])",
        type: "depot_in_route",
      },
    ]);
    const over = base({
      ...timed,
      vehicle_reload_nodes: [[0], null],
      vehicle_max_reloads: [1, null],
      initial_routes: [[1, 0, 2, 0, 3], []],
      vehicle_locked_stops: [4, 0],
    });
    expect(issuesOf(over)).to.deep.equal([
      {
        loc: "body.vehicle_locked_stops.0",
        msg: "vehicle 0's locked stops hold 2 reload stop(s), more than its vehicle_max_reloads (1)",
        type: "value_error",
      },
    ]);
  });
});
