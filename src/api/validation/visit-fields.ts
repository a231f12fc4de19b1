import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import { hasTimeDimension } from "./travel-fields.js";

type Add = (loc: string[], msg: string, type?: string) => void;

/** The request fields the visit rules read (schema-checked first). */
export const READ_BY_VISIT_RULES = [
  "node_load_types",
  "incompatible_load_types",
  "same_vehicle_groups",
  "shipments",
  "node_skip_penalties",
  "vehicle_reload_nodes",
  "node_release_times",
] as const;

/** Different goods types that pairs may name: one bit each in the search's on-board masks. */
export const MAX_INCOMPATIBLE_TYPES = 32;

/**
 * Cross-field rules of ride-time limits, incompatible goods and same-vehicle groups (constraints.md,
 * "What dispatchers weigh beyond distance"): ride limits only with the time dimension, load types
 * per node and null at depots, pairs of two different types that some node has, groups of
 * customers in range, each node in one group at most, shipments and skip penalties not split by a
 * group. Single-value bounds are the OpenAPI document's, checked before these.
 */
export function visitFieldIssues(req: SolveRequestInput & ConstraintFields, add: Add): void {
  const n = req.node_num;
  const depots = new Set<number>([...req.start_nodes, ...req.end_nodes]);

  if (!hasTimeDimension(req)) {
    req.shipments?.forEach((shipment, s) => {
      if (shipment.max_ride_minutes !== undefined)
        add(
          ["shipments", String(s), "max_ride_minutes"],
          "max_ride_minutes needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds (or duration_matrix)",
          "time_dimension_required",
        );
    });
  }

  const types = req.node_load_types;
  if (Array.isArray(types)) {
    if (types.length !== n)
      add(["node_load_types"], `node_load_types must have node_num (${n}) entries, got ${types.length}`, "length_mismatch");
    else
      for (const depot of [...depots].sort((a, b) => a - b))
        if (types[depot] != null)
          add(
            ["node_load_types", String(depot)],
            `node ${depot} is a depot (a start or end node): its load type must be null (got "${types[depot]}")`,
            "depot_load_type",
          );
  }
  const known = new Set((types ?? []).filter((t): t is string => t != null));
  const named = new Set<string>();
  req.incompatible_load_types?.forEach((pair, k) => {
    const [a, b] = pair as [string, string];
    if (a === b)
      add(["incompatible_load_types", String(k)], `pair ${k} names "${a}" twice: a pair needs two different types`, "value_error");
    pair.forEach((type, j) => {
      named.add(type);
      if (!known.has(type))
        add(
          ["incompatible_load_types", String(k), String(j)],
          `load type "${type}" is no node's node_load_types entry`,
          "unknown_load_type",
        );
    });
  });
  if (named.size > MAX_INCOMPATIBLE_TYPES)
    add(
      ["incompatible_load_types"],
      `incompatible_load_types names ${named.size} different types; at most ${MAX_INCOMPATIBLE_TYPES} are allowed`,
      "too_many_types",
    );

  groupIssues(req, depots, add);

  // Several trips are searched on reload copies of the depots, which the visit rules do not cover yet.
  const trips = req.vehicle_reload_nodes?.some((nodes) => (nodes?.length ?? 0) > 0) || req.node_release_times?.some((t) => t > 0);
  const visitField = req.shipments?.some((x) => x.max_ride_minutes !== undefined)
    ? "max_ride_minutes"
    : (req.incompatible_load_types?.length ?? 0) > 0
      ? "incompatible_load_types"
      : (req.same_vehicle_groups?.length ?? 0) > 0
        ? "same_vehicle_groups"
        : null;
  if (trips && visitField !== null)
    add(
      [visitField === "max_ride_minutes" ? "shipments" : visitField],
      `${visitField} together with vehicle_reload_nodes or node_release_times is not supported yet; send the request without one of them`,
      "unsupported_combination",
    );
}

function groupIssues(req: SolveRequestInput & ConstraintFields, depots: Set<number>, add: Add): void {
  const groups = req.same_vehicle_groups;
  if (!groups) return;
  const n = req.node_num;
  const groupOf = new Map<number, number>();
  groups.forEach((group, g) => {
    group.forEach((node, k) => {
      const loc = ["same_vehicle_groups", String(g), String(k)];
      if (node >= n) add(loc, `node index ${node} is out of range (node_num is ${n})`, "index_out_of_range");
      else if (depots.has(node)) add(loc, `node ${node} is a depot (a start or end node): a group names customers only`, "group_depot");
      else if (groupOf.has(node)) {
        const other = groupOf.get(node)!;
        const where = other === g ? "twice in this group" : `already in group ${other}`;
        add(loc, `node ${node} is ${where}: a node is in at most one group, once`, "node_in_two_groups");
      } else groupOf.set(node, g);
    });
  });
  req.shipments?.forEach((shipment, s) => {
    const a = groupOf.get(shipment.pickup) ?? -1;
    const b = groupOf.get(shipment.delivery) ?? -1;
    if (a !== b)
      add(
        ["shipments", String(s)],
        `shipment ${s}'s pickup ${shipment.pickup} and delivery ${shipment.delivery} are in different same_vehicle_groups ` +
          "(or one in none): put both in the same group or in none",
        "group_splits_shipment",
      );
  });
  const penalties = req.node_skip_penalties;
  if (!Array.isArray(penalties) || penalties.length !== n) return;
  groups.forEach((group, g) => {
    const inRange = group.filter((node) => node < n);
    const optional = inRange.filter((node) => penalties[node] != null);
    if (optional.length > 0 && optional.length < inRange.length)
      add(
        ["same_vehicle_groups", String(g)],
        `group ${g} mixes optional nodes (${optional.join(", ")}) with required ones: its nodes are served or left out together, ` +
          "so give all of them a skip penalty or none",
        "group_mixed_optional",
      );
  });
}
