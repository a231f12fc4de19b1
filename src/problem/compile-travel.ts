import type { BreakRule, TravelRules, TimeBlock } from "../../strategies/core/problem.js";
import type { ConstraintFields } from "./constraint-fields.js";
import { pricedByCost, type PricingFields } from "./objective-pricing.js";
import { compileTraffic } from "./compile-traffic.js";

/** A row-major n x n copy of a validated matrix. */
function flat(matrix: number[][], n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) out.set(matrix[i]!.slice(0, n), i * n);
  return out;
}

/**
 * Travel times, profiles, cost per hour, several windows, breaks and open routes, compiled (input
 * already validated); null when the request uses none, so such a request compiles exactly as
 * before these fields existed. Everything about time (durations, time costs, windows, breaks)
 * needs the time dimension; validation refuses the fields that need it without it, and a
 * duration matrix alone without windows is ignored with a warning.
 */
export function compileTravelRules(
  req: ConstraintFields & PricingFields,
  n: number,
  m: number,
  time: TimeBlock | null,
  warnings: string[],
): TravelRules | null {
  const profiles = req.profiles ?? {};
  const named = (req.vehicle_profiles ?? []).some((p) => p != null);
  const open = (req.vehicle_return_to_end ?? []).some((back) => back === false);
  const costs = (req.vehicle_unit_time_costs ?? []).some((c) => c > 0);
  const sets = (req.node_time_window_sets ?? []).some((s) => s != null);
  const breaksGiven = (req.vehicle_breaks ?? []).some((b) => b != null && b.length > 0);
  if (!time && req.duration_matrix != null)
    warnings.push("duration_matrix was ignored because the time dimension is off (it needs node_time_windows and node_service_time)");
  const durations = time !== null && req.duration_matrix != null;
  const traffic = compileTraffic(req, time);
  if (!(durations || named || open || traffic || (time && (costs || sets || breaksGiven)))) return null;

  const own = durations ? flat(req.duration_matrix!, n) : null;
  const byName = new Map<string, { distance: Float64Array | null; duration: Float64Array | null }>();
  for (const [name, profile] of Object.entries(profiles)) {
    byName.set(name, {
      distance: profile.distance_matrix ? flat(profile.distance_matrix, n) : null,
      duration: time && profile.duration_matrix ? flat(profile.duration_matrix, n) : null,
    });
  }
  const profile = Array.from({ length: m }, (_, v) => req.vehicle_profiles?.[v] ?? null);
  const distance = profile.map((name) => (name ? (byName.get(name)?.distance ?? null) : null));
  const duration = profile.map((name) => (name ? (byName.get(name)?.duration ?? own) : own));

  const timeCostPerMin = new Float64Array(m);
  if (time && pricedByCost(req)) req.vehicle_unit_time_costs?.forEach((c, v) => (timeCostPerMin[v] = c / 60));
  else if (costs && !pricedByCost(req)) warnings.push("vehicle_unit_time_costs was ignored because the objective is min_total_distance");

  const windowSets = Array.from({ length: n }, (_, i) => {
    const set = time ? req.node_time_window_sets?.[i] : null;
    return set ? Float64Array.from(set.flatMap((w) => [w[0]!, w[1]!])) : null;
  });
  const breaks: BreakRule[][] = Array.from({ length: m }, (_, v) =>
    time
      ? (req.vehicle_breaks?.[v] ?? [])
          .map((b) => ({ earliest: b.earliest_start, latest: b.latest_start, duration: b.duration }))
          .sort((a, b) => a.earliest - b.earliest || a.latest - b.latest)
      : [],
  );
  const returnToEnd = Uint8Array.from({ length: m }, (_, v) => (req.vehicle_return_to_end?.[v] === false ? 0 : 1));
  return traffic
    ? { duration, distance, profile, timeCostPerMin, windowSets, breaks, returnToEnd, traffic }
    : { duration, distance, profile, timeCostPerMin, windowSets, breaks, returnToEnd };
}
