import { expect } from "chai";

/** The request fields that decide a min_vehicles result's two figures. */
export interface FewestVehiclesRequest {
  objective?: string;
  node_num: number;
  start_nodes: number[];
  end_nodes: number[];
  distance_matrix: number[][];
  node_positions?: [number, number][];
  vehicle_fixed_costs?: number[];
  vehicle_unit_distance_costs?: number[];
}

/** The result fields read here. */
export interface FewestVehiclesResult {
  routes: Record<string, number[]>;
  total_cost: number;
  total_distance: number;
  lateness_penalty?: number;
}

/**
 * An independent check of a min_vehicles result (it reads only the request and the result): the
 * vehicles used (routes with a customer) are at most `fewest` when given, and `total_cost` is the
 * second figure: without cost arrays the total distance, with them each used vehicle's fixed
 * cost plus its unit cost x its distance (omitted arrays: fixed 0, unit 1), plus under soft windows
 * the result's lateness penalty (which the other checkers recompute). Returns the vehicles used.
 */
export function checkFewestVehicles(request: FewestVehiclesRequest, result: FewestVehiclesResult, fewest?: number): number {
  expect(request.objective).to.equal("min_vehicles");
  const positions = request.node_positions;
  const d = (i: number, j: number) =>
    positions && positions.length === request.node_num
      ? Math.hypot(positions[i]![0] - positions[j]![0], positions[i]![1] - positions[j]![1])
      : request.distance_matrix[i]![j]!;
  const priced = request.vehicle_fixed_costs !== undefined || request.vehicle_unit_distance_costs !== undefined;
  let used = 0;
  let distance = 0;
  let cost = 0;
  for (const [label, route] of Object.entries(result.routes)) {
    const v = Number(/^Vehicle (\d+)$/.exec(label)![1]);
    const customers = route.filter(
      (node, i) => i > 0 && i < route.length - 1 && node !== request.start_nodes[v] && node !== request.end_nodes[v],
    );
    if (customers.length === 0) continue;
    used++;
    let length = 0;
    for (let i = 1; i < route.length; i++) length += d(route[i - 1]!, route[i]!);
    distance += length;
    cost += (request.vehicle_fixed_costs?.[v] ?? 0) + (request.vehicle_unit_distance_costs?.[v] ?? 1) * length;
  }
  if (fewest !== undefined) expect(used, "vehicles used").to.be.at.most(fewest);
  expect(result.total_distance, "total_distance").to.be.closeTo(distance, 1e-6 * Math.max(1, distance));
  const second = (priced ? cost : distance) + (result.lateness_penalty ?? 0);
  expect(result.total_cost, "total_cost is the second figure").to.be.closeTo(second, 1e-6 * Math.max(1, second));
  return used;
}
