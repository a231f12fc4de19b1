/** The shapes the page reads and writes: the OpenAPI document's, trimmed to what is drawn. */
export interface SolveRequest {
  name?: string;
  objective?: "min_total_distance" | "min_total_cost";
  node_num: number;
  node_positions?: [number, number][];
  vehicle_num: number;
  distance_matrix: number[][];
  start_nodes: number[];
  end_nodes: number[];
  node_demands: number[];
  vehicles_capacity: number[];
  vehicle_fixed_costs?: number[];
  vehicle_unit_distance_costs?: number[];
  node_time_windows?: [number, number][];
  node_service_time?: number[];
  vehicle_speeds?: number[];
  max_working_hours?: number | null;
  base_start_time?: [number, number, number];
  time_limit_seconds?: number;
  late_penalty_per_min?: number | null;
  [field: string]: unknown;
}

export interface SolvedResult {
  success: true;
  error: null;
  total_cost: number;
  routes: Record<string, number[]>;
  distances: number[];
  loads: Record<string, number[]>;
  time_windows: Record<string, [string, string][]>;
  time: number;
  request_id: string;
  strategy?: string;
  total_distance?: number;
  lateness_minutes?: number;
  lateness_penalty?: number;
  warnings?: string[];
}

export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

/** Live search state, when the service reports it (issue 13's `progress`). */
export interface Progress {
  elapsed_seconds?: number;
  time_limit_seconds?: number;
  feasible?: boolean;
  best_cost?: number | null;
  improvements?: number;
  iterations?: number;
  strategy?: string;
  best?: { routes?: Record<string, number[]> } | null;
}

export interface Envelope {
  success: boolean;
  request_id: string;
  error: string | null;
  result: Record<string, unknown> | null;
  code?: string;
  detail?: ValidationIssue[];
  retry_after_seconds?: number;
  diagnostics?: unknown;
}

export interface HistoryItem {
  request_id: string;
  name: string | null;
  submitted_at: string;
  state: string;
  node_num: number;
  vehicle_num: number;
  objective: string;
  total_cost: number | null;
}

export function isSolved(result: Record<string, unknown> | null): result is Record<string, unknown> & SolvedResult {
  return result !== null && typeof result.routes === "object" && result.routes !== null;
}
