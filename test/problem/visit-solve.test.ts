import { expect } from "chai";
import { solveRequest, type SolvedResultObject } from "../../src/problem/solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { visitInstance, type VisitKind } from "../strategies/visit-problems.js";
import { visitFamily } from "../../bench/visit-rules.js";

function solve(request: SolveRequestInput) {
  return solveRequest(request, { requestId: "visit-solve", timeLimitSeconds: 5, seed: 1, maxIterations: 300 });
}

/** A given plan evaluated only (max_iterations 0 in the request). */
function evaluatePlan(request: SolveRequestInput) {
  return solveRequest(request, { requestId: "visit-solve", timeLimitSeconds: 5, seed: 1 });
}

/** Four customers on a line: 1 and 2 near the depot, 3 and 4 far; vehicles of capacity 2. */
function line(extra: Record<string, unknown> = {}): SolveRequestInput {
  const xs = [0, 10, 12, 50, 52];
  return {
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: xs.map((a) => xs.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1, 1],
    vehicles_capacity: [2, 2],
    ...extra,
  } as SolveRequestInput;
}

describe("solving with visit rules through the service's path (solveRequest, the independent checker)", function () {
  this.timeout(120_000);

  for (const visit of ["ride", "goods", "groups", "all"] as VisitKind[]) {
    it(`${visit}: a solved plan keeps every rule by the checker's own walk`, () => {
      let solved = 0;
      for (let seed = 1; seed <= 6; seed++) {
        const request = visitInstance({
          customers: 10,
          types: 2,
          depots: 1,
          mixedEnds: false,
          asymmetric: false,
          cost: false,
          time: seed % 2 === 0 ? "hard" : "none",
          hours: false,
          speeds: false,
          seed,
          kind: "shipments",
          loadSeed: seed,
          visit,
          visitSeed: seed * 7,
        });
        // Windows as wide as the day: the ride limits bind, the generator's windows would not let every shipment fit.
        if (request.node_time_windows) request.node_time_windows = request.node_time_windows.map(() => [0, 100_000]);
        const outcome = solve(request);
        if (outcome.status !== "solved") continue;
        solved++;
        checkDistanceResult(request as never, outcome.result as never);
      }
      expect(solved, "most instances solved").to.be.at.least(3);
    });
  }

  it("solves the bench's same-vehicle groups within 20 iterations: a group leaves an overloaded route as one block", () => {
    // Half the customers in groups of 2-4 and a fleet with room for every group on its own vehicle:
    // single-stop moves cannot empty an overloaded route without splitting a group.
    for (let seed = 1; seed <= 6; seed++) {
      const { request } = visitFamily("groups", seed, 60);
      const outcome = solveRequest(request, { requestId: "visit-solve", timeLimitSeconds: 60, seed: 1, maxIterations: 20 });
      expect(outcome.status, `instance ${seed}`).to.equal("solved");
      if (outcome.status === "solved") checkDistanceResult(request as never, outcome.result as never);
    }
  });

  it("keeps a group on one vehicle although splitting it would be shorter", () => {
    const outcome = solve(line({ vehicles_capacity: [4, 4], same_vehicle_groups: [[1, 3]], vehicle_num: 2 }));
    expect(outcome.status).to.equal("solved");
    const routes = Object.values((outcome as { result: SolvedResultObject }).result.routes as Record<string, number[]>);
    const withOne = routes.find((r) => r.includes(1))!;
    expect(withOne, "node 3 rides with node 1").to.include(3);
  });

  it("leaves an optional group out together, each stop with reason same_vehicle_group", () => {
    const request = line({
      node_demands: [0, 1, 1, 2, 2],
      vehicle_num: 1,
      vehicles_capacity: [3],
      start_nodes: [0],
      end_nodes: [0],
      node_skip_penalties: [null, null, null, 500, 500],
      same_vehicle_groups: [[3, 4]],
    });
    const outcome = solve(request);
    expect(outcome.status).to.equal("solved");
    const result = (outcome as { result: SolvedResultObject }).result as unknown as { unassigned: { node: number; reason: string }[] };
    expect(result.unassigned.map((u) => [u.node, u.reason])).to.deep.equal([
      [3, "same_vehicle_group"],
      [4, "same_vehicle_group"],
    ]);
    checkDistanceResult(request as never, result as never);
  });

  it("fails a given plan that splits a group or mixes incompatible goods, naming each", () => {
    const outcome = evaluatePlan(
      line({
        max_iterations: 0,
        initial_routes: [
          [1, 3],
          [2, 4],
        ],
        same_vehicle_groups: [[1, 2]],
        node_load_types: [null, null, null, "food", "bleach"],
        incompatible_load_types: [["food", "bleach"]],
      }),
    );
    expect(outcome.status).to.equal("failed");
    const error = (outcome as { error: string }).error;
    expect(error).to.contain("same_vehicle_groups not kept on one vehicle: 1 group(s) (group 0 split over vehicle 0, vehicle 1)");
    const mixed = evaluatePlan(
      line({
        max_iterations: 0,
        initial_routes: [[3, 4], []],
        vehicles_capacity: [2, 2],
        node_load_types: [null, null, null, "food", "bleach"],
        incompatible_load_types: [["food", "bleach"]],
      }),
    );
    expect(mixed.status).to.equal("failed");
    expect((mixed as { error: string }).error).to.contain("vehicle 0 carries the goods of nodes 3 and 4 together on 1 leg(s)");
  });
});
