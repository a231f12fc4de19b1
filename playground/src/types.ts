import type { components } from "../../generated/api.js";

/** Shapes of the OpenAPI document (the generated types), so the page breaks at build time when the contract changes. */
type Schemas = components["schemas"];

/** The request as the page edits it: the document's fields, plus any the user types in (sent as they are, for the service to judge). */
export interface SolveRequest {
  name?: string;
  objective?: "min_total_distance" | "min_total_cost" | "min_vehicles";
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

export type SolvedResult = Schemas["SolvedResult"];
export type ValidationIssue = Schemas["ValidationIssue"];
/** Live search state, when the service reports it (its `progress`). */
export type Progress = Schemas["SolveProgress"];

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

export type HistoryItem = Schemas["HistoryItem"];

export function isSolved(result: Record<string, unknown> | null): result is Record<string, unknown> & SolvedResult {
  return result !== null && typeof result.routes === "object" && result.routes !== null;
}
