import type { CompiledProblem, LoadRules } from "./problem.js";

/** What the load rules (constraints.md, second table) say about one route. */
export interface RouteLoadCheck {
  /** The most on board in the first dimension (deliveries still on board + pickups + shipments). */
  peakOnBoard: number;
  /**
   * Load above capacity: the first dimension's peak on board above vehicles_capacity, plus each
   * extra dimension's delivered total above its capacity (the sum the search prices, route-loads.ts).
   */
  excess: number;
  /**
   * Broken order rules: a delivery node after a pickup node under pickups_after_deliveries, and
   * each shipment stop whose partner is not on the route in the right order (pickup first).
   */
  orderViolations: number;
}

/** The on-board loads after each node (start and end nodes included), filled when asked for. */
export interface OnBoardLoads {
  /** First dimension. */
  onBoard: number[];
  /** Per node, the D extra dimensions (empty arrays when D = 0). */
  extraOnBoard: number[][];
}

/** Scratch marks for the shipment check; grown on demand, so one module-level buffer serves every problem. */
let seen = new Int32Array(0);
let stamp = 0;

/**
 * Walks vehicle v's route once: the load on board at the start (everything to deliver) and
 * after every stop (delivery handed over, pickup and shipment amount taken on), the extra
 * dimensions' delivered totals, the backhaul order and the shipments' pairing. O(route).
 */
export function checkRouteLoads(
  p: CompiledProblem,
  rules: LoadRules,
  v: number,
  route: ArrayLike<number>,
  len: number,
  out?: OnBoardLoads,
): RouteLoadCheck {
  const D = rules.extraDims;
  let delivered = 0;
  const extra = new Float64Array(D);
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    delivered += p.demand[c]!;
    for (let d = 0; d < D; d++) extra[d] = extra[d]! + rules.extraDemand[c * D + d]!;
  }
  let onBoard = delivered;
  let peak = onBoard;
  const extraLeft = Float64Array.from(extra);
  if (out) {
    out.onBoard = [onBoard];
    out.extraOnBoard = [Array.from(extraLeft)];
  }
  if (seen.length < p.nodeCount) seen = new Int32Array(p.nodeCount);
  const role = shipmentRoles(rules);
  stamp++;
  let orderViolations = 0;
  let pickupSeen = false;
  let openShipments = 0;
  for (let k = 0; k < len; k++) {
    const c = route[k]!;
    onBoard += rules.pickup[c]! + rules.shipmentLoad[c]! - p.demand[c]!;
    if (onBoard > peak) peak = onBoard;
    for (let d = 0; d < D; d++) extraLeft[d] = extraLeft[d]! - rules.extraDemand[c * D + d]!;
    if (rules.pickupsAfterDeliveries) {
      if (p.demand[c]! > 0 && pickupSeen) orderViolations++;
      if (rules.pickup[c]! > 0) pickupSeen = true;
    }
    const partner = rules.partner[c]!;
    if (partner >= 0) {
      if (role[c]! > 0) {
        seen[c] = stamp;
        openShipments++;
      } else if (seen[partner] === stamp) {
        seen[partner] = 0;
        openShipments--;
      } else orderViolations++;
    }
    if (out) {
      out.onBoard.push(onBoard);
      out.extraOnBoard.push(Array.from(extraLeft));
    }
  }
  orderViolations += openShipments;
  if (out) {
    out.onBoard.push(onBoard);
    out.extraOnBoard.push(Array.from(extraLeft));
  }
  let excess = Math.max(0, peak - p.capacity[v]!);
  for (let d = 0; d < D; d++) excess += Math.max(0, extra[d]! - rules.extraCapacity[v * D + d]!);
  return { peakOnBoard: peak, excess, orderViolations };
}

const roles = new WeakMap<LoadRules, Int8Array>();

/** Per node: 1 at a shipment's pickup, -1 at its delivery, 0 elsewhere (computed once per problem). */
export function shipmentRoles(rules: LoadRules): Int8Array {
  let role = roles.get(rules);
  if (!role) {
    role = new Int8Array(rules.partner.length);
    for (const s of rules.shipments) {
      role[s.pickup] = 1;
      role[s.delivery] = -1;
    }
    roles.set(rules, role);
  }
  return role;
}
