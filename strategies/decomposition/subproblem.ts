import { distanceBetween, type CompiledProblem, type Solution, type TimeBlock } from "../core/problem.js";

/**
 * A few routes of a large problem, re-expressed as a small problem of its own with a dense matrix
 * (nodes 0..d-1 = the depots the group's vehicles start or end at, then the routes' customers), so
 * that any strategy, including those that need the matrix, can improve them; `liftRoutes` maps its
 * solution back to the large problem's nodes and vehicles.
 *
 * Whole routes keep their vehicle: sub-problem vehicle k is the large problem's `vehicles[k]`,
 * with its own start and end depot, capacity, costs and speed, and every node keeps its demand,
 * window and service time. Since a route's schedule depends only on its own vehicle and stops,
 * every route scores exactly the same in the sub-problem as in the large problem (windows, time
 * warp, working hours, several depots, mixed fleets), so a cheaper feasible sub-solution is a
 * cheaper feasible large solution.
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

/** Why a problem cannot be decomposed into sub-problems of whole routes, or null. */
export function decompositionRefusal(p: CompiledProblem): string | null {
  // Optional stops, skills, shifts, pickups, shipments and extra load dimensions
  // are not carried into sub-problems yet.
  if (p.rules) return "it does not take optional stops, skills, shifts or route limits yet";
  if (p.loads) return "it does not take pickups, shipments or extra load dimensions yet";
  return null;
}

function pickTime(t: TimeBlock, nodes: Int32Array, vehicles: number[]): TimeBlock {
  return {
    twStartMin: Float64Array.from(nodes, (node) => t.twStartMin[node]!),
    twEndMin: Float64Array.from(nodes, (node) => t.twEndMin[node]!),
    serviceMin: Float64Array.from(nodes, (node) => t.serviceMin[node]!),
    speed: Float64Array.from(vehicles, (v) => t.speed[v]!),
    maxRouteMin: t.maxRouteMin,
    latePenaltyPerMin: t.latePenaltyPerMin,
  };
}

/**
 * Above this many nodes a sub-problem given by coordinates gets no dense matrix (as the compiler
 * does for requests, src/problem/compile-request.ts): only the large strategy's per-depot start
 * builds sub-problems that big.
 */
export const SUB_DENSE_MAX_NODES = 3000;

/**
 * One growing buffer that the dense matrices of successive sub-problems share (each sub-problem
 * gets a view of its first n x n entries), for a caller that searches one sub-problem at a time
 * and keeps none, instead of a fresh matrix of a few megabytes per group, thousands of times
 * per solve (peak RSS on XXL: BENCHMARKS.md).
 */
export class MatrixPool {
  private buffer = new Float64Array(0);
  matrix(entries: number): Float64Array {
    if (this.buffer.length < entries) this.buffer = new Float64Array(Math.max(entries, Math.ceil(this.buffer.length * 1.5)));
    return this.buffer.subarray(0, entries);
  }
}

export function extractSubProblem(p: CompiledProblem, vehicles: number[], routes: number[][], pool?: MatrixPool): SubProblem {
  const depots: number[] = [];
  for (const v of vehicles) {
    for (const node of [p.startNode[v]!, p.endNode[v]!]) if (!depots.includes(node)) depots.push(node);
  }
  const customers = routes.flat();
  const nodes = Int32Array.from([...depots, ...customers]);
  const n = nodes.length;
  const local = new Map<number, number>();
  nodes.forEach((node, i) => local.set(node, i));
  const dense = n <= SUB_DENSE_MAX_NODES || !p.coords;
  const dist = dense && pool ? pool.matrix(n * n) : new Float64Array(dense ? n * n : 0);
  if (dense)
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) dist[i * n + j] = i === j ? 0 : distanceBetween(p, nodes[i]!, nodes[j]!);
  let coords: Float64Array | null = null;
  if (p.coords) {
    coords = new Float64Array(2 * n);
    nodes.forEach((node, i) => {
      coords![2 * i] = p.coords![2 * node]!;
      coords![2 * i + 1] = p.coords![2 * node + 1]!;
    });
  }
  const pick = (values: Float64Array) => Float64Array.from(vehicles, (v) => values[v]!);
  const isDepot = new Uint8Array(n);
  isDepot.fill(1, 0, depots.length);
  const problem: CompiledProblem = {
    nodeCount: n,
    vehicleCount: vehicles.length,
    customers: Int32Array.from({ length: customers.length }, (_, i) => depots.length + i),
    isDepot,
    dist,
    demand: Float64Array.from(nodes, (node) => p.demand[node]!),
    capacity: pick(p.capacity),
    fixedCost: pick(p.fixedCost),
    unitCost: pick(p.unitCost),
    startNode: Int32Array.from(vehicles, (v) => local.get(p.startNode[v]!)!),
    endNode: Int32Array.from(vehicles, (v) => local.get(p.endNode[v]!)!),
    coords,
    objective: p.objective,
    time: p.time ? pickTime(p.time, nodes, vehicles) : null,
  };
  const start: Solution = { routes: vehicles.map((_, k) => (routes[k] ?? []).map((c) => local.get(c)!)) };
  return { problem, start, vehicles, nodes };
}

/** The sub-problem's routes in large-problem nodes, route k driven by `sub.vehicles[k]`. */
export function liftRoutes(sub: SubProblem, solution: Solution): number[][] {
  return sub.vehicles.map((_, k) => (solution.routes[k] ?? []).map((c) => sub.nodes[c]!));
}
