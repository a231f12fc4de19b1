import type { SolveRequestInput } from "../../problem/request-types.js";

/** The constraint fields of optional stops, skills, shifts and route limits that the rules below read. */
export const SERVICE_FIELDS = [
  "node_skip_penalties",
  "allow_unassigned",
  "node_skills",
  "vehicle_skills",
  "vehicle_time_windows",
  "vehicle_max_distance",
  "vehicle_max_working_hours",
  "vehicle_max_stops",
] as const;

type Add = (loc: string[], msg: string, type?: string) => void;

const PER_NODE = ["node_skip_penalties", "node_skills"] as const;
const PER_VEHICLE = [
  "vehicle_skills",
  "vehicle_time_windows",
  "vehicle_max_distance",
  "vehicle_max_working_hours",
  "vehicle_max_stops",
] as const;

/**
 * The cross-field rules of optional stops, skills, shifts and route limits (constraints.md, "Rules
 * for every new field"): lengths against node_num / vehicle_num, no skip penalty and no skills on
 * a depot, no shift that ends before it starts. Bounds of single values (a cap <= 0, a negative
 * penalty) are the OpenAPI document's, checked before these. A shift or per-vehicle working hours
 * without the time dimension is not an error: it is ignored with a warning, like max_working_hours.
 */
export function serviceFieldIssues(req: SolveRequestInput, depots: ReadonlySet<number>, add: Add): void {
  const lengthOk = (
    field: (typeof PER_NODE)[number] | (typeof PER_VEHICLE)[number],
    expected: number,
    against: "node_num" | "vehicle_num",
  ): boolean => {
    const value = req[field];
    if (!Array.isArray(value)) return false;
    if (value.length === expected) return true;
    add([field], `${field} must have ${against} (${expected}) entries, got ${value.length}`, "length_mismatch");
    return false;
  };
  for (const field of PER_NODE) lengthOk(field, req.node_num, "node_num");
  for (const field of PER_VEHICLE) lengthOk(field, req.vehicle_num, "vehicle_num");

  const sortedDepots = [...depots].sort((a, b) => a - b);
  const penalties = req.node_skip_penalties;
  if (Array.isArray(penalties)) {
    for (const depot of sortedDepots) {
      const penalty = penalties[depot];
      if (penalty !== undefined && penalty !== null) {
        add(
          ["node_skip_penalties", String(depot)],
          `node ${depot} is a depot (a start or end node) and is never skipped: its skip penalty must be null (got ${penalty})`,
          "depot_not_optional",
        );
      }
    }
  }
  const skills = req.node_skills;
  if (Array.isArray(skills)) {
    for (const depot of sortedDepots) {
      const needs = skills[depot];
      if (Array.isArray(needs) && needs.length > 0) {
        add(
          ["node_skills", String(depot)],
          `node ${depot} is a depot (a start or end node) and needs no skills: its skills ` +
            `must be null or [] (got ${JSON.stringify(needs)})`,
          "depot_skills",
        );
      }
    }
  }
  req.vehicle_time_windows?.forEach((shift, v) => {
    if (!shift) return;
    const [start, end] = shift as [number, number];
    if (start > end)
      add(["vehicle_time_windows", String(v)], `vehicle ${v}'s shift ends (${end}) before it starts (${start})`, "value_error");
  });
}
