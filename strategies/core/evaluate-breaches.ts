import { durationCap } from "./evaluate-rules.js";
import type { RouteScore } from "./evaluator.js";
import type { CompiledProblem, LoadRules, Solution } from "./problem.js";
import type { RouteSchedule } from "./schedule-types.js";

/**
 * What a route breaks of skills, shifts and route limits, with the amounts, from the evaluator's
 * numbers: the service's own check, so that an answer never rests on the search having kept them.
 */
export interface RuleBreaches {
  /** Customers the vehicle lacks a skill for. */
  skillNodes: number[];
  /** Minutes the departure is before the shift start, and the arrival after the shift end. */
  shiftEarlyMin: number;
  shiftLateMin: number;
  /** Minutes over the vehicle's own working-hours cap. */
  durationOverMin: number;
  distanceOver: number;
  stopsOver: number;
}

const EPS_DIST = 1e-9;
const EPS_MIN = 1e-7;
const EPS_LOAD = 1e-9;

export function routeBreaches(p: CompiledProblem, v: number, route: readonly number[], score: RouteScore): RuleBreaches {
  const none: RuleBreaches = { skillNodes: [], shiftEarlyMin: 0, shiftLateMin: 0, durationOverMin: 0, distanceOver: 0, stopsOver: 0 };
  const rules = p.rules;
  if (!rules || route.length === 0) return none;
  const allowed = rules.allowed;
  none.skillNodes = allowed ? route.filter((c) => allowed[v * p.nodeCount + c] !== 1) : [];
  if (p.time) {
    none.shiftEarlyMin = Math.max(0, rules.shiftStartMin[v]! - score.departureMin);
    // The shift end tightens the end node's window: hard only under hard windows (soft: priced lateness).
    if (p.time.latePenaltyPerMin <= 0) none.shiftLateMin = Math.max(0, score.departureMin + score.durationMin - rules.shiftEndMin[v]!);
    none.durationOverMin = Math.max(0, score.durationMin - durationCap(p, v));
  }
  none.distanceOver = Math.max(0, score.distance - rules.maxDistance[v]!);
  // Reload stops (several trips) are no customers.
  none.stopsOver = Math.max(0, route.length - (score.reloads ?? 0) - rules.maxStops[v]!);
  return none;
}

export function breaksAny(b: RuleBreaches): boolean {
  return (
    b.skillNodes.length > 0 ||
    b.shiftEarlyMin > EPS_MIN ||
    b.shiftLateMin > EPS_MIN ||
    b.durationOverMin > EPS_MIN ||
    b.distanceOver > EPS_DIST ||
    b.stopsOver > 0
  );
}

/** A route the service accepts: the evaluator finds it feasible and it keeps every rule above. */
export function routeAcceptable(p: CompiledProblem, v: number, route: readonly number[], score: RouteScore): boolean {
  return score.feasible && !breaksAny(routeBreaches(p, v, route, score));
}

/** What a route breaks of the load rules (pickups, shipments, extra dimensions), where. */
export interface LoadBreaches {
  /** The most on board in the first dimension, and the schedule position where it is first reached (0: leaving the start). */
  peakOnBoard: number;
  peakAt: number;
  /** The peak is above the vehicle's capacity. */
  overloaded: boolean;
  /** Under pickups_after_deliveries: the first pickup node and a delivery node after it, or null. */
  pickupBeforeDelivery: [number, number] | null;
  /** Per extra dimension, the route's total delivered. */
  extraDelivered: number[];
}

/**
 * The load breaches of vehicle v's non-empty route from the evaluator's loads on board (the
 * schedule's, or the same profile walked here for a route with reload stops, which the evaluator
 * checks per trip). The first dimension's peak counts from 0, as the loads on board do.
 */
export function loadBreaches(
  p: CompiledProblem,
  rules: LoadRules,
  v: number,
  route: readonly number[],
  schedule: RouteSchedule,
): LoadBreaches {
  const profile = schedule.onBoard && schedule.extraOnBoard ? schedule : onBoardProfile(p, rules, v, route);
  let peakOnBoard = 0;
  let peakAt = 0;
  profile.onBoard!.forEach((load, i) => {
    if (load > peakOnBoard) [peakOnBoard, peakAt] = [load, i];
  });
  const pickupBeforeDelivery = rules.pickupsAfterDeliveries ? firstPickupBeforeDelivery(p, rules, route) : null;
  const overloaded = peakOnBoard > p.capacity[v]! + EPS_LOAD;
  return { peakOnBoard, peakAt, overloaded, pickupBeforeDelivery, extraDelivered: [...(profile.extraOnBoard![0] ?? [])] };
}

/** The loads on board along a route from its start node to its end node, every node walked in one pass. */
function onBoardProfile(
  p: CompiledProblem,
  rules: LoadRules,
  v: number,
  route: readonly number[],
): Required<Pick<RouteSchedule, "onBoard" | "extraOnBoard">> {
  const nodes = [p.startNode[v]!, ...route, p.endNode[v]!];
  const d = rules.extraDims;
  let onBoard = 0;
  const extra = new Array<number>(d).fill(0);
  for (const node of nodes) {
    onBoard += p.demand[node]!;
    for (let k = 0; k < d; k++) extra[k]! += rules.extraDemand[node * d + k]!;
  }
  const profile = { onBoard: [] as number[], extraOnBoard: [] as number[][] };
  nodes.forEach((node, i) => {
    if (i > 0) {
      onBoard += rules.pickup[node]! + rules.shipmentLoad[node]! - p.demand[node]!;
      for (let k = 0; k < d; k++) extra[k]! -= rules.extraDemand[node * d + k]!;
    }
    profile.onBoard.push(onBoard);
    profile.extraOnBoard.push(extra.slice());
  });
  return profile;
}

/** A pickup node followed later by a delivery node on the same route, or null. */
function firstPickupBeforeDelivery(p: CompiledProblem, rules: LoadRules, customers: readonly number[]): [number, number] | null {
  let firstPickup = -1;
  for (const node of customers) {
    if (rules.partner[node]! >= 0) continue; // shipment stops are exempt from the backhaul order
    if (firstPickup < 0 && rules.pickup[node]! > 0) firstPickup = node;
    if (firstPickup >= 0 && p.demand[node]! > 0) return [firstPickup, node];
  }
  return null;
}

/** A shipment the plan does not serve by one vehicle with the pickup first. */
export type ShipmentBreach = { shipment: number; pickup: number; delivery: number } & (
  | { kind: "half"; served: number; missing: number }
  | { kind: "split"; pickupVehicle: number; deliveryVehicle: number }
  | { kind: "reversed"; vehicle: number }
);

/** Every shipment served in part, on two vehicles or delivery first (one served by nobody is a missing customer). */
export function shipmentBreaches(rules: LoadRules, solution: Solution, nodeCount: number): ShipmentBreach[] {
  if (rules.shipments.length === 0) return [];
  const vehicle = new Int32Array(nodeCount).fill(-1);
  const position = new Int32Array(nodeCount).fill(-1);
  solution.routes.forEach((route, v) =>
    route.forEach((node, i) => {
      if (node >= 0 && node < nodeCount) {
        vehicle[node] = v;
        position[node] = i;
      }
    }),
  );
  const broken: ShipmentBreach[] = [];
  rules.shipments.forEach((s, k) => {
    const vp = vehicle[s.pickup]!;
    const vd = vehicle[s.delivery]!;
    const which = { shipment: k, pickup: s.pickup, delivery: s.delivery };
    if (vp < 0 && vd < 0) return;
    if (vp < 0 || vd < 0) {
      const [served, missing] = vp < 0 ? [s.delivery, s.pickup] : [s.pickup, s.delivery];
      broken.push({ ...which, kind: "half", served, missing });
    } else if (vp !== vd) broken.push({ ...which, kind: "split", pickupVehicle: vp, deliveryVehicle: vd });
    else if (position[s.pickup]! > position[s.delivery]!) broken.push({ ...which, kind: "reversed", vehicle: vp });
  });
  return broken;
}
