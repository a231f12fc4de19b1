import type { SolveRequestInput } from "../../problem/request-types.js";
import { hasTimeDimension } from "./travel-fields.js";

type Add = (loc: string[], msg: string, type?: string) => void;

/** The request fields the balance rule reads (schema-checked first). */
export const READ_BY_BALANCE_RULES = ["balance", "node_time_windows", "node_service_time", "vehicle_speeds", "duration_matrix"] as const;

/**
 * Cross-field rule of balanced workloads (constraints.md): working minutes exist only with the
 * time dimension, so `measure: "duration"` without it is refused rather than priced at zero. The
 * schema already refuses an unknown measure and a cost per unit that is not above 0.
 */
export function balanceFieldIssues(req: SolveRequestInput, add: Add): void {
  if (req.balance?.measure === "duration" && !hasTimeDimension(req))
    add(
      ["balance", "measure"],
      "balance.measure 'duration' needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds " +
        "(or duration_matrix), or balance by 'stops' or 'distance'",
      "time_dimension_required",
    );
}
