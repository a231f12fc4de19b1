/** The wire request as the solver sees it (snake_case, as in spec 2.1). */
export interface SolveRequestInput {
  name?: string;
  objective?: "min_total_distance" | "min_total_cost";
  node_num: number;
  node_positions?: number[][];
  vehicle_num: number;
  distance_matrix: number[][];
  start_nodes: number[];
  end_nodes: number[];
  node_demands: number[];
  vehicles_capacity: number[];
  vehicle_fixed_costs?: number[];
  vehicle_unit_distance_costs?: number[];
  node_time_windows?: number[][];
  node_service_time?: number[];
  vehicle_speeds?: number[];
  max_working_hours?: number | null;
  base_start_time?: number[];
  time_limit_seconds?: number;
  late_penalty_per_min?: number | null;
  callback_url?: string;
  strategy?: string;
}
