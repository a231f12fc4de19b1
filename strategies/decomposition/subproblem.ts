import { distanceBetween, type CompiledProblem, type Solution } from "../core/problem.js";

/**
 * A few neighbouring routes of a large problem, re-expressed as a small problem of its own with a
 * dense matrix (node 0 = the depot, then the routes' customers), so that any strategy, including
 * those that need the matrix, can improve them; `lift` maps its solution back to the large
 * problem's nodes and vehicles.
 */
export interface SubProblem {
  problem: CompiledProblem;
  /** The current routes of the group, in sub-problem node numbers: the search starts from them. */
  start: Solution;
  /** The large problem's vehicles the group may use, one per sub-problem vehicle. */
  vehicles: number[];
  /** Sub-problem node -> large-problem node. */
  nodes: Int32Array;
}

export function extractSubProblem(p: CompiledProblem, vehicles: number[], routes: number[][]): SubProblem {
  const depot = p.startNode[vehicles[0]!]!;
  const customers = routes.flat();
  const nodes = Int32Array.from([depot, ...customers]);
  const n = nodes.length;
  const local = new Map<number, number>();
  nodes.forEach((node, i) => local.set(node, i));
  const dist = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) dist[i * n + j] = distanceBetween(p, nodes[i]!, nodes[j]!);
  let coords: Float64Array | null = null;
  if (p.coords) {
    coords = new Float64Array(2 * n);
    nodes.forEach((node, i) => {
      coords![2 * i] = p.coords![2 * node]!;
      coords![2 * i + 1] = p.coords![2 * node + 1]!;
    });
  }
  const m = vehicles.length;
  const pick = (values: Float64Array) => Float64Array.from(vehicles, (v) => values[v]!);
  const isDepot = new Uint8Array(n);
  isDepot[0] = 1;
  const problem: CompiledProblem = {
    nodeCount: n,
    vehicleCount: m,
    customers: Int32Array.from({ length: n - 1 }, (_, i) => i + 1),
    isDepot,
    dist,
    demand: Float64Array.from(nodes, (node) => p.demand[node]!),
    capacity: pick(p.capacity),
    fixedCost: pick(p.fixedCost),
    unitCost: pick(p.unitCost),
    startNode: new Int32Array(m),
    endNode: new Int32Array(m),
    coords,
    objective: p.objective,
    time: null,
  };
  const start: Solution = { routes: Array.from({ length: m }, (_, k) => (routes[k] ?? []).map((c) => local.get(c)!)) };
  return { problem, start, vehicles, nodes };
}

/** The sub-problem's routes in large-problem nodes, route k driven by `sub.vehicles[k]`. */
export function liftRoutes(sub: SubProblem, solution: Solution): number[][] {
  return sub.vehicles.map((_, k) => (solution.routes[k] ?? []).map((c) => sub.nodes[c]!));
}
