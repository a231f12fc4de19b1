import type { LoadRules, ServiceRules, TimeBlock } from "../../strategies/core/problem.js";
import type { ConstraintFields } from "./constraint-fields.js";

export const NO_STOPS_LIMIT = 0x7fffffff;

/**
 * Optional stops, skills, shifts and route limits, compiled (input already validated); null when
 * the request uses none, so such a request compiles exactly as before these fields existed.
 * Shifts and per-vehicle working hours need the time dimension: without it they are ignored
 * with a warning, like max_working_hours.
 */
export function compileServiceRules(
  req: ConstraintFields,
  n: number,
  m: number,
  isDepot: Uint8Array,
  time: TimeBlock | null,
  warnings: string[],
): ServiceRules | null {
  const used =
    req.node_skip_penalties != null ||
    req.allow_unassigned === true ||
    req.node_skills != null ||
    req.vehicle_time_windows != null ||
    req.vehicle_max_distance != null ||
    req.vehicle_max_working_hours != null ||
    req.vehicle_max_stops != null;
  if (!used) return null;
  const skipPenalty = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  req.node_skip_penalties?.forEach((p, i) => {
    if (p != null && !isDepot[i]) skipPenalty[i] = p;
  });
  const shiftStartMin = new Float64Array(m).fill(Number.NEGATIVE_INFINITY);
  const shiftEndMin = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
  const maxDurationMin = new Float64Array(m).fill(time ? time.maxRouteMin : Number.POSITIVE_INFINITY);
  if (time) {
    req.vehicle_time_windows?.forEach((w, v) => {
      if (w) {
        shiftStartMin[v] = w[0]!;
        shiftEndMin[v] = w[1]!;
      }
    });
    req.vehicle_max_working_hours?.forEach((h, v) => {
      if (h != null) maxDurationMin[v] = h * 60;
    });
  } else {
    if (req.vehicle_time_windows?.some((w) => w != null))
      warnings.push("vehicle_time_windows was ignored because the time dimension is off");
    if (req.vehicle_max_working_hours?.some((h) => h != null))
      warnings.push("vehicle_max_working_hours was ignored because the time dimension is off");
  }
  const maxDistance = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
  req.vehicle_max_distance?.forEach((d, v) => {
    if (d != null) maxDistance[v] = d;
  });
  const maxStops = new Int32Array(m).fill(NO_STOPS_LIMIT);
  req.vehicle_max_stops?.forEach((s, v) => {
    if (s != null) maxStops[v] = s;
  });
  return {
    skipPenalty,
    allowUnassigned: req.allow_unassigned === true,
    allowed: compileAllowed(req, n, m),
    shiftStartMin,
    shiftEndMin,
    maxDistance,
    maxDurationMin,
    maxStops,
  };
}

/** allowed[v * n + i]: vehicle v has every skill node i needs; null when no node needs one. */
function compileAllowed(req: ConstraintFields, n: number, m: number): Uint8Array | null {
  const needs = req.node_skills;
  if (!needs || needs.every((s) => !s || s.length === 0)) return null;
  const allowed = new Uint8Array(n * m);
  for (let v = 0; v < m; v++) {
    const has = new Set(req.vehicle_skills?.[v] ?? []);
    for (let i = 0; i < n; i++) {
      const need = needs[i] ?? [];
      allowed[v * n + i] = need.every((skill) => has.has(skill)) ? 1 : 0;
    }
  }
  return allowed;
}

/**
 * Pickups, backhauls, shipments and extra dimensions, compiled (input already validated); null
 * when the request uses none of them.
 */
export function compileLoadRules(req: ConstraintFields, n: number, m: number): LoadRules | null {
  const extraDims = req.node_extra_demands?.[0]?.length ?? req.vehicles_extra_capacity?.[0]?.length ?? 0;
  const used = req.node_pickups != null || req.pickups_after_deliveries === true || (req.shipments?.length ?? 0) > 0 || extraDims > 0;
  if (!used) return null;
  const pickup = new Float64Array(n);
  if (req.node_pickups) pickup.set(req.node_pickups);
  const partner = new Int32Array(n).fill(-1);
  const shipmentLoad = new Float64Array(n);
  const shipments = (req.shipments ?? []).map((s) => ({ pickup: s.pickup, delivery: s.delivery, amount: s.amount }));
  for (const s of shipments) {
    partner[s.pickup] = s.delivery;
    partner[s.delivery] = s.pickup;
    shipmentLoad[s.pickup] = s.amount;
    shipmentLoad[s.delivery] = -s.amount;
  }
  const extraDemand = new Float64Array(n * extraDims);
  const extraCapacity = new Float64Array(m * extraDims);
  req.node_extra_demands?.forEach((row, i) => extraDemand.set(row.slice(0, extraDims), i * extraDims));
  req.vehicles_extra_capacity?.forEach((row, v) => extraCapacity.set(row.slice(0, extraDims), v * extraDims));
  return {
    pickup,
    pickupsAfterDeliveries: req.pickups_after_deliveries === true,
    shipments,
    partner,
    shipmentLoad,
    extraDims,
    extraDemand,
    extraCapacity,
  };
}
