import type { CompiledProblem, LoadRules, Solution } from "../../strategies/core/problem.js";

/** What a route carries, node by node (start and end nodes included). */
export interface LoadProfile {
  /**
   * First dimension after each node: the deliveries (node_demands) still to be made, plus the
   * pickups made so far, plus the shipment amounts picked up and not yet delivered.
   */
  onBoard: number[];
  /** Extra dimensions after each node: D deliveries still to be made (empty rows when D = 0). */
  extraOnBoard: number[][];
}

/**
 * The loads on board along one route, `nodes` from its start node to its end node. Deliveries are
 * all loaded at the start node, so the start node's value is the route's total delivery.
 */
export function loadProfile(p: CompiledProblem, rules: LoadRules, nodes: readonly number[]): LoadProfile {
  const d = rules.extraDims;
  let onBoard = 0;
  const extra = new Array<number>(d).fill(0);
  for (const node of nodes) {
    onBoard += p.demand[node]!;
    for (let k = 0; k < d; k++) extra[k]! += rules.extraDemand[node * d + k]!;
  }
  const profile: LoadProfile = { onBoard: [], extraOnBoard: [] };
  nodes.forEach((node, i) => {
    if (i > 0) {
      onBoard += rules.pickup[node]! + rules.shipmentLoad[node]! - p.demand[node]!;
      for (let k = 0; k < d; k++) extra[k]! -= rules.extraDemand[node * d + k]!;
    }
    profile.onBoard.push(onBoard);
    profile.extraOnBoard.push(extra.slice());
  });
  return profile;
}

/** The full route of vehicle v (start node, customers, end node). */
export function fullRoute(p: CompiledProblem, v: number, customers: readonly number[]): number[] {
  return [p.startNode[v]!, ...customers, p.endNode[v]!];
}

/** Where each shipment's stops are: vehicle and position, -1 when not served. */
export function shipmentPlaces(solution: Solution, nodeCount: number): { vehicle: Int32Array; position: Int32Array } {
  const vehicle = new Int32Array(nodeCount).fill(-1);
  const position = new Int32Array(nodeCount).fill(-1);
  solution.routes.forEach((route, v) =>
    route.forEach((node, i) => {
      if (node >= 0 && node < nodeCount) {
        vehicle[node] = v;
        position[node] = i;
      }
    }),
  );
  return { vehicle, position };
}
