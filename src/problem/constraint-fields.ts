/**
 * The request fields of constraints.md, typed by hand until the OpenAPI document carries them;
 * once it does, this becomes a Pick of the generated SolveRequest.
 */
export interface ConstraintFields {
  node_skip_penalties?: (number | null)[] | null;
  allow_unassigned?: boolean | null;
  node_skills?: (string[] | null)[] | null;
  vehicle_skills?: (string[] | null)[] | null;
  vehicle_time_windows?: ([number, number] | number[] | null)[] | null;
  vehicle_max_distance?: (number | null)[] | null;
  vehicle_max_working_hours?: (number | null)[] | null;
  vehicle_max_stops?: (number | null)[] | null;
  node_pickups?: number[] | null;
  pickups_after_deliveries?: boolean | null;
  shipments?: { pickup: number; delivery: number; amount: number }[] | null;
  node_extra_demands?: number[][] | null;
  vehicles_extra_capacity?: number[][] | null;
}
