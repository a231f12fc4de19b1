import type { components } from "../../generated/api.js";

type SolveRequest = components["schemas"]["SolveRequest"];

/** Optional stops, skills, shifts and route limits (constraints.md, first table): the OpenAPI document's own types. */
export type ServiceFields = Pick<
  SolveRequest,
  | "node_skip_penalties"
  | "allow_unassigned"
  | "node_skills"
  | "vehicle_skills"
  | "vehicle_time_windows"
  | "vehicle_max_distance"
  | "vehicle_max_working_hours"
  | "vehicle_max_stops"
>;

/** Pickups, backhauls, shipments and extra load dimensions (constraints.md, second table): the document's own types. */
export type LoadFields = Pick<
  SolveRequest,
  "node_pickups" | "pickups_after_deliveries" | "shipments" | "node_extra_demands" | "vehicles_extra_capacity"
>;

/** Several trips a day and release times (constraints.md, "Plans that change during the day"): the document's own types. */
export type TripFields = Pick<SolveRequest, "vehicle_reload_nodes" | "vehicle_max_reloads" | "node_release_times">;

/** Plans that change during the day: a plan to start from and its locked stops (the document's own types). */
export type PlanFields = Pick<SolveRequest, "initial_routes" | "vehicle_locked_stops" | "reassignment_cost">;

/** Goods types that may not ride together and stops that go on one vehicle (constraints.md, "What dispatchers weigh beyond distance"). */
export type VisitFields = Pick<SolveRequest, "node_load_types" | "incompatible_load_types" | "same_vehicle_groups">;

/** The request fields of constraints.md. */
export type ConstraintFields = ServiceFields & LoadFields & PlanFields & TravelFields & TripFields & TrafficFields & VisitFields;

/** Traffic by time of day (constraints.md, "What dispatchers weigh beyond distance"): the document's own type. */
export type TrafficFields = Pick<SolveRequest, "time_dependent_durations">;

/** Travel times, profiles, cost per hour, several windows, breaks and open routes (constraints.md, third table). */
export type TravelFields = Pick<
  SolveRequest,
  | "duration_matrix"
  | "profiles"
  | "vehicle_profiles"
  | "vehicle_unit_time_costs"
  | "node_time_window_sets"
  | "vehicle_breaks"
  | "vehicle_return_to_end"
>;

/** One driver break as the request gives it. */
export type BreakInput = NonNullable<NonNullable<TravelFields["vehicle_breaks"]>[number]>[number];
