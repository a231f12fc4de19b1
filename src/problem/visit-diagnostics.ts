import type { components } from "../../generated/api.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { legMinutesWith } from "../../strategies/core/travel.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";
import { isAllowed, type Distance } from "./service-diagnostics.js";

type Infeasibility = components["schemas"]["Infeasibility"];

const EPS = 1e-9;

/**
 * Proofs of the visit rules: a same-vehicle group whose customers together demand more than any
 * vehicle carries (they must ride one vehicle, delivered from its start), and a shipment whose
 * drive straight from its pickup to its delivery is already longer than its max_ride_minutes on
 * every vehicle allowed to serve both (waiting can only lengthen the ride).
 */
export function visitReasons(p: CompiledProblem, dist: Distance): Infeasibility[] {
  return [...groupReasons(p), ...rideReasons(p, dist)];
}

function groupReasons(p: CompiledProblem): Infeasibility[] {
  const visits = p.visits;
  if (!visits?.groupOf) return [];
  // Vehicles that reload carry any total over several trips.
  if (p.trips?.reloadNodes.some((nodes) => nodes.length > 0)) return [];
  const largest = p.capacity.reduce((a, b) => Math.max(a, b), 0);
  const found: Infeasibility[] = [];
  visits.groups.forEach((group, g) => {
    const nodes = Array.from(group);
    const demand = withoutDust(nodes.reduce((sum, c) => sum + p.demand[c]!, 0));
    if (demand <= largest + EPS) return;
    const excess = withoutDust(demand - largest);
    found.push({
      kind: "group_exceeds_capacity",
      message:
        `same_vehicle_groups[${g}] (nodes ${nodes.join(", ")}) demands ${evidenceNumber(demand)} together, ` +
        `more than the largest vehicle capacity ${evidenceNumber(largest)} by ${evidenceNumber(excess)}: its stops must share one vehicle`,
      node: nodes[0]!,
      evidence: { group: g, group_nodes: nodes, demand, largest_capacity: largest, excess },
    });
  });
  return found;
}

function rideReasons(p: CompiledProblem, dist: Distance): Infeasibility[] {
  const maxRide = p.visits?.maxRide;
  const shipments = p.loads?.shipments;
  if (!maxRide || !shipments || !p.time) return [];
  const found: Infeasibility[] = [];
  shipments.forEach((s, index) => {
    const limit = maxRide[s.pickup]!;
    if (!(limit < Number.POSITIVE_INFINITY)) return;
    let best = Number.POSITIVE_INFINITY;
    let bestVehicle = -1;
    for (let v = 0; v < p.vehicleCount; v++) {
      if (!isAllowed(p, v, s.pickup) || !isAllowed(p, v, s.delivery)) continue;
      const minutes = legMinutesWith(p, v, s.pickup, s.delivery, dist);
      if (minutes < best) {
        best = minutes;
        bestVehicle = v;
      }
    }
    if (bestVehicle < 0 || best <= limit + EPS) return;
    const travel = withoutDust(best);
    const lateBy = withoutDust(best - limit);
    found.push({
      kind: "ride_time_too_short",
      message:
        `shipment ${index} (node ${s.pickup} -> node ${s.delivery}) has max_ride_minutes ${evidenceNumber(limit)}, ` +
        `but the direct drive takes at least ${evidenceNumber(travel)} min on every vehicle, ${evidenceNumber(lateBy)} min too long`,
      node: s.delivery,
      evidence: {
        shipment: index,
        pickup_node: s.pickup,
        delivery_node: s.delivery,
        travel_minutes: travel,
        max_ride_minutes: limit,
        late_by: lateBy,
        vehicle: `Vehicle ${bestVehicle}`,
      },
    });
  });
  return found;
}
