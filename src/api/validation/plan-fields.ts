import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";

type Add = (loc: string[], msg: string, type?: string) => void;

/** The request fields the re-planning rules read (schema-checked first). */
export const READ_BY_PLAN_RULES = [
  "initial_routes",
  "vehicle_locked_stops",
  "reassignment_cost",
  "max_iterations",
  "node_skills",
  "vehicle_skills",
] as const;

/**
 * Cross-field rules of plans that change during the day (constraints.md): per-vehicle lengths,
 * initial routes of customers and the vehicle's reload stops only (in range, no other start or end
 * node, each customer at most once in the whole plan), at most vehicle_max_reloads reload stops
 * in a locked head, locked counts within their routes and only with initial_routes, locked stops the
 * vehicle has the skills for, a reassignment cost only with initial_routes, and max_iterations 0
 * (evaluate only) only with a plan to evaluate.
 */
export function planFieldIssues(req: SolveRequestInput & ConstraintFields, add: Add): void {
  const n = req.node_num;
  const m = req.vehicle_num;
  const depots = new Set<number>([...req.start_nodes, ...req.end_nodes]);
  const routes = req.initial_routes;
  const locked = req.vehicle_locked_stops;
  if (req.max_iterations === 0 && !routes)
    add(
      ["max_iterations"],
      "max_iterations 0 evaluates initial_routes without searching, but initial_routes is missing: " +
        "give the plan to evaluate, or at least 1 iteration",
      "missing_dependency",
    );
  for (const [field, value] of [
    ["initial_routes", routes],
    ["vehicle_locked_stops", locked],
  ] as const) {
    if (value && value.length !== m) add([field], `${field} must have vehicle_num (${m}) entries, got ${value.length}`, "length_mismatch");
  }
  if (locked && !routes && locked.some((k) => k > 0))
    add(
      ["vehicle_locked_stops"],
      "vehicle_locked_stops needs initial_routes: the locked stops are the first stops of each vehicle's initial route",
      "missing_dependency",
    );
  if (req.reassignment_cost !== undefined && !routes)
    add(
      ["reassignment_cost"],
      "reassignment_cost needs initial_routes: it prices serving a stop of the given plan on another vehicle than the plan's",
      "missing_dependency",
    );
  if (!routes) return;
  const firstAt = new Map<number, string>();
  routes.forEach((route, v) => {
    // A vehicle's reload stops (vehicle_reload_nodes) are the depots its route may visit inside, as often as it reloads.
    const reloads = new Set(req.vehicle_reload_nodes?.[v] ?? []);
    (route ?? []).forEach((node, k) => {
      const loc = ["initial_routes", String(v), String(k)];
      if (node >= n) add(loc, `node index ${node} is out of range (node_num is ${n})`, "index_out_of_range");
      else if (reloads.has(node)) return;
      else if (depots.has(node))
        add(
          loc,
          `node ${node} is a depot (a start or end node) and cannot be in initial_routes: ` +
            "a route lists its customers only (its start and end nodes are implicit)" +
            (req.vehicle_reload_nodes
              ? ` and the reload stops of its vehicle_reload_nodes (vehicle ${v} has ${JSON.stringify(req.vehicle_reload_nodes[v] ?? [])})`
              : ""),
          "depot_in_route",
        );
      else if (firstAt.has(node))
        add(loc, `node ${node} appears twice in initial_routes (first at initial_routes[${firstAt.get(node)}])`, "duplicate_node");
      else firstAt.set(node, `${v}][${k}`);
    });
  });
  if (!locked || locked.length !== m || routes.length !== m) return;
  locked.forEach((k, v) => {
    const length = routes[v]?.length ?? 0;
    if (k > length)
      add(
        ["vehicle_locked_stops", String(v)],
        `vehicle ${v} locks ${k} stop(s) but its initial route has ${length}: vehicle_locked_stops[${v}] must be at most ${length}`,
        "value_error",
      );
  });
  lockedSkillIssues(req, add);
  lockedReloadIssues(req, add);
}

/** A locked head's reload stops are made: they may not exceed the vehicle's vehicle_max_reloads. */
function lockedReloadIssues(req: SolveRequestInput & ConstraintFields, add: Add): void {
  const limits = req.vehicle_max_reloads;
  if (!Array.isArray(limits) || limits.length !== req.vehicle_num) return;
  req.vehicle_locked_stops!.forEach((k, v) => {
    const limit = limits[v];
    const reloads = new Set(req.vehicle_reload_nodes?.[v] ?? []);
    const made = (req.initial_routes![v] ?? []).slice(0, k).filter((node) => reloads.has(node)).length;
    if (typeof limit === "number" && made > limit)
      add(
        ["vehicle_locked_stops", String(v)],
        `vehicle ${v}'s locked stops hold ${made} reload stop(s), more than its vehicle_max_reloads (${limit})`,
        "value_error",
      );
  });
}

/** A locked stop stays on its vehicle: that vehicle must have every skill the stop needs. */
function lockedSkillIssues(req: SolveRequestInput & ConstraintFields, add: Add): void {
  const needs = req.node_skills;
  if (!Array.isArray(needs) || needs.length !== req.node_num) return;
  req.vehicle_locked_stops!.forEach((k, v) => {
    const has = new Set(req.vehicle_skills?.[v] ?? []);
    (req.initial_routes![v] ?? []).slice(0, k).forEach((node, i) => {
      const missing = (needs[node] ?? []).filter((skill) => !has.has(skill));
      if (missing.length > 0)
        add(
          ["initial_routes", String(v), String(i)],
          `node ${node} is locked on vehicle ${v} (vehicle_locked_stops), which lacks the skill(s) it needs: ${JSON.stringify(missing)}`,
          "skills_mismatch",
        );
    });
  });
}
