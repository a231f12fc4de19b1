/**
 * Routes from either solver back onto the request, and their price by our own evaluator, so that
 * PyVRP's answers and ours are scored by the same rules: the request with the routes as
 * `initial_routes` and `max_iterations: 0` (evaluate only: the plan as it is, or the rules it breaks).
 */
import { solveRequest } from "../../src/problem/solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

/** What pyvrp-travel.py hands over: its model's maps and PyVRP's routes in model indices. */
export interface PyvrpSolution {
  /** The request node of each PyVRP client (the copies of a customer with several windows share it). */
  client_node: number[];
  /** The request vehicles of each PyVRP vehicle type, in index order. */
  type_vehicles: number[][];
  /** PyVRP's routes: the vehicle type and the clients visited (depots, the open routes' end depot included, are not listed). */
  routes: { vehicle_type: number; clients: number[] }[];
}

/** Our evaluator's verdict on a plan. */
export interface Verdict {
  /** The plan's total cost when our evaluator accepts it, else null. */
  total_cost: number | null;
  /** Accepted, with every customer served exactly once. */
  feasible: boolean;
  error: string | null;
}

/**
 * PyVRP's routes as `initial_routes`: each client mapped to its customer (one copy per window maps
 * back to the one customer), each route of type t on the next unused vehicle of type t. The open
 * routes' end depot is not among the clients, so an open route ends at its last customer.
 */
export function initialRoutesFromPyvrp(solution: PyvrpSolution, vehicleCount: number): number[][] {
  const routes: number[][] = Array.from({ length: vehicleCount }, () => []);
  const used = solution.type_vehicles.map(() => 0);
  for (const route of solution.routes) {
    const vehicles = solution.type_vehicles[route.vehicle_type];
    const v = vehicles?.[used[route.vehicle_type]!];
    if (v === undefined) throw new Error(`PyVRP used more vehicles of type ${route.vehicle_type} than it has`);
    used[route.vehicle_type]!++;
    routes[v] = route.clients.map((c) => {
      const node = solution.client_node[c];
      if (node === undefined) throw new Error(`PyVRP client ${c} is not in the model`);
      return node;
    });
  }
  return routes;
}

/**
 * A solved result's routes (`Vehicle k`: start node, stops, end node unless the route is open) as
 * `initial_routes`: the stops only.
 */
export function initialRoutesFromResult(
  request: SolveRequestInput & Record<string, unknown>,
  routes: Record<string, number[]>,
): number[][] {
  const back = (request.vehicle_return_to_end as boolean[] | undefined) ?? [];
  const out: number[][] = Array.from({ length: request.vehicle_num }, () => []);
  for (const [label, nodes] of Object.entries(routes)) {
    const v = Number(label.replace(/^Vehicle /, ""));
    out[v] = nodes.slice(1, back[v] === false ? nodes.length : nodes.length - 1);
  }
  return out;
}

/** Customers (non-depot nodes) served other than exactly once; empty when each is served once. */
function coverageProblems(request: SolveRequestInput, routes: number[][]): string[] {
  const depots = new Set([...request.start_nodes, ...request.end_nodes]);
  const seen = new Array<number>(request.node_num).fill(0);
  for (const route of routes) for (const c of route) seen[c]!++;
  const problems: string[] = [];
  seen.forEach((count, node) => {
    if (!depots.has(node) && count !== 1) problems.push(`node ${node} served ${count} times`);
  });
  return problems;
}

/** Our evaluator's price of `routes` on `request` (evaluate only, no search). */
export function evaluateRoutes(request: SolveRequestInput & Record<string, unknown>, routes: number[][]): Verdict {
  const coverage = coverageProblems(request, routes);
  if (coverage.length > 0) return { total_cost: null, feasible: false, error: coverage.slice(0, 3).join("; ") };
  const outcome = solveRequest(
    { ...request, initial_routes: routes, max_iterations: 0 },
    { requestId: "evaluate", timeLimitSeconds: 60, maxIterations: 0 },
  );
  if (outcome.status !== "solved") return { total_cost: null, feasible: false, error: outcome.error };
  return { total_cost: outcome.result.total_cost, feasible: true, error: null };
}
