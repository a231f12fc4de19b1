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

/**
 * Pickups, shipments and extra dimensions (constraints.md, second table), typed by hand until the
 * OpenAPI document carries them (issue 22); then a Pick like ServiceFields.
 */
export interface LoadFields {
  node_pickups?: number[] | null;
  pickups_after_deliveries?: boolean | null;
  shipments?: { pickup: number; delivery: number; amount: number }[] | null;
  node_extra_demands?: number[][] | null;
  vehicles_extra_capacity?: number[][] | null;
}

/** The request fields of constraints.md. */
export type ConstraintFields = ServiceFields & LoadFields;
