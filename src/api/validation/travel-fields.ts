import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";

type Add = (loc: string[], msg: string, type?: string) => void;
type Request = SolveRequestInput & ConstraintFields;

/** The request fields the travel rules read (schema-checked first, like the seed's). */
export const READ_BY_TRAVEL_RULES = [
  "duration_matrix",
  "profiles",
  "vehicle_profiles",
  "vehicle_unit_time_costs",
  "node_time_window_sets",
  "vehicle_breaks",
  "vehicle_return_to_end",
  "vehicle_time_windows",
] as const;

/** A profile's name: what `profiles` may be keyed by. */
export const PROFILE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Whether the time dimension is on: windows and service times, and travel minutes from speeds or
 * from a duration matrix (compile-request.ts compiles by the same rule).
 */
export function hasTimeDimension(req: Request): boolean {
  return req.node_time_windows != null && req.node_service_time != null && (req.vehicle_speeds != null || req.duration_matrix != null);
}

/**
 * Cross-field rules of travel times, profiles, cost per hour, several windows, breaks and open
 * routes (constraints.md, third table): matrix shapes and entries, profile names, lengths, windows
 * sorted and disjoint whose hull is the node's v1 window, breaks that open before they close and
 * fit their shift, and the fields that need the time dimension. Runs only when the schema found
 * these fields well-typed.
 */
export function travelFieldIssues(req: Request, add: Add): void {
  const n = req.node_num;
  const m = req.vehicle_num;
  squareMatrix(req.duration_matrix, ["duration_matrix"], n, add);
  if (req.duration_matrix != null && req.vehicle_speeds != null)
    add(
      ["vehicle_speeds"],
      "vehicle_speeds must be omitted when duration_matrix is given: travel minutes then come from duration_matrix " +
        "(and from the vehicles' profiles), not from distance / speed",
      "conflicting_fields",
    );
  const names = Object.keys(req.profiles ?? {});
  for (const name of names) {
    if (!PROFILE_NAME.test(name)) {
      add(["profiles", name], `profile name '${name}' must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -`, "value_error");
      continue;
    }
    const profile = req.profiles![name]!;
    squareMatrix(profile.distance_matrix, ["profiles", name, "distance_matrix"], n, add);
    squareMatrix(profile.duration_matrix, ["profiles", name, "duration_matrix"], n, add);
  }
  const sized = (field: "vehicle_profiles" | "vehicle_unit_time_costs" | "vehicle_breaks" | "vehicle_return_to_end"): boolean => {
    const value = req[field];
    if (!Array.isArray(value)) return false;
    if (value.length === m) return true;
    add([field], `${field} must have vehicle_num (${m}) entries, got ${value.length}`, "length_mismatch");
    return false;
  };
  if (sized("vehicle_profiles")) {
    req.vehicle_profiles!.forEach((name, v) => {
      if (name != null && !names.includes(name)) {
        const known = names.length > 0 ? `known: ${names.join(", ")}` : "the request gives no profiles";
        add(["vehicle_profiles", String(v)], `vehicle ${v}'s profile '${name}' is not in profiles (${known})`, "unknown_profile");
      }
    });
  }
  sized("vehicle_unit_time_costs");
  sized("vehicle_return_to_end");

  const timed = hasTimeDimension(req);
  const needsTime = (field: keyof ConstraintFields, given: boolean) => {
    if (given && !timed)
      add(
        [field],
        `${field} needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds (or duration_matrix)`,
        "time_dimension_required",
      );
  };
  needsTime("vehicle_unit_time_costs", req.vehicle_unit_time_costs != null);
  needsTime("node_time_window_sets", req.node_time_window_sets?.some((s) => s != null) ?? false);
  needsTime("vehicle_breaks", req.vehicle_breaks?.some((b) => b != null && b.length > 0) ?? false);
  windowSetIssues(req, add);
  if (sized("vehicle_breaks")) breakIssues(req, timed, add);
}

/** A matrix field: node_num rows of node_num finite entries >= 0 (the schema bounds them; a non-JSON caller may not). */
function squareMatrix(matrix: number[][] | undefined, loc: string[], n: number, add: Add): void {
  if (matrix == null) return;
  const field = loc.join(".");
  if (matrix.length !== n) {
    add(loc, `${field} must have node_num (${n}) rows, got ${matrix.length}`, "length_mismatch");
    return;
  }
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    if (row.length !== n) {
      add([...loc, String(i)], `${field} row ${i} must have node_num (${n}) entries, got ${row.length}`, "length_mismatch");
      continue;
    }
    for (let j = 0; j < n; j++) {
      const x = row[j]!;
      if (!Number.isFinite(x) || x < 0)
        add([...loc, String(i), String(j)], `${field}[${i}][${j}] must be a finite number >= 0, got ${x}`, "value_error");
    }
  }
}

/** Several windows: node_num entries, each window start <= end, sorted, disjoint, hull = node_time_windows[i]. */
function windowSetIssues(req: Request, add: Add): void {
  const sets = req.node_time_window_sets;
  if (!Array.isArray(sets)) return;
  if (sets.length !== req.node_num) {
    add(
      ["node_time_window_sets"],
      `node_time_window_sets must have node_num (${req.node_num}) entries, got ${sets.length}`,
      "length_mismatch",
    );
    return;
  }
  sets.forEach((set, i) => {
    if (set == null) return;
    let ok = true;
    set.forEach((w, k) => {
      const [start, end] = w as [number, number];
      const loc = ["node_time_window_sets", String(i), String(k)];
      if (start > end) {
        add(loc, `node ${i}'s window ${k} starts (${start}) after it ends (${end})`, "value_error");
        ok = false;
      } else if (k > 0) {
        const previousEnd = set[k - 1]![1]!;
        if (start <= previousEnd) {
          const why = start < set[k - 1]![0]! ? "is not sorted after" : "overlaps or touches";
          add(loc, `node ${i}'s window ${k} [${start}, ${end}] ${why} window ${k - 1} (which ends at ${previousEnd})`, "value_error");
          ok = false;
        }
      }
    });
    const v1 = req.node_time_windows?.[i];
    if (!ok || !v1) return;
    const hull = [set[0]![0]!, set[set.length - 1]![1]!];
    if (hull[0] !== v1[0] || hull[1] !== v1[1])
      add(
        ["node_time_window_sets", String(i)],
        `node ${i}'s windows span [${hull[0]}, ${hull[1]}], which must equal its node_time_windows entry [${v1[0]}, ${v1[1]}]`,
        "window_hull_mismatch",
      );
  });
}

/**
 * The shift a vehicle's breaks must fit in: its start node's window narrowed by its shift start,
 * and (unless the route is open) its end node's window narrowed by its shift end.
 */
export function breakShift(req: Request, v: number): [number, number] {
  const windows = req.node_time_windows;
  const shift = req.vehicle_time_windows?.[v] ?? null;
  let open = windows?.[req.start_nodes[v]!]?.[0] ?? 0;
  let close = Number.POSITIVE_INFINITY;
  if (shift) open = Math.max(open, shift[0]!);
  if (req.vehicle_return_to_end?.[v] !== false) {
    close = windows?.[req.end_nodes[v]!]?.[1] ?? close;
    if (shift) close = Math.min(close, shift[1]!);
  }
  return [open, close];
}

/** Each break: latest start not before earliest start, and it can start and end inside the vehicle's shift. */
function breakIssues(req: Request, timed: boolean, add: Add): void {
  req.vehicle_breaks!.forEach((list, v) => {
    if (list == null) return;
    const [open, close] = timed && v < req.start_nodes.length ? breakShift(req, v) : [0, Number.POSITIVE_INFINITY];
    list.forEach((b, k) => {
      const loc = ["vehicle_breaks", String(v), String(k)];
      if (b.latest_start < b.earliest_start) {
        add(loc, `vehicle ${v}'s break ${k} must start by ${b.latest_start}, before it may start (${b.earliest_start})`, "value_error");
        return;
      }
      const start = Math.max(b.earliest_start, open);
      if (start > b.latest_start || start + b.duration > close)
        add(
          loc,
          `vehicle ${v}'s break ${k} (start in [${b.earliest_start}, ${b.latest_start}], ${b.duration} min) cannot fit in ` +
            `its shift [${open}, ${close}]`,
          "break_outside_shift",
        );
    });
  });
}
