import type { FleetModel } from "./fleet-model.js";
import type { Penalties } from "./penalties.js";

/**
 * Penalised cost of route r with `count` customers from its totals, on its own vehicle: fixed +
 * unit x distance, the load above its capacity, and (where windows cannot bind) the additive
 * duration (driving + service) above the cap. Time windows are priced apart (routes.ts,
 * timePrice). 0 for an empty route. The same arithmetic as the textbook model's routeCost, so both
 * searches' moves that price from totals agree to the last bit.
 */
export function routePriceFromTotals(m: FleetModel, pen: Penalties, r: number, count: number, distance: number, load: number, service: number): number {
  if (count === 0) return 0;
  let cost = m.fixedCost[r]! + m.unitCost[r]! * distance;
  const capacity = m.capacity[r]!;
  if (load > capacity) cost += pen.load * (load - capacity);
  if (m.durationLimit !== Number.POSITIVE_INFINITY) {
    const excess = distance / m.speed[r]! + service - m.durationLimit;
    if (excess > 0) cost += pen.duration * excess;
  }
  return cost;
}
