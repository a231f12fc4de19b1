import type { ValidationIssue } from "../../errors/api-error.js";
import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import type { Strategy, StrategyFeature } from "../../../strategies/core/strategy.js";
import { allStrategies } from "../../../strategies/registry.js";

/** A feature of the objective or of the visit rules that a request uses, and where it says so. */
export interface UsedRuleFeature {
  feature: StrategyFeature;
  loc: string[];
  /** How the refusal names the field. */
  field: string;
}

/**
 * The objective's and the visit rules' features a (validated) request uses: `balance`,
 * `min_vehicles`, `ride_times` (a shipment's max_ride_minutes), `load_types` (incompatible pairs
 * over node_load_types) and `same_vehicle_groups`. A field that constrains nothing uses none.
 */
export function ruleFeaturesOf(r: SolveRequestInput): UsedRuleFeature[] {
  const req = r as SolveRequestInput & ConstraintFields;
  const found: UsedRuleFeature[] = [];
  if (req.balance != null) found.push({ feature: "balance", loc: ["body", "balance"], field: "balance" });
  if (req.objective === "min_vehicles") {
    found.push({ feature: "min_vehicles", loc: ["body", "objective"], field: 'objective "min_vehicles"' });
  }
  const ride = req.shipments?.findIndex((s) => s.max_ride_minutes !== undefined) ?? -1;
  if (ride >= 0) {
    const loc = ["body", "shipments", String(ride), "max_ride_minutes"];
    found.push({ feature: "ride_times", loc, field: "max_ride_minutes" });
  }
  if ((req.incompatible_load_types?.length ?? 0) > 0 && req.node_load_types != null) {
    found.push({ feature: "load_types", loc: ["body", "incompatible_load_types"], field: "incompatible_load_types" });
  }
  if ((req.same_vehicle_groups?.length ?? 0) > 0) {
    found.push({ feature: "same_vehicle_groups", loc: ["body", "same_vehicle_groups"], field: "same_vehicle_groups" });
  }
  return found;
}

/**
 * The strategies that may take a request: the pinned one, or without a pin every loaded one but
 * the exact ones (which take only tiny problems, so they cannot vouch for a request of any size).
 */
export function strategiesFor(r: SolveRequestInput): { pinned: Strategy | undefined; candidates: Strategy[] } {
  const pinned = typeof r.strategy === "string" ? allStrategies().find((s) => s.name === r.strategy) : undefined;
  return { pinned, candidates: pinned ? [pinned] : allStrategies().filter((s) => s.kind !== "exact") };
}

/**
 * Only a strategy that claims a rule feature prices it: a request pinned to one that does not (or,
 * without a pin, that no loaded strategy claims) is refused at submission naming the field,
 * rather than solved with the rule ignored or failed after queueing.
 */
export function unclaimedRuleIssues(r: SolveRequestInput): ValidationIssue[] {
  const { pinned, candidates } = strategiesFor(r);
  const issues: ValidationIssue[] = [];
  for (const used of ruleFeaturesOf(r)) {
    if (candidates.some((s) => (s.features as readonly string[]).includes(used.feature))) continue;
    const who = pinned ? `the pinned strategy '${pinned.name}' does not` : "no loaded strategy can";
    issues.push({
      loc: used.loc,
      msg:
        `${used.field} (feature '${used.feature}') is not supported yet: ${who} honour it; ` +
        `send the request without it${pinned ? " or without the strategy" : ""}`,
      type: "unsupported_feature",
    });
  }
  return issues;
}
