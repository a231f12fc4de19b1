import { expect } from "chai";
import { checkLoadRules, type LoadFieldsOfRequest } from "./check-loads.js";
import type { PlainCvrpRequest } from "./requests.js";


interface PlainResult {
  total_cost: number;
  routes: Record<string, number[]>;
  distances: number[];
  loads: Record<string, number[]>;
  loads_on_board?: Record<string, number[]>;
  extra_loads_on_board?: Record<string, number[][]>;
}

/**
 * An independent, deliberately naive check of a distance-objective result without a time
 * dimension: every customer exactly once, routes from start to end depot, capacity, loads,
 * distances and total cost recomputed from the request; and the load rules (pickups, backhauls,
 * shipments, extra dimensions: check-loads.ts) when the request has them, their absence otherwise.
 */
export function checkDistanceResult(request: PlainCvrpRequest & Partial<LoadFieldsOfRequest>, result: PlainResult): void {
  const n = request.node_num;
  const d = (i: number, j: number): number => {
    const pos = request.node_positions;
    if (pos && pos.length === n) return Math.hypot(pos[i]![0]! - pos[j]![0]!, pos[i]![1]! - pos[j]![1]!);
    return request.distance_matrix[i]![j]!;
  };
  const depots = new Set([...request.start_nodes, ...request.end_nodes]);
  const seen = new Map<number, number>();
  const labels = Object.keys(result.routes);
  const ids = labels.map((l) => Number(/^Vehicle (\d+)$/.exec(l)![1]));
  expect(ids, "route keys ascending by vehicle id").to.deep.equal([...ids].sort((a, b) => a - b));
  expect(result.distances).to.have.length(labels.length);
  let total = 0;
  labels.forEach((label, k) => {
    const v = ids[k]!;
    const route = result.routes[label]!;
    expect(route[0], `${label} starts at its start node`).to.equal(request.start_nodes[v]);
    expect(route[route.length - 1], `${label} ends at its end node`).to.equal(request.end_nodes[v]);
    let load = 0;
    let dist = 0;
    const loads: number[] = [];
    route.forEach((node, i) => {
      if (i > 0) dist += d(route[i - 1]!, node);
      if (i > 0 && i < route.length - 1) {
        expect(depots.has(node), `${label} visits depot ${node} as a customer`).to.equal(false);
        seen.set(node, (seen.get(node) ?? 0) + 1);
        load += request.node_demands[node]!;
      }
      loads.push(load);
    });
    expect(load, `${label} delivered load within capacity`).to.be.at.most(request.vehicles_capacity[v]!);
    expect(result.loads[label]).to.deep.equal(loads);
    expect(result.distances[k]).to.be.closeTo(dist, 1e-6 * Math.max(1, dist));
    total += dist;
  });
  for (let node = 0; node < n; node++) {
    if (depots.has(node)) continue;
    expect(seen.get(node) ?? 0, `customer ${node} visited exactly once`).to.equal(1);
  }
  expect(result.total_cost).to.be.closeTo(total, 1e-6 * Math.max(1, total));
  checkLoadRules(request, result);
}
