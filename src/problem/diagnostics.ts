import type { components } from "../../generated/api.js";
import { distanceBetween, type CompiledProblem } from "../../strategies/core/problem.js";
import type { ConstraintFields } from "./constraint-fields.js";
import { loadReasons } from "./load-diagnostics.js";
import { lockedStopReasons } from "./plan-diagnostics.js";
import {
  capMinutes,
  isAllowed,
  markMayBeUnassigned,
  mustServe,
  serviceReasons,
  vehicleClasses,
  type Distance,
} from "./service-diagnostics.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";
import { returnsToEnd } from "../../strategies/core/travel.js";
import { TravelBounds } from "./travel-bounds.js";
import { breakReasons } from "./travel-diagnostics.js";
import { releaseReasons } from "./trip-diagnostics.js";
import { visitReasons } from "./visit-diagnostics.js";

/** One proven reason why no feasible solution exists: the OpenAPI document's `Infeasibility`. */
export type Infeasibility = components["schemas"]["Infeasibility"];
export type InfeasibilityKind = Infeasibility["kind"];
export type InfeasibilityEvidence = Infeasibility["evidence"];

const EPS = 1e-9;

/**
 * Reasons, with their evidence, why no feasible solution can exist, where they can be told
 * cheaply (O(customers x vehicles)) and for sure. An empty list does not prove feasibility; it
 * only means none of these applies. The API's validate endpoint and a failed task list the same.
 */
export function infeasibilities(
  p: CompiledProblem,
  distance: Distance = (i, j) => distanceBetween(p, i, j),
  request: ConstraintFields = {},
): Infeasibility[] {
  const found = [
    ...capacityReasons(p),
    ...loadReasons(p, distance),
    ...timeReasons(p, distance, request),
    ...serviceReasons(p, distance, request),
    ...breakReasons(p),
    ...releaseReasons(p, distance),
    ...visitReasons(p, distance),
  ];
  // Locked stops are always served: their proofs fail the task whatever allow_unassigned says.
  return [...markMayBeUnassigned(p, found), ...lockedStopReasons(p, distance)];
}

export type { Distance } from "./service-diagnostics.js";

/** The messages alone: a failed task's `diagnostics`. */
export function infeasibilityReasons(p: CompiledProblem): string[] {
  return infeasibilities(p).map((i) => i.message);
}

function capacityReasons(p: CompiledProblem): Infeasibility[] {
  const found: Infeasibility[] = [];
  let maxCapacity = 0;
  let totalCapacity = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    maxCapacity = Math.max(maxCapacity, p.capacity[v]!);
    totalCapacity += p.capacity[v]!;
  }
  let totalDemand = 0;
  for (const c of p.customers) {
    const demand = p.demand[c]!;
    if (mustServe(p, c)) totalDemand += demand;
    // With skills, only the vehicles allowed to serve c count (none allowed: the skills reason says so).
    const largest = p.rules?.allowed ? largestAllowedCapacity(p, c) : maxCapacity;
    if (largest >= 0 && demand > largest + EPS) {
      const excess = withoutDust(demand - largest);
      const whose = largest === maxCapacity ? "the largest vehicle capacity" : "the largest capacity of the vehicles with its skills";
      found.push({
        kind: "demand_exceeds_capacity",
        message: `node ${c} demand ${evidenceNumber(demand)} exceeds ${whose} ${evidenceNumber(largest)} by ${evidenceNumber(excess)}`,
        node: c,
        evidence: { demand, largest_capacity: largest, excess },
      });
    }
  }
  // Vehicles that reload carry any total over several trips.
  const reloads = p.trips?.reloadNodes.some((nodes) => nodes.length > 0) ?? false;
  if (!reloads && totalDemand > totalCapacity + EPS) {
    const excess = withoutDust(totalDemand - totalCapacity);
    found.push({
      kind: "total_demand_exceeds_capacity",
      message:
        `total demand ${evidenceNumber(totalDemand)} exceeds the total capacity of all ` +
        `vehicles ${evidenceNumber(totalCapacity)} by ${evidenceNumber(excess)}`,
      evidence: { total_demand: withoutDust(totalDemand), total_capacity: withoutDust(totalCapacity), excess },
    });
  }
  return found;
}

/** The largest capacity of the vehicles allowed to serve c; -1 when none is. */
function largestAllowedCapacity(p: CompiledProblem, c: number): number {
  let largest = -1;
  for (let v = 0; v < p.vehicleCount; v++) if (isAllowed(p, v, c)) largest = Math.max(largest, p.capacity[v]!);
  return largest;
}

function timeReasons(p: CompiledProblem, dist: Distance, request: ConstraintFields): Infeasibility[] {
  const t = p.time;
  if (!t) return [];
  const found: Infeasibility[] = [];
  for (let i = 0; i < p.nodeCount; i++) {
    if (t.twStartMin[i]! > t.twEndMin[i]! + EPS) {
      found.push({
        kind: "window_inverted",
        message: `node ${i} time window [${evidenceNumber(t.twStartMin[i]!)}, ${evidenceNumber(t.twEndMin[i]!)}] closes before it opens`,
        node: i,
        evidence: { window_start: t.twStartMin[i]!, window_end: t.twEndMin[i]! },
      });
    }
  }
  const hard = t.latePenaltyPerMin <= 0;
  // Vehicles with the same start, end and speed (and skills and caps) reach every customer alike:
  // one of each is enough (the first, which is also the one a strict minimum over all would name).
  // Travel minutes: least ones through any stops on a duration matrix (travel-bounds.ts).
  const bounds = new TravelBounds(p, dist);
  const representatives = vehicleClasses(p, request);
  for (const c of p.customers) {
    // Best case per vehicle: leave the start node when its window opens, drive straight to c.
    let earliestArrival = Number.POSITIVE_INFINITY;
    let arrivalVehicle = 0;
    let earliestReturnSlack = Number.POSITIVE_INFINITY;
    let earliestReturn = 0;
    let returnVehicle = -1;
    let shortestTrip = Number.POSITIVE_INFINITY;
    let tripVehicle = 0;
    let tripOverCap = Number.POSITIVE_INFINITY;
    let allowedCount = 0;
    for (const v of representatives) {
      if (!isAllowed(p, v, c)) continue;
      allowedCount++;
      const s = p.startNode[v]!;
      const e = p.endNode[v]!;
      const open = !returnsToEnd(p, v);
      const arrive = t.twStartMin[s]! + bounds.from(v, s, c);
      if (arrive < earliestArrival) {
        earliestArrival = arrive;
        arrivalVehicle = v;
      }
      const begin = Math.max(arrive, t.twStartMin[c]!);
      // An open route ends at its last stop: no way back to check, and no leg home in its duration.
      const home = open ? 0 : bounds.to(v, c, e);
      const back = begin + t.serviceMin[c]! + home;
      if (!open && begin <= t.twEndMin[c]! + EPS && back - t.twEndMin[e]! < earliestReturnSlack) {
        earliestReturnSlack = back - t.twEndMin[e]!;
        earliestReturn = back;
        returnVehicle = v;
      }
      const trip = bounds.from(v, s, c) + t.serviceMin[c]! + home;
      // The vehicle that comes closest to its own cap (all caps alike: the shortest trip).
      if (trip - capMinutes(p, v) < tripOverCap) {
        tripOverCap = trip - capMinutes(p, v);
        shortestTrip = trip;
        tripVehicle = v;
      }
    }
    if (allowedCount === 0) continue;
    if (hard && earliestArrival > t.twEndMin[c]! + EPS) {
      const lateBy = withoutDust(earliestArrival - t.twEndMin[c]!);
      found.push({
        kind: "window_unreachable",
        message:
          `node ${c} cannot be served within its time window ` +
          `[${evidenceNumber(t.twStartMin[c]!)}, ${evidenceNumber(t.twEndMin[c]!)}] by any ` +
          `vehicle: the earliest arrival, straight from a start node, is ` +
          `${evidenceNumber(withoutDust(earliestArrival))}, ${evidenceNumber(lateBy)} min ` +
          `after the window closes`,
        node: c,
        evidence: {
          window_end: t.twEndMin[c]!,
          earliest_arrival: withoutDust(earliestArrival),
          late_by: lateBy,
          vehicle: `Vehicle ${arrivalVehicle}`,
        },
      });
    } else if (hard && returnVehicle >= 0 && earliestReturnSlack > EPS) {
      const e = p.endNode[returnVehicle]!;
      found.push({
        kind: "return_too_late",
        message:
          `node ${c} cannot be served within its time window by any vehicle with a return ` +
          `to its end node in time: the earliest return is ` +
          `${evidenceNumber(withoutDust(earliestReturn))}, after node ${e}'s window closes ` +
          `at ${evidenceNumber(t.twEndMin[e]!)}`,
        node: c,
        evidence: {
          earliest_return: withoutDust(earliestReturn),
          end_node: e,
          end_window_end: t.twEndMin[e]!,
          late_by: withoutDust(earliestReturnSlack),
          vehicle: `Vehicle ${returnVehicle}`,
        },
      });
    }
    if (tripOverCap > EPS) {
      const cap = capMinutes(p, tripVehicle);
      const message = p.rules
        ? `node ${c}: the working-hours cap of every vehicle allowed to serve it is ` +
          `shorter than its round trip to it (vehicle ${tripVehicle}: at least ` +
          `${evidenceNumber(withoutDust(shortestTrip))} min against a cap of ` +
          `${evidenceNumber(cap)} min)`
        : `node ${c}: max_working_hours (${evidenceNumber(cap / 60)} h) is shorter than ` +
          `any vehicle's round trip to it (at least ` +
          `${evidenceNumber(withoutDust(shortestTrip))} min against a cap of ` +
          `${evidenceNumber(cap)} min)`;
      found.push({
        kind: "working_hours_too_short",
        message,
        node: c,
        evidence: { round_trip_minutes: withoutDust(shortestTrip), cap_minutes: cap, vehicle: `Vehicle ${tripVehicle}` },
      });
    }
  }
  return found;
}
