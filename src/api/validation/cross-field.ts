import { depotDemandMessage } from "../../errors/codes.js";
import type { ValidationIssue } from "../../errors/api-error.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import { DENSE_MATRIX_MAX_NODES } from "../../problem/compile-request.js";
import { MAX_ISSUES } from "./ajv-issues.js";
import { SERVICE_FIELDS, serviceFieldIssues } from "./service-fields.js";
import { loadFieldIssues, READ_BY_LOAD_RULES } from "./load-fields.js";
import { READ_BY_TRAVEL_RULES, travelFieldIssues } from "./travel-fields.js";
import { READ_BY_TRIP_RULES, tripFieldIssues } from "./trip-fields.js";
import { planFieldIssues, READ_BY_PLAN_RULES } from "./plan-fields.js";
import { READ_BY_TRAFFIC_RULES, trafficFieldIssues } from "./traffic-fields.js";
import { READ_BY_VISIT_RULES, visitFieldIssues } from "./visit-fields.js";
import { balanceFieldIssues, READ_BY_BALANCE_RULES } from "./balance-fields.js";

/** Checks an URL for the callback target; null means acceptable. */
export type CallbackUrlCheck = (url: string) => string | null;

/** The fields the rules below read: they run only when the schema found these well-typed. */
export const READ_BY_CROSS_FIELD_RULES: ReadonlySet<string> = new Set([
  "objective",
  "node_num",
  "vehicle_num",
  "node_positions",
  "distance_matrix",
  "start_nodes",
  "end_nodes",
  "node_demands",
  "vehicles_capacity",
  "vehicle_fixed_costs",
  "vehicle_unit_distance_costs",
  "node_time_windows",
  "node_service_time",
  "vehicle_speeds",
  "callback_url",
  ...SERVICE_FIELDS,
  ...READ_BY_LOAD_RULES,
  ...READ_BY_TRAVEL_RULES,
  ...READ_BY_TRIP_RULES,
  ...READ_BY_PLAN_RULES,
  ...READ_BY_TRAFFIC_RULES,
  ...READ_BY_VISIT_RULES,
  ...READ_BY_BALANCE_RULES,
]);

/**
 * The rules JSON Schema cannot state: lengths against node_num / vehicle_num, matrix shape,
 * indices in range, depot demand 0, window order, cost arrays under min_total_cost, callback_url.
 * Runs only when the schema found every field in READ_BY_CROSS_FIELD_RULES well-typed.
 */
export function crossFieldIssues(req: SolveRequestInput, checkCallbackUrl: CallbackUrlCheck): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const add = (loc: string[], msg: string, type = "value_error") => {
    if (issues.length < MAX_ISSUES) issues.push({ loc: ["body", ...loc], msg, type });
  };
  const n = req.node_num;
  const v = req.vehicle_num;

  type ArrayField =
    | "node_demands"
    | "start_nodes"
    | "end_nodes"
    | "vehicles_capacity"
    | "node_time_windows"
    | "node_service_time"
    | "vehicle_speeds"
    | "vehicle_fixed_costs"
    | "vehicle_unit_distance_costs";
  const lengthIs = (field: ArrayField, expected: number, against: "node_num" | "vehicle_num") => {
    const value = req[field];
    if (Array.isArray(value) && value.length !== expected) {
      add([field], `${field} must have ${against} (${expected}) entries, got ${value.length}`, "length_mismatch");
      return false;
    }
    return Array.isArray(value);
  };

  lengthIs("node_demands", n, "node_num");
  const startsOk = lengthIs("start_nodes", v, "vehicle_num");
  const endsOk = lengthIs("end_nodes", v, "vehicle_num");
  lengthIs("vehicles_capacity", v, "vehicle_num");

  const positions = req.node_positions ?? [];
  const hasPositions = positions.length > 0;
  if (hasPositions && positions.length !== n) {
    add(["node_positions"], `node_positions must be empty or have node_num (${n}) pairs, got ${positions.length}`, "length_mismatch");
  }
  if (!hasPositions && n > DENSE_MATRIX_MAX_NODES) {
    // Large problems: an n x n matrix would exceed the body limit, and the solver would not build one.
    add(["node_positions"], largeRequestMessage(n), "positions_required");
  } else {
    checkMatrix(req.distance_matrix, n, hasPositions && positions.length === n, add);
  }

  for (const [field, list, ok] of [
    ["start_nodes", req.start_nodes, startsOk],
    ["end_nodes", req.end_nodes, endsOk],
  ] as const) {
    if (!ok) continue;
    list.forEach((node, i) => {
      if (node >= n) add([field, String(i)], `node index ${node} is out of range (node_num is ${n})`, "index_out_of_range");
    });
  }

  // Depot demand: reported once per depot node, with the spec's exact message and loc ["body"].
  const depots = new Set<number>([...req.start_nodes, ...req.end_nodes].filter((i) => i < n));
  for (const depot of [...depots].sort((a, b) => a - b)) {
    const demand = req.node_demands[depot];
    if (demand !== undefined && demand !== 0)
      issues.length < MAX_ISSUES && issues.push({ loc: ["body"], msg: depotDemandMessage(depot, demand), type: "value_error" });
  }

  if (req.node_time_windows) {
    if (lengthIs("node_time_windows", n, "node_num")) {
      req.node_time_windows.forEach((w, i) => {
        const [start, end] = w as [number, number];
        if (start > end) add(["node_time_windows", String(i)], `time window start ${start} is after its end ${end}`, "value_error");
      });
    }
  }
  if (req.node_service_time) lengthIs("node_service_time", n, "node_num");
  if (req.vehicle_speeds) lengthIs("vehicle_speeds", v, "vehicle_num");

  const objective = req.objective ?? "min_total_distance";
  if (objective === "min_total_cost" || objective === "min_vehicles") {
    for (const field of ["vehicle_fixed_costs", "vehicle_unit_distance_costs"] as const) {
      const costs = req[field];
      if (!costs) continue;
      if (!lengthIs(field, v, "vehicle_num")) continue;
      costs.forEach((c, i) => {
        if (c < 0) add([field, String(i)], `${field} must be non-negative under ${objective}, got ${c}`, "greater_than_equal");
      });
    }
  }

  serviceFieldIssues(req, depots, add);
  loadFieldIssues(req, add);
  travelFieldIssues(req, add);
  tripFieldIssues(req, add);
  planFieldIssues(req, add);
  trafficFieldIssues(req, add);
  visitFieldIssues(req, add);
  balanceFieldIssues(req, add);

  if (req.callback_url !== undefined) {
    const reason = checkCallbackUrl(req.callback_url);
    if (reason !== null) add(["callback_url"], reason, "url_not_allowed");
  }
  return issues;
}

function checkMatrix(
  matrix: number[][],
  n: number,
  positionsGiven: boolean,
  add: (loc: string[], msg: string, type?: string) => void,
): void {
  if (positionsGiven && matrix.length === 0) return;
  if (matrix.length !== n) {
    const hint = positionsGiven ? " (or [] when node_positions are given)" : "";
    add(["distance_matrix"], `distance_matrix must have node_num (${n}) rows${hint}, got ${matrix.length}`, "length_mismatch");
    return;
  }
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    if (row.length !== n)
      add(["distance_matrix", String(i)], `row ${i} must have node_num (${n}) entries, got ${row.length}`, "length_mismatch");
  }
}

/** The 422 message for a large request without coordinates. */
export function largeRequestMessage(n: number): string {
  const limit = DENSE_MATRIX_MAX_NODES.toLocaleString("en-US");
  return (
    `node_positions are required above ${limit} nodes (got ${n}): a full ` +
    `distance_matrix that large exceeds the request body limit, so send ` +
    `node_positions with distance_matrix: [] (distances are then Euclidean, computed by the solver)`
  );
}
