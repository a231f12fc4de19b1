import { euclidean, type CompiledProblem, type TimeBlock } from "../../strategies/core/problem.js";
import { compileLoadRules, compileServiceRules } from "./compile-constraints.js";
import { compileLockedStops, compileReassignment } from "./compile-plan.js";
import { compileBalance } from "./compile-balance.js";
import { compileTravelRules } from "./compile-travel.js";
import type { ConstraintFields } from "./constraint-fields.js";
import { pricedByCost } from "./objective-pricing.js";
import { compileTripRules } from "./compile-trips.js";
import { compileVisitRules } from "./compile-visits.js";
import type { SolveRequestInput } from "./request-types.js";

/**
 * Above this many nodes a request given by node_positions gets no n x n matrix (8 n^2 bytes:
 * 72 MB at 3,000 nodes, 7.2 GB at 30,000): its distances are computed from the coordinates on
 * demand, and only strategies that work without the matrix (clarke-wright, large) take it.
 */
export const DENSE_MATRIX_MAX_NODES = 3000;

export interface CompiledRequest {
  problem: CompiledProblem;
  warnings: string[];
  baseStartSeconds: number;
}

/**
 * The request, compiled once into the solver's typed arrays (decisions.md semantics): Euclidean
 * distances when every node has a position, resolved per-vehicle costs for both objectives, and
 * a time block only when windows, service times and speeds are all given.
 */
export function compileRequest(req: SolveRequestInput, options: { withDistances?: boolean } = {}): CompiledRequest {
  const n = req.node_num;
  const m = req.vehicle_num;
  const warnings: string[] = [];
  const positions = req.node_positions ?? [];
  const useCoords = positions.length === n;
  // Without distances (the API's pre-check reads the few it needs through requestDistance): an
  // n x n matrix of a large request costs the API's event loop hundreds of milliseconds.
  const withDistances = options.withDistances ?? true;
  // Above DENSE_MATRIX_MAX_NODES nodes with coordinates, distances are computed on demand.
  const dense = withDistances && (!useCoords || n <= DENSE_MATRIX_MAX_NODES);
  const dist = new Float64Array(dense ? n * n : 0);
  let coords: Float64Array | null = null;
  if (useCoords) {
    coords = new Float64Array(2 * n);
    positions.forEach((xy, i) => {
      coords![2 * i] = xy[0]!;
      coords![2 * i + 1] = xy[1]!;
    });
    if (dense) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) dist[i * n + j] = euclidean(coords, i, j);
  } else {
    for (let i = 0; withDistances && i < n; i++) {
      const row = req.distance_matrix[i]!;
      for (let j = 0; j < n; j++) dist[i * n + j] = row[j]!;
    }
  }

  const startNode = Int32Array.from(req.start_nodes);
  const endNode = Int32Array.from(req.end_nodes);
  const isDepot = new Uint8Array(n);
  for (let v = 0; v < m; v++) {
    isDepot[startNode[v]!] = 1;
    isDepot[endNode[v]!] = 1;
  }
  const customers: number[] = [];
  for (let i = 0; i < n; i++) if (!isDepot[i]) customers.push(i);

  const objective = pricedByCost(req) ? "cost" : "distance";
  const fixedCost = new Float64Array(m);
  const unitCost = new Float64Array(m).fill(1);
  if (objective === "cost") {
    if (req.vehicle_fixed_costs) fixedCost.set(req.vehicle_fixed_costs);
    if (req.vehicle_unit_distance_costs) unitCost.set(req.vehicle_unit_distance_costs);
  }

  // A duration matrix gives every vehicle its travel minutes: speeds are then not needed (travel.ts).
  const durations = (req as SolveRequestInput & ConstraintFields).duration_matrix;
  const speeds = req.vehicle_speeds ?? (durations != null ? Array<number>(m).fill(1) : undefined);
  const timeFields = [req.node_time_windows, req.node_service_time, speeds];
  const given = timeFields.filter((f) => f !== undefined && f !== null).length;
  let time: TimeBlock | null = null;
  if (given === 3) {
    const windows = req.node_time_windows!;
    time = {
      twStartMin: Float64Array.from(windows, (w) => w[0]!),
      twEndMin: Float64Array.from(windows, (w) => w[1]!),
      serviceMin: Float64Array.from(req.node_service_time!),
      speed: Float64Array.from(speeds!),
      // Omitted, null or "" all mean no cap (spec 2.1: "Empty or omitted means no cap").
      maxRouteMin: typeof req.max_working_hours === "number" ? req.max_working_hours * 60 : Number.POSITIVE_INFINITY,
      latePenaltyPerMin: req.late_penalty_per_min != null && req.late_penalty_per_min > 0 ? req.late_penalty_per_min : 0,
    };
  } else if (given > 0) {
    warnings.push(
      (durations != null
        ? "node_time_windows and node_service_time must both be given with duration_matrix"
        : "node_time_windows, node_service_time and vehicle_speeds must all be given") +
        " to enable the time dimension; the ones given were ignored",
    );
  }
  if (!time && typeof req.max_working_hours === "number") warnings.push("max_working_hours was ignored because the time dimension is off");
  if (!time && req.late_penalty_per_min != null && req.late_penalty_per_min > 0) {
    warnings.push("late_penalty_per_min was ignored because the time dimension is off");
  }

  const constraintFields = req as SolveRequestInput & ConstraintFields;
  const rules = compileServiceRules(constraintFields, n, m, isDepot, time, warnings);
  const loads = compileLoadRules(constraintFields, n, m);
  const trips = compileTripRules(constraintFields, n, m, time);
  const locks = compileLockedStops(constraintFields, n, m, isDepot);
  const reassignment = compileReassignment(constraintFields, n, isDepot);
  const travel = compileTravelRules({ ...constraintFields, objective: req.objective }, n, m, time, warnings);
  const visits = compileVisitRules(constraintFields, n);
  const balance = compileBalance(req, time !== null);

  const [h, min, s] = req.base_start_time ?? [9, 0, 0];
  return {
    problem: {
      nodeCount: n,
      vehicleCount: m,
      customers: Int32Array.from(customers),
      isDepot,
      dist,
      demand: Float64Array.from(req.node_demands),
      capacity: Float64Array.from(req.vehicles_capacity),
      fixedCost,
      unitCost,
      startNode,
      endNode,
      coords,
      objective,
      time,
      ...(rules ? { rules } : {}),
      ...(loads ? { loads } : {}),
      ...(trips ? { trips } : {}),
      ...(locks ? { locks } : {}),
      ...(reassignment ? { reassignment } : {}),
      ...(balance ? { balance } : {}),
      ...(travel ? { travel } : {}),
      ...(req.objective === "min_vehicles" ? { minVehicles: true } : {}),
      ...(visits ? { visits } : {}),
    },
    warnings,
    baseStartSeconds: (h ?? 9) * 3600 + (min ?? 0) * 60 + (s ?? 0),
  };
}

/** d(i, j) of a request by the same rule as compileRequest, without building the matrix. */
export function requestDistance(req: SolveRequestInput): (i: number, j: number) => number {
  const positions = req.node_positions ?? [];
  if (positions.length === req.node_num)
    return (i, j) => Math.hypot(positions[i]![0]! - positions[j]![0]!, positions[i]![1]! - positions[j]![1]!);
  return (i, j) => req.distance_matrix[i]![j]!;
}
