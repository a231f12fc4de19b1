import { expect } from "chai";
import type { OpenAPIBackend } from "openapi-backend";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { travelFeaturesOf } from "../../src/api/validation/strategy-features.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;

function base(extra: Partial<SolveRequestInput> = {}): SolveRequestInput {
  return {
    objective: "min_vehicles",
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
    ...extra,
  };
}

/** objective min_vehicles: accepted, and its cost arrays checked as under min_total_cost. */
describe("validation of objective min_vehicles", () => {
  let api: OpenAPIBackend;
  before(async () => {
    api = (await sharedSpecBackend()) as OpenAPIBackend;
  });

  it("accepts min_vehicles with and without cost arrays", () => {
    expect(validateSolveRequest(api, base(), allowAll).ok).to.equal(true);
    expect(validateSolveRequest(api, base({ vehicle_fixed_costs: [10, 20], vehicle_unit_distance_costs: [1, 2] }), allowAll).ok).to.equal(
      true,
    );
  });

  it("refuses an unknown objective with a 422 naming the field", () => {
    const got = validateSolveRequest(api, { ...base(), objective: "min_routes" }, allowAll);
    expect(got.ok).to.equal(false);
    if (got.ok) return;
    expect(got.issues.map((i) => i.loc.join("."))).to.include("body.objective");
  });

  it("checks cost arrays as under min_total_cost, naming min_vehicles", () => {
    const got = validateSolveRequest(api, base({ vehicle_fixed_costs: [1], vehicle_unit_distance_costs: [1, -2] }), allowAll);
    expect(got.ok).to.equal(false);
    if (got.ok) return;
    const byLoc = Object.fromEntries(got.issues.map((i) => [i.loc.join("."), i.msg]));
    expect(byLoc["body.vehicle_fixed_costs"]).to.match(/vehicle_num/);
    expect(byLoc["body.vehicle_unit_distance_costs.1"]).to.equal(
      "vehicle_unit_distance_costs must be non-negative under min_vehicles, got -2",
    );
  });

  it("counts cost per hour as a feature when a cost array prices the plan", () => {
    const timed = {
      node_time_windows: [
        [0, 100],
        [0, 100],
        [0, 100],
      ] as [number, number][],
      node_service_time: [0, 1, 1],
      vehicle_speeds: [1, 1],
    };
    expect(travelFeaturesOf({ ...base(timed), vehicle_unit_time_costs: [30, 30] } as never)).to.include("time_costs");
  });
});
