import type { StrategyFeature } from "../../strategies/core/strategy.js";
import type { SolveRequestInput } from "../problem/request-types.js";
import { travelFamily } from "./travel-families.js";
import { travelFeaturesOf } from "../api/validation/strategy-features.js";

/** A deterministic generator, so every run of the kit sees the same instances. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * One depot (node 0) and `customers` customers on a 100 x 100 grid, demands 1..5, `vehicles`
 * vehicles whose capacity fits the total demand with room to spare: the `capacities` family.
 */
export function baseRequest(customers: number, vehicles: number, seed = 3): SolveRequestInput {
  const rand = lcg(seed);
  const n = customers + 1;
  const positions = Array.from({ length: n }, (_, i) => (i === 0 ? [50, 50] : [Math.round(rand() * 100), Math.round(rand() * 100)]));
  const demands = positions.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 5)));
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity = Math.max(6, Math.ceil((total * 1.3) / vehicles));
  return {
    name: `conformance-${customers}`,
    node_num: n,
    vehicle_num: vehicles,
    node_positions: positions,
    distance_matrix: [],
    start_nodes: Array<number>(vehicles).fill(0),
    end_nodes: Array<number>(vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array<number>(vehicles).fill(capacity),
  } as SolveRequestInput;
}

const CUSTOMERS = 5;
const VEHICLES = 2;

/**
 * One small feasible request per feature family: the base with that one feature added. Small
 * enough for an exhaustive search (five customers, two vehicles), so every strategy that claims
 * the feature must take it.
 */
export function familyRequest(feature: StrategyFeature): SolveRequestInput {
  const r = baseRequest(CUSTOMERS, VEHICLES) as SolveRequestInput & Record<string, unknown>;
  const n = r.node_num;
  const perNode = <T>(f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
  r.name = `conformance-${feature}`;
  switch (feature) {
    case "capacities":
      break;
    case "distance_matrix": {
      const pos = r.node_positions as number[][];
      r.distance_matrix = pos.map((a) => pos.map((b) => Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!))));
      delete r.node_positions;
      break;
    }
    case "time_windows":
      r.node_time_windows = perNode((i) => (i === 0 ? [0, 1000] : [i * 40, i * 40 + 300]));
      r.node_service_time = perNode((i) => (i === 0 ? 0 : 10));
      r.vehicle_speeds = [1, 1];
      break;
    case "multiple_depots":
      // Node 1 becomes the second vehicle's depot.
      r.node_demands[1] = 0;
      r.start_nodes = [0, 1];
      r.end_nodes = [0, 1];
      break;
    case "mixed_fleet":
      r.objective = "min_total_cost";
      r.vehicles_capacity = [r.vehicles_capacity[0]! + 6, r.vehicles_capacity[0]!];
      r.vehicle_fixed_costs = [80, 30];
      r.vehicle_unit_distance_costs = [0.8, 1.2];
      break;
    case "optional_stops":
      r.node_skip_penalties = perNode((i) => (i === 4 ? 500 : i === 5 ? 1 : null));
      break;
    case "skills":
      r.node_skills = perNode((i) => (i === 2 || i === 3 ? ["cold"] : null));
      r.vehicle_skills = [["cold"], []];
      break;
    case "shifts":
      r.node_time_windows = perNode(() => [0, 1000]);
      r.node_service_time = perNode((i) => (i === 0 ? 0 : 5));
      r.vehicle_speeds = [1, 1];
      r.vehicle_time_windows = [
        [0, 600],
        [100, 900],
      ];
      break;
    case "route_limits":
      r.vehicle_max_stops = [3, 3];
      r.vehicle_max_distance = [400, null];
      break;
    case "pickups":
      r.node_pickups = perNode((i) => (i % 2 === 1 ? 2 : 0));
      break;
    case "backhauls":
      r.node_pickups = perNode((i) => (i === 2 || i === 4 ? 3 : 0));
      r.node_demands = r.node_demands.map((d, i) => (i === 2 || i === 4 ? 0 : d));
      r.pickups_after_deliveries = true;
      break;
    case "shipments":
      r.shipments = [
        { pickup: 1, delivery: 3, amount: 4 },
        { pickup: 2, delivery: 4, amount: 3 },
      ];
      r.node_demands = r.node_demands.map((d, i) => (i >= 1 && i <= 4 ? 0 : d));
      break;
    case "extra_dimensions":
      r.node_extra_demands = perNode((i) => (i === 0 ? [0] : [1 + (i % 3)]));
      r.vehicles_extra_capacity = [[8], [8]];
      break;
    case "reloads":
      // Room for about half the demand per trip: each used vehicle returns to the depot once or more.
      r.vehicles_capacity = [6, 6];
      r.vehicle_reload_nodes = [[0], [0]];
      r.vehicle_max_reloads = [3, null];
      break;
    case "release_times":
      r.node_time_windows = perNode(() => [0, 1000]);
      r.node_service_time = perNode((i) => (i === 0 ? 0 : 10));
      r.vehicle_speeds = [1, 1];
      r.node_release_times = perNode((i) => (i % 2 === 1 ? 60 : 0));
      break;
    case "locked_stops":
      // Node 5 first on vehicle 0 and node 1 first on vehicle 1: far from where a free plan puts them.
      r.initial_routes = [[5, 3], [1]];
      r.vehicle_locked_stops = [1, 1];
      break;
    case "balance":
      // A price per stop of the busiest route that pays for splitting the five stops between both vehicles.
      r.balance = { measure: "stops", cost_per_unit: 1000 };
      break;
    case "min_vehicles":
      r.objective = "min_vehicles";
      break;
    case "ride_times":
      // Shipment 1 -> 3 may ride at most 150 minutes: a detour through two other stops still fits.
      r.node_time_windows = perNode(() => [0, 1000]);
      r.node_service_time = perNode((i) => (i === 0 ? 0 : 5));
      r.vehicle_speeds = [1, 1];
      r.shipments = [{ pickup: 1, delivery: 3, amount: 2, max_ride_minutes: 150 }];
      r.node_demands = r.node_demands.map((d, i) => (i === 1 || i === 3 ? 0 : d));
      break;
    case "load_types":
      // Deliveries ride from the depot: fish (1, 2) and bleach (4) never share a vehicle.
      r.node_load_types = perNode((i) => (i === 1 || i === 2 ? "fish" : i === 4 ? "bleach" : null));
      r.incompatible_load_types = [["fish", "bleach"]];
      break;
    case "same_vehicle_groups":
      r.same_vehicle_groups = [[1, 5]];
      break;
    default:
      travelFamily(r, feature);
  }
  return r;
}

const has = (list: unknown, pick: (v: unknown) => boolean) => Array.isArray(list) && list.some(pick);

/** The feature families a request uses (for the examples, whose features the kit reads off them). */
export function requestFeatures(r: SolveRequestInput): StrategyFeature[] {
  const req = r as SolveRequestInput & Record<string, unknown>;
  const found: StrategyFeature[] = ["capacities"];
  const add = (f: StrategyFeature, yes: boolean) => yes && found.push(f);
  add("distance_matrix", !has(req.node_positions, () => true));
  add("time_windows", Array.isArray(req.node_time_windows));
  const depots = new Set([...req.start_nodes, ...req.end_nodes]);
  add("multiple_depots", depots.size > 1);
  add("mixed_fleet", req.objective === "min_total_cost" || new Set(req.vehicles_capacity).size > 1);
  add("optional_stops", has(req.node_skip_penalties, (v) => v !== null) || req.allow_unassigned === true);
  add(
    "skills",
    has(req.node_skills, (v) => Array.isArray(v) && v.length > 0),
  );
  add(
    "shifts",
    has(req.vehicle_time_windows, (v) => v !== null),
  );
  const limits = [req.vehicle_max_distance, req.vehicle_max_working_hours, req.vehicle_max_stops];
  add(
    "route_limits",
    limits.some((l) => has(l, (v) => v !== null)),
  );
  add(
    "pickups",
    has(req.node_pickups, (v) => typeof v === "number" && v > 0),
  );
  add("backhauls", req.pickups_after_deliveries === true);
  add(
    "shipments",
    has(req.shipments, () => true),
  );
  add(
    "extra_dimensions",
    has(req.node_extra_demands, () => true),
  );
  add(
    "reloads",
    has(req.vehicle_reload_nodes, (v) => Array.isArray(v) && v.length > 0),
  );
  add(
    "release_times",
    has(req.node_release_times, (v) => typeof v === "number" && v > 0),
  );
  add(
    "locked_stops",
    has(req.vehicle_locked_stops, (v) => typeof v === "number" && v > 0),
  );
  add("balance", req.balance != null);
  add("min_vehicles", req.objective === "min_vehicles");
  add(
    "ride_times",
    has(req.shipments, (s) => typeof s === "object" && s !== null && "max_ride_minutes" in s),
  );
  add("load_types", has(req.incompatible_load_types, () => true) && Array.isArray(req.node_load_types));
  add(
    "same_vehicle_groups",
    has(req.same_vehicle_groups, () => true),
  );
  found.push(...travelFeaturesOf(r));
  return found;
}
