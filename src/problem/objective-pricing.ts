/** The objectives a request may name (its `objective` field; absent means min_total_distance). */
export type ObjectiveName = "min_total_distance" | "min_total_cost" | "min_vehicles";

/** The fields that decide how a plan is priced. */
export interface PricingFields {
  objective?: ObjectiveName;
  vehicle_fixed_costs?: number[] | null;
  vehicle_unit_distance_costs?: number[] | null;
  vehicle_unit_time_costs?: number[] | null;
}

/**
 * Whether the cost arrays price the plan: always under min_total_cost, and under min_vehicles
 * when any cost array is given (its second figure is then the cost, else the total distance).
 */
export function pricedByCost(req: PricingFields): boolean {
  if (req.objective === "min_total_cost") return true;
  if (req.objective !== "min_vehicles") return false;
  return req.vehicle_fixed_costs != null || req.vehicle_unit_distance_costs != null || req.vehicle_unit_time_costs != null;
}
