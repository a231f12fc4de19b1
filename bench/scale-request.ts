import type { SolveRequestInput } from "../src/problem/request-types.js";

/**
 * The same problem in other units: every distance (matrix or positions) and every cost times
 * `factor`, and with a time dimension the windows, service times and working hours too (speeds
 * unchanged, so travel minutes scale alike). Feasibility is unchanged and every solution's cost
 * is multiplied by `factor`, so the optimum's is as well.
 */
export function scaledRequest(request: SolveRequestInput, factor: number): SolveRequestInput {
  const out = structuredClone(request);
  out.distance_matrix = request.distance_matrix.map((row) => row.map((d) => d * factor));
  if (request.node_positions) out.node_positions = request.node_positions.map((xy) => xy.map((x) => x * factor));
  if (request.vehicle_fixed_costs) out.vehicle_fixed_costs = request.vehicle_fixed_costs.map((c) => c * factor);
  if (request.node_time_windows) out.node_time_windows = request.node_time_windows.map((w) => w.map((x) => x * factor));
  if (request.node_service_time) out.node_service_time = request.node_service_time.map((x) => x * factor);
  if (typeof request.max_working_hours === "number") out.max_working_hours = request.max_working_hours * factor;
  return out;
}
