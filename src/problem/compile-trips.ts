import type { TimeBlock, TripRules } from "../../strategies/core/problem.js";
import type { TripFields } from "./constraint-fields.js";

/** No limit on reload stops. */
export const UNLIMITED_RELOADS = 0x7fffffff;

/**
 * Compiles vehicle_reload_nodes, vehicle_max_reloads and node_release_times (already validated)
 * into the evaluator's form; null when the request gives no reload node and no release time
 * above 0, so such problems compile exactly as before these fields existed. Release times need
 * the time dimension (validation refuses them without it).
 */
export function compileTripRules(req: TripFields, n: number, m: number, time: TimeBlock | null): TripRules | null {
  const reloadNodes = Array.from({ length: m }, (_, v) => Int32Array.from(new Set(req.vehicle_reload_nodes?.[v] ?? [])));
  const anyReload = reloadNodes.some((nodes) => nodes.length > 0);
  const given = req.node_release_times;
  const release = time && given && given.some((r) => r > 0) ? Float64Array.from({ length: n }, (_, i) => given[i] ?? 0) : null;
  if (!anyReload && !release) return null;
  const maxReloads = Int32Array.from({ length: m }, (_, v) => req.vehicle_max_reloads?.[v] ?? UNLIMITED_RELOADS);
  return { reloadNodes, maxReloads, release };
}
