import { expect } from "chai";
import { generateProblem } from "../../playground/src/generate.js";
import { parseVehicleList } from "../../playground/src/generate-time.js";
import { buildPlanView } from "../../playground/src/plan-view.js";
import type { SolvedResult, SolveRequest } from "../../playground/src/types.js";

/** A two-customer request with the time dimension, at base 08:00. */
function request(extra: Record<string, unknown> = {}): SolveRequest {
  return {
    node_num: 3,
    vehicle_num: 1,
    node_positions: [
      [0, 0],
      [10, 0],
      [20, 0],
    ],
    distance_matrix: [],
    start_nodes: [0],
    end_nodes: [0],
    node_demands: [0, 1, 1],
    vehicles_capacity: [5],
    node_time_windows: [
      [0, 600],
      [0, 100],
      [0, 400],
    ],
    node_service_time: [0, 5, 5],
    vehicle_speeds: [1],
    base_start_time: [8, 0, 0],
    ...extra,
  };
}

function result(route: number[], times: string[][], extra: Record<string, unknown> = {}): SolvedResult {
  return {
    status: "solved",
    success: true,
    error: null,
    total_cost: 40,
    routes: { "Vehicle 0": route },
    distances: [40],
    loads: { "Vehicle 0": route.map((_, i) => Math.min(i, 2)) },
    time_windows: { "Vehicle 0": times },
    time: 0.1,
    request_id: "r",
    ...extra,
  } as SolvedResult;
}

/** The page's reading of the time and cost fields partners measure, and of re-planned routes. */
describe("route playground: several windows, breaks, profiles, open routes and locked stops", () => {
  it("reads a stop's several windows, the result's breaks in minutes, the profile and the locked stops", () => {
    const req = request({
      node_time_window_sets: [
        null,
        [
          [0, 20],
          [60, 100],
        ],
        null,
      ],
      vehicle_profiles: ["bike"],
      initial_routes: [[1, 2]],
      vehicle_locked_stops: [1],
    });
    const times = [
      ["08:00:00", "08:00:00"],
      ["08:10:00", "08:15:00"],
      ["09:00:00", "09:05:00"],
      ["09:25:00", "09:25:00"],
    ];
    const plan = buildPlanView(
      req,
      result([0, 1, 2, 0], times, { breaks: { "Vehicle 0": [{ start: "08:15:00", end: "08:45:00", after_node: 1 }] } }),
    );
    const [vehicle] = plan.vehicles;
    expect(vehicle!.breaks).to.deep.equal([{ start: 15, end: 45, afterNode: 1 }]);
    expect(vehicle!.profile).to.equal("bike");
    expect(vehicle!.stops.map((s) => s.windows)).to.deep.equal([
      null,
      [
        [0, 20],
        [60, 100],
      ],
      null,
      null,
    ]);
    expect(vehicle!.stops.map((s) => s.locked)).to.deep.equal([false, true, false, false]);
    expect(vehicle!.customers).to.equal(2);
  });

  it("counts an open route's last node as a served stop and ends its day when it leaves it", () => {
    const times = [
      ["08:00:00", "08:00:00"],
      ["08:10:00", "08:15:00"],
      ["08:25:00", "08:30:00"],
    ];
    const plan = buildPlanView(request({ vehicle_return_to_end: [false] }), result([0, 1, 2], times));
    const [vehicle] = plan.vehicles;
    expect(vehicle!.customers).to.equal(2);
    expect(vehicle!.stops.map((s) => s.served)).to.deep.equal([false, true, true]);
    expect(vehicle!.finish).to.equal(30);
    expect(plan.visits.has(2)).to.equal(true);
  });

  it("reads reload stops as trips: customers apart, the load each trip delivers, the fullest trip", () => {
    const req = request({ vehicle_reload_nodes: [[0]] });
    const times = [
      ["08:00:00", "08:00:00"],
      ["08:10:00", "08:15:00"],
      ["08:25:00", "08:30:00"],
      ["08:35:00", "08:35:00"],
      ["08:45:00", "08:50:00"],
      ["09:10:00", "09:10:00"],
    ];
    const res = result([0, 1, 0, 2, 0], times.slice(0, 5), { loads: { "Vehicle 0": [0, 1, 0, 1, 1] } });
    const [vehicle] = buildPlanView(req, res).vehicles;
    expect(vehicle!.stops.map((s) => s.reload)).to.deep.equal([false, false, true, false, false]);
    expect(vehicle!.customers).to.equal(2);
    expect(vehicle!.trips).to.equal(2);
    expect(vehicle!.load).to.equal(2);
    expect(vehicle!.peakTripLoad).to.equal(1);
  });

  it("adds the cost per hour of the route's duration under minimum total cost, and times a duration matrix without speeds", () => {
    const req = request({
      objective: "min_total_cost",
      vehicle_fixed_costs: [10],
      vehicle_unit_distance_costs: [1],
      vehicle_unit_time_costs: [60],
      vehicle_speeds: undefined,
      duration_matrix: [
        [0, 10, 20],
        [10, 0, 10],
        [20, 10, 0],
      ],
    });
    const times = [
      ["08:00:00", "08:00:00"],
      ["08:10:00", "08:15:00"],
      ["08:25:00", "08:30:00"],
      ["08:50:00", "08:50:00"],
    ];
    const plan = buildPlanView(req, result([0, 1, 2, 0], times));
    expect(plan.timed).to.equal(true);
    // fixed 10 + 40 distance + 50 minutes at 60 per hour
    expect(plan.vehicles[0]!.cost).to.be.closeTo(100, 1e-9);
  });

  it("generates two windows per customer (sorted, disjoint, the hull in node_time_windows), breaks and a bike profile", () => {
    const options = { nodes: 80, depots: 2, capacities: true, windows: true, timeLimitSeconds: 5, seed: 3 };
    const req = generateProblem({ ...options, twoWindows: true, breaks: true, profiles: true, bikeVehicles: [0, 3] });
    const sets = req.node_time_window_sets as ([number, number][] | null)[];
    let withTwo = 0;
    sets.forEach((set, i) => {
      if (!set) return;
      withTwo++;
      expect(i).to.be.at.least(2);
      expect(set[0]![1]).to.be.lessThan(set[1]![0]);
      expect(req.node_time_windows![i]).to.deep.equal([set[0]![0], set[1]![1]]);
    });
    expect(withTwo).to.be.greaterThan(10);
    const breaks = req.vehicle_breaks as { earliest_start: number; latest_start: number; duration: number }[][];
    expect(breaks).to.have.length(req.vehicle_num);
    for (const [b] of breaks) expect(b!.latest_start).to.be.greaterThan(b!.earliest_start);
    const profiles = req.vehicle_profiles as (string | null)[];
    expect(profiles.flatMap((p, v) => (p === "bike" ? [v] : []))).to.deep.equal([0, 3]);
    const bike = (req.profiles as Record<string, { duration_matrix: number[][] }>).bike!;
    expect(bike.duration_matrix).to.have.length(req.node_num);
    // Three minutes per unit of distance against the vans' one (speed 1).
    const [a, b] = [req.node_positions![0]!, req.node_positions![5]!];
    expect(bike.duration_matrix[0]![5]).to.be.closeTo(3 * Math.hypot(a[0] - b[0], a[1] - b[1]), 0.1);
    expect(parseVehicleList(" 0, 2,5")).to.deep.equal([0, 2, 5]);
    expect(parseVehicleList("two")).to.equal(undefined);
  });
});
