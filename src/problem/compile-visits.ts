import type { VisitRules } from "../../strategies/core/problem.js";
import type { LoadFields, VisitFields } from "./constraint-fields.js";

/**
 * Compiles max_ride_minutes, node_load_types with incompatible_load_types, and
 * same_vehicle_groups (already validated) into the evaluator's form; null when none of them
 * constrains anything, so such problems compile exactly as before these fields existed. Types no
 * pair names get no bit: they ride with anything.
 */
export function compileVisitRules(req: VisitFields & LoadFields, n: number): VisitRules | null {
  let maxRide: Float64Array | null = null;
  for (const shipment of req.shipments ?? []) {
    if (shipment.max_ride_minutes === undefined) continue;
    maxRide ??= new Float64Array(n).fill(Number.POSITIVE_INFINITY);
    maxRide[shipment.pickup] = shipment.max_ride_minutes;
  }

  let typeBit: Int32Array | null = null;
  const conflicts = new Int32Array(32);
  const pairs = req.incompatible_load_types ?? [];
  if (pairs.length > 0 && req.node_load_types) {
    const bitOf = new Map<string, number>();
    const bit = (type: string): number => {
      if (!bitOf.has(type)) bitOf.set(type, bitOf.size);
      return bitOf.get(type)!;
    };
    for (const [a, b] of pairs as [string, string][]) {
      const i = bit(a);
      const j = bit(b);
      conflicts[i] = conflicts[i]! | (1 << j);
      conflicts[j] = conflicts[j]! | (1 << i);
    }
    typeBit = Int32Array.from({ length: n }, (_, node) => {
      const type = req.node_load_types![node];
      return type != null && bitOf.has(type) ? 1 << bitOf.get(type)! : 0;
    });
  }

  const groups = (req.same_vehicle_groups ?? []).map((group) => Int32Array.from(group));
  let groupOf: Int32Array | null = null;
  if (groups.length > 0) {
    groupOf = new Int32Array(n).fill(-1);
    groups.forEach((group, g) => group.forEach((node) => (groupOf![node] = g)));
  }
  if (!maxRide && !typeBit && !groupOf) return null;
  return { maxRide, typeBit, conflicts, groupOf, groups };
}
