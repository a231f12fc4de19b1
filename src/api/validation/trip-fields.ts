import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";

type Add = (loc: string[], msg: string, type?: string) => void;

/** The request fields the trip rules read (schema-checked first). */
export const READ_BY_TRIP_RULES = ["vehicle_reload_nodes", "vehicle_max_reloads", "node_release_times"] as const;

/**
 * Cross-field rules of several trips and release times (constraints.md, "Plans that change during
 * the day"): lengths, reload nodes that are depots and in range, release times only with the time
 * dimension and 0 at depots, and no reloads together with the load fields whose on-board rules
 * are not priced per trip. Single-value bounds (a negative or fractional max reloads, a negative
 * release time) are the OpenAPI document's, checked before these.
 */
export function tripFieldIssues(req: SolveRequestInput & ConstraintFields, add: Add): void {
  const n = req.node_num;
  const m = req.vehicle_num;
  const depots = new Set<number>([...req.start_nodes, ...req.end_nodes]);
  const sized = (field: (typeof READ_BY_TRIP_RULES)[number], expected: number, against: string): boolean => {
    const value = req[field];
    if (!Array.isArray(value)) return false;
    if (value.length === expected) return true;
    add([field], `${field} must have ${against} (${expected}) entries, got ${value.length}`, "length_mismatch");
    return false;
  };

  if (sized("vehicle_reload_nodes", m, "vehicle_num")) {
    req.vehicle_reload_nodes!.forEach((nodes, v) => {
      nodes?.forEach((node, k) => {
        const loc = ["vehicle_reload_nodes", String(v), String(k)];
        if (node >= n) add(loc, `node index ${node} is out of range (node_num is ${n})`, "index_out_of_range");
        else if (!depots.has(node))
          add(
            loc,
            `vehicle ${v}'s reload node ${node} is a customer: a reload node must be a depot (some vehicle's start or end node)`,
            "reload_not_depot",
          );
      });
    });
    const reloads = req.vehicle_reload_nodes!.some((nodes) => (nodes?.length ?? 0) > 0);
    for (const field of ["node_pickups", "shipments", "node_extra_demands"] as const) {
      const value = req[field];
      if (reloads && Array.isArray(value) && value.length > 0)
        add(
          [field],
          `${field} cannot be combined with vehicle_reload_nodes: loads on board are not priced per trip`,
          "unsupported_combination",
        );
    }
  }
  sized("vehicle_max_reloads", m, "vehicle_num");

  const release = req.node_release_times;
  if (!sized("node_release_times", n, "node_num")) return;
  const timeOn = req.node_time_windows != null && req.node_service_time != null && req.vehicle_speeds != null;
  if (!timeOn)
    add(
      ["node_release_times"],
      "node_release_times needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds",
      "time_dimension_required",
    );
  for (const depot of [...depots].sort((a, b) => a - b)) {
    const r = release![depot];
    if (r !== undefined && r !== 0)
      add(
        ["node_release_times", String(depot)],
        `node ${depot} is a depot (a start or end node): its release time must be 0 (got ${r})`,
        "depot_release",
      );
  }
}
