import type { ValidationIssue } from "../../errors/api-error.js";
import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import { TRAVEL_FEATURES } from "../../../strategies/core/strategy.js";
import { hasTimeDimension } from "./travel-fields.js";
import { DENSE_MATRIX_MAX_NODES } from "../../problem/compile-request.js";
import { pricedByCost } from "../../problem/objective-pricing.js";
import { strategiesFor, unclaimedRuleIssues } from "./rule-features.js";

type TravelFeature = (typeof TRAVEL_FEATURES)[number];

/** The request field that makes each travel feature, named in the refusal. */
const FIELD_OF: Record<TravelFeature, string> = {
  duration_matrix: "duration_matrix",
  profiles: "vehicle_profiles",
  profile_distances: "profiles",
  time_costs: "vehicle_unit_time_costs",
  open_routes: "vehicle_return_to_end",
  several_windows: "node_time_window_sets",
  breaks: "vehicle_breaks",
  traffic: "time_dependent_durations",
};

/** The travel features a (validated) request uses; a field that changes nothing (all null, all true) uses none. */
export function travelFeaturesOf(r: SolveRequestInput): TravelFeature[] {
  const req = r as SolveRequestInput & ConstraintFields;
  const timed = hasTimeDimension(req);
  const found: TravelFeature[] = [];
  if (timed && req.duration_matrix != null) found.push("duration_matrix");
  if (req.vehicle_profiles?.some((p) => p != null)) found.push("profiles");
  if (req.vehicle_profiles?.some((p) => p != null && req.profiles?.[p]?.distance_matrix != null)) found.push("profile_distances");
  const cost = pricedByCost(req);
  if (timed && cost && req.vehicle_unit_time_costs?.some((c) => c > 0)) found.push("time_costs");
  if (req.vehicle_return_to_end?.some((back) => back === false)) found.push("open_routes");
  if (timed && req.node_time_window_sets?.some((set) => set != null && set.length > 1)) found.push("several_windows");
  if (timed && req.vehicle_breaks?.some((list) => list != null && list.length > 0)) found.push("breaks");
  if (timed && req.time_dependent_durations != null) found.push("traffic");
  return found;
}

/**
 * A request using a travel feature must find a strategy that honours it: the pinned one, or
 * without a pin some loaded strategy other than an exact one (exact strategies take only tiny
 * problems, so they cannot vouch for a request of any size). Refused at submission with a 422
 * naming the field, rather than failed after queueing or solved with the field ignored. The
 * objective and visit rules of ruleFeaturesOf are held to the same claims (rule-features.ts).
 */
export function unsupportedFeatureIssues(r: SolveRequestInput): ValidationIssue[] {
  const used = travelFeaturesOf(r);
  const combined = tripCombinationIssues(r, used);
  if (combined.length > 0) return combined;
  const rules = unclaimedRuleIssues(r);
  if (rules.length > 0) return rules;
  if (used.length === 0) return [];
  // Above the dense matrix's size only the decomposition (large) runs, and it honours none of them.
  if (r.node_num > DENSE_MATRIX_MAX_NODES) {
    const limit = DENSE_MATRIX_MAX_NODES.toLocaleString("en-US");
    return used.map((feature) => ({
      loc: ["body", FIELD_OF[feature]],
      msg:
        `${FIELD_OF[feature]} (feature '${feature}') is not supported above ${limit} nodes yet ` +
        `(got ${r.node_num}); send the request without it`,
      type: "unsupported_feature",
    }));
  }
  const { pinned, candidates } = strategiesFor(r);
  const issues: ValidationIssue[] = [];
  for (const feature of used) {
    if (candidates.some((s) => (s.features as readonly string[]).includes(feature))) continue;
    const field = FIELD_OF[feature];
    const who = pinned ? `the pinned strategy '${pinned.name}' does not` : "no loaded strategy can";
    issues.push({
      loc: ["body", field],
      msg: `${field} (feature '${feature}') is not supported yet: ${who} honour it; send the request without it`,
      type: "unsupported_feature",
    });
  }
  return issues;
}

/**
 * Several trips are searched on their own route model (reload copies), which does not yet carry
 * the travel rules: a request combining them is refused at submission, naming the trip field and
 * the travel fields it is combined with.
 */
function tripCombinationIssues(r: SolveRequestInput, travel: readonly TravelFeature[]): ValidationIssue[] {
  const req = r as SolveRequestInput & ConstraintFields;
  const field = req.vehicle_reload_nodes?.some((nodes) => (nodes?.length ?? 0) > 0)
    ? "vehicle_reload_nodes"
    : req.node_release_times?.some((t) => t > 0)
      ? "node_release_times"
      : null;
  if (field === null) return [];
  // The trips' search on reload copies does not price the balance term either.
  const others = [...travel.map((f) => FIELD_OF[f]), ...(req.balance ? ["balance"] : [])];
  if (others.length === 0) return [];
  return [
    {
      loc: ["body", field],
      msg: `${field} together with ${[...new Set(others)].join(", ")} is not supported yet; send the request without one of them`,
      type: "unsupported_feature",
    },
  ];
}
