import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import { hasTimeDimension } from "./travel-fields.js";

type Add = (loc: string[], msg: string, type?: string) => void;
type Request = SolveRequestInput & ConstraintFields;

/** The request fields the traffic rules read (schema-checked first). */
export const READ_BY_TRAFFIC_RULES = ["time_dependent_durations", "vehicle_breaks"] as const;

/**
 * Traffic by time of day (time_dependent_durations): slots sorted by start with the first at
 * minute 0, positive factors, the time dimension on, and no breaks, whose placement does not yet
 * know a pace that changes during the day.
 */
export function trafficFieldIssues(req: Request, add: Add): void {
  const slots = req.time_dependent_durations;
  if (slots == null) return;
  const field = "time_dependent_durations";
  if (!hasTimeDimension(req)) {
    add(
      [field],
      `${field} needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds (or duration_matrix)`,
      "time_dimension_required",
    );
  }
  if (slots.length > 0 && slots[0]!.start !== 0)
    add([field, "0", "start"], `${field}[0].start must be 0 (the first slot starts at minute 0), got ${slots[0]!.start}`, "value_error");
  slots.forEach((slot, i) => {
    if (i > 0 && !(slot.start > slots[i - 1]!.start))
      add(
        [field, String(i), "start"],
        `${field} must be sorted by start, each slot after the one before: slot ${i} starts at ${slot.start}, ` +
          `slot ${i - 1} at ${slots[i - 1]!.start}`,
        "value_error",
      );
    if (!(slot.factor > 0) || !Number.isFinite(slot.factor))
      add([field, String(i), "factor"], `${field}[${i}].factor must be a finite number > 0, got ${slot.factor}`, "value_error");
  });
  if (req.vehicle_breaks?.some((list) => list != null && list.length > 0))
    add([field], `${field} together with vehicle_breaks is not supported yet; send the request without one of them`, "unsupported_feature");
}
