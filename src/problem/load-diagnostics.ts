import type { CompiledProblem } from "../../strategies/core/problem.js";
import { TravelBounds } from "./travel-bounds.js";
import type { components } from "../../generated/api.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";

type Infeasibility = components["schemas"]["Infeasibility"];
type Distance = (i: number, j: number) => number;

const EPS = 1e-9;

/**
 * What the load rules prove impossible before solving: a pickup or a shipment larger
 * than every vehicle, all pickups together more than the fleet carries back, an extra-dimension
 * demand (one node's or all together) above the fleet's, and a shipment whose delivery window
 * closes before any vehicle can get there from its pickup. Sound, never complete.
 */
export function loadReasons(p: CompiledProblem, dist: Distance): Infeasibility[] {
  const rules = p.loads;
  if (!rules) return [];
  const found: Infeasibility[] = [];
  let largest = 0;
  let fleet = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    largest = Math.max(largest, p.capacity[v]!);
    fleet += p.capacity[v]!;
  }
  let totalPickup = 0;
  for (const c of p.customers) {
    const pickup = rules.pickup[c]!;
    totalPickup += pickup;
    if (pickup > largest + EPS) {
      const excess = withoutDust(pickup - largest);
      found.push({
        kind: "pickup_exceeds_capacity",
        message:
          `node ${c} pickup ${evidenceNumber(pickup)} exceeds the largest vehicle capacity ` +
          `${evidenceNumber(largest)} by ${evidenceNumber(excess)}`,
        node: c,
        evidence: { pickup, largest_capacity: largest, excess },
      });
    }
  }
  if (totalPickup > fleet + EPS) {
    const excess = withoutDust(totalPickup - fleet);
    found.push({
      kind: "total_pickup_exceeds_capacity",
      message:
        `total pickup ${evidenceNumber(withoutDust(totalPickup))} exceeds the total ` +
        `capacity of all vehicles ${evidenceNumber(fleet)} by ${evidenceNumber(excess)}`,
      evidence: { total_pickup: withoutDust(totalPickup), total_capacity: withoutDust(fleet), excess },
    });
  }
  rules.shipments.forEach((s, k) => {
    if (s.amount > largest + EPS) {
      const excess = withoutDust(s.amount - largest);
      found.push({
        kind: "shipment_exceeds_capacity",
        message:
          `shipment ${k} (node ${s.pickup} to node ${s.delivery}) amount ` +
          `${evidenceNumber(s.amount)} exceeds the largest vehicle capacity ` +
          `${evidenceNumber(largest)} by ${evidenceNumber(excess)}`,
        node: s.pickup,
        evidence: { shipment: k, pickup_node: s.pickup, delivery_node: s.delivery, amount: s.amount, largest_capacity: largest, excess },
      });
    }
  });
  found.push(...extraDimensionReasons(p), ...shipmentWindowReasons(p, dist));
  return found;
}

function extraDimensionReasons(p: CompiledProblem): Infeasibility[] {
  const rules = p.loads!;
  const d = rules.extraDims;
  const found: Infeasibility[] = [];
  for (let k = 0; k < d; k++) {
    let largest = 0;
    let fleet = 0;
    for (let v = 0; v < p.vehicleCount; v++) {
      largest = Math.max(largest, rules.extraCapacity[v * d + k]!);
      fleet += rules.extraCapacity[v * d + k]!;
    }
    let total = 0;
    for (const c of p.customers) {
      const demand = rules.extraDemand[c * d + k]!;
      total += demand;
      if (demand > largest + EPS) {
        const excess = withoutDust(demand - largest);
        found.push({
          kind: "extra_demand_exceeds_capacity",
          message:
            `node ${c} demand ${evidenceNumber(demand)} in extra dimension ${k + 1} exceeds ` +
            `the largest vehicle capacity ${evidenceNumber(largest)} in that dimension by ` +
            `${evidenceNumber(excess)}`,
          node: c,
          evidence: { dimension: k + 1, demand, largest_capacity: largest, excess },
        });
      }
    }
    if (total > fleet + EPS) {
      const excess = withoutDust(total - fleet);
      found.push({
        kind: "total_extra_demand_exceeds_capacity",
        message:
          `total demand ${evidenceNumber(withoutDust(total))} in extra dimension ${k + 1} ` +
          `exceeds the total capacity of all vehicles ` +
          `${evidenceNumber(withoutDust(fleet))} in that dimension by ${evidenceNumber(excess)}`,
        evidence: { dimension: k + 1, total_demand: withoutDust(total), total_capacity: withoutDust(fleet), excess },
      });
    }
  }
  return found;
}

/**
 * Hard windows: at best a vehicle leaves its start node when that node's window opens, drives
 * straight to the pickup, serves it (waiting for its window) and drives straight to the delivery.
 * If even that arrives after the delivery's window closes, for every vehicle, the pair is lost.
 */
function shipmentWindowReasons(p: CompiledProblem, dist: Distance): Infeasibility[] {
  const t = p.time;
  if (!t || t.latePenaltyPerMin > 0) return [];
  const found: Infeasibility[] = [];
  const bounds = new TravelBounds(p, dist);
  p.loads!.shipments.forEach((s, k) => {
    let best = { arrival: Number.POSITIVE_INFINITY, finish: 0, travel: 0, vehicle: 0 };
    for (let v = 0; v < p.vehicleCount; v++) {
      const start = p.startNode[v]!;
      const reach = t.twStartMin[start]! + bounds.from(v, start, s.pickup);
      const finish = Math.max(reach, t.twStartMin[s.pickup]!) + t.serviceMin[s.pickup]!;
      const travel = bounds.to(v, s.pickup, s.delivery);
      if (finish + travel < best.arrival) best = { arrival: finish + travel, finish, travel, vehicle: v };
    }
    const windowEnd = t.twEndMin[s.delivery]!;
    if (best.arrival > windowEnd + EPS) {
      const lateBy = withoutDust(best.arrival - windowEnd);
      found.push({
        kind: "shipment_windows_incompatible",
        message:
          `shipment ${k} cannot be delivered in time: its pickup (node ${s.pickup}) is ` +
          `served by ${evidenceNumber(withoutDust(best.finish))} at the earliest, then the ` +
          `delivery (node ${s.delivery}) is reached at ` +
          `${evidenceNumber(withoutDust(best.arrival))} at best, ${evidenceNumber(lateBy)} ` +
          `min after its window closes at ${evidenceNumber(windowEnd)}`,
        node: s.delivery,
        evidence: {
          shipment: k,
          pickup_node: s.pickup,
          delivery_node: s.delivery,
          pickup_finish: withoutDust(best.finish),
          travel_minutes: withoutDust(best.travel),
          earliest_delivery_arrival: withoutDust(best.arrival),
          window_end: windowEnd,
          late_by: lateBy,
          vehicle: `Vehicle ${best.vehicle}`,
        },
      });
    }
  });
  return found;
}
