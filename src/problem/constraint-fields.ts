import type { components } from "../../generated/api.js";

type SolveRequest = components["schemas"]["SolveRequest"];

/** Pickups, backhauls, shipments and extra load dimensions (issue 22): the document's own types. */
export type LoadFields = Pick<SolveRequest, "node_pickups" | "pickups_after_deliveries" | "shipments" | "node_extra_demands" | "vehicles_extra_capacity">;

/**
 * Optional stops, skills, shifts and route limits (issue 21), typed by hand until the OpenAPI
 * document carries them; then this becomes a Pick of SolveRequest like LoadFields.
 */
export interface ServiceFields {
  node_skip_penalties?: (number | null)[] | null;
  allow_unassigned?: boolean | null;
  node_skills?: (string[] | null)[] | null;
  vehicle_skills?: (string[] | null)[] | null;
  vehicle_time_windows?: ([number, number] | number[] | null)[] | null;
  vehicle_max_distance?: (number | null)[] | null;
  vehicle_max_working_hours?: (number | null)[] | null;
  vehicle_max_stops?: (number | null)[] | null;
}

/** The request fields of constraints.md. */
export type ConstraintFields = ServiceFields & LoadFields;
