import { shipmentRoles } from "./evaluate-loads.js";
import { isReloadStop } from "./evaluate-trips.js";
import type { CompiledProblem, Solution, VisitRules } from "./problem.js";
import type { RouteSchedule } from "./schedule-types.js";

/** A shipment whose delivery starts later after its pickup than its max_ride_minutes allow. */
export interface RideBreach {
  pickup: number;
  delivery: number;
  rideMinutes: number;
  maxRideMinutes: number;
}

/** A leg on which goods of an incompatible pair are on board together: the stop it arrives at and two such stops. */
export interface LoadConflict {
  /** The node the leg arrives at (the end node after the last stop). */
  toNode: number;
  /** Two stops whose goods are on board together on that leg and may not be. */
  nodes: [number, number];
}

/** What a route breaks of the visit rules: shipments riding too long, and legs with incompatible goods on board. */
export interface VisitBreaches {
  rides: RideBreach[];
  conflicts: LoadConflict[];
}

/** A same-vehicle group served by several vehicles, or served in part. */
export interface GroupBreach {
  group: number;
  /** The vehicles serving some of its nodes, ascending. */
  vehicles: number[];
  /** Its nodes on no route. */
  unserved: number[];
}

const EPS_MIN = 1e-7;
const scratch = new WeakMap<VisitRules, { pickupEnd: Float64Array; suffix: Int32Array; shipped: Int32Array }>();

function scratchOf(p: CompiledProblem, visits: VisitRules) {
  let s = scratch.get(visits);
  if (!s) {
    s = {
      pickupEnd: new Float64Array(p.nodeCount).fill(Number.NaN),
      suffix: new Int32Array(p.nodeCount + 2),
      shipped: new Int32Array(32),
    };
    scratch.set(visits, s);
  }
  return s;
}

/**
 * Minutes by which the route's shipments ride longer than their max_ride_minutes, summed: the
 * ride is from the end of the pickup's service to the start of the delivery's, read off the
 * evaluator's schedule (positions 1..len are the route's stops). `breaches`, when given, gets each.
 */
export function rideExcess(p: CompiledProblem, schedule: RouteSchedule, breaches?: RideBreach[]): number {
  const visits = p.visits;
  const t = p.time;
  const partner = p.loads?.partner;
  if (!visits?.maxRide || !t || !partner) return 0;
  const maxRide = visits.maxRide;
  const { pickupEnd } = scratchOf(p, visits);
  const nodes = schedule.nodes;
  let excess = 0;
  const last = nodes.length - 1;
  for (let k = 1; k <= last; k++) {
    const node = nodes[k]!;
    const other = partner[node];
    if (other === undefined || other < 0) continue;
    const begin = schedule.begin?.[k] ?? Math.max(schedule.arrive[k]!, t.twStartMin[node]!);
    if (maxRide[node]! < Number.POSITIVE_INFINITY) {
      pickupEnd[node] = begin + t.serviceMin[node]!;
    } else if (!Number.isNaN(pickupEnd[other]!)) {
      const ride = begin - pickupEnd[other]!;
      const over = ride - maxRide[other]!;
      if (over > EPS_MIN) {
        excess += over;
        breaches?.push({ pickup: other, delivery: node, rideMinutes: ride, maxRideMinutes: maxRide[other]! });
      }
    }
  }
  // Leave the scratch clean for the next route (only the pickups just written were touched).
  for (let k = 1; k <= last; k++) pickupEnd[nodes[k]!] = Number.NaN;
  return excess;
}

/** Whether a set of goods types (one bit each) holds an incompatible pair. */
function conflicting(conflicts: Int32Array, mask: number): boolean {
  let rest = mask;
  while (rest !== 0) {
    const bit = 31 - Math.clz32(rest);
    if ((conflicts[bit]! & mask) !== 0) return true;
    rest &= ~(1 << bit);
  }
  return false;
}

/**
 * The goods of stop c as a delivery (on board from its trip's start to its service) and as a
 * pickup (from its service to its trip's end). A stop with neither a demand nor a pickup counts
 * as a delivery; shipment stops are neither (their goods ride between their two stops).
 */
function deliveryBits(p: CompiledProblem, bits: Int32Array, c: number): number {
  const loads = p.loads;
  if (loads && (loads.partner[c]! >= 0 || (loads.pickup[c]! > 0 && p.demand[c]! <= 0))) return 0;
  return bits[c]!;
}

function pickupBits(p: CompiledProblem, bits: Int32Array, c: number): number {
  const loads = p.loads;
  return loads && loads.partner[c]! < 0 && loads.pickup[c]! > 0 ? bits[c]! : 0;
}

/**
 * The legs of vehicle v's route (start -> first stop, ..., last stop -> end node) on which goods
 * of an incompatible pair are on board together: deliveries from their trip's start, pickups to
 * its end, shipments between their stops; a reload stop empties the vehicle. Allocation-free.
 */
export function conflictingLegs(p: CompiledProblem, v: number, route: ArrayLike<number>, len: number): number {
  const visits = p.visits;
  const bits = visits?.typeBit;
  if (!visits || !bits || len === 0) return 0;
  const { suffix, shipped } = scratchOf(p, visits);
  const trips = p.trips;
  const partner = p.loads?.partner;
  const role = p.loads ? shipmentRoles(p.loads) : null;
  suffix[len] = 0;
  for (let k = len - 1; k >= 0; k--) {
    const c = route[k]!;
    suffix[k] = trips && isReloadStop(trips, v, c) ? 0 : suffix[k + 1]! | deliveryBits(p, bits, c);
  }
  let picked = 0;
  let shipMask = 0;
  let legs = 0;
  for (let k = 0; k <= len; k++) {
    if (conflicting(visits.conflicts, suffix[k]! | picked | shipMask)) legs++;
    if (k === len) break;
    const c = route[k]!;
    if (trips && isReloadStop(trips, v, c)) {
      picked = 0;
      continue;
    }
    picked |= pickupBits(p, bits, c);
    const other = partner ? partner[c]! : -1;
    if (other < 0) continue;
    const goods = bits[c]! | bits[other]!;
    const sign = role![c]!;
    shipMask = 0;
    for (let b = 0; b < 32; b++) {
      if ((goods & (1 << b)) !== 0) shipped[b] = shipped[b]! + sign;
      if (shipped[b]! > 0) shipMask |= 1 << b;
    }
  }
  shipped.fill(0);
  return legs;
}

/**
 * Each conflicting leg of the route with two stops whose goods are on board together on it: the
 * answer's own reading for its messages, a plain walk over who is on board (not the search's masks).
 */
export function loadConflicts(p: CompiledProblem, v: number, route: readonly number[]): LoadConflict[] {
  const visits = p.visits;
  const bits = visits?.typeBit;
  if (!visits || !bits || route.length === 0) return [];
  const trips = p.trips;
  const partner = p.loads?.partner;
  const role = p.loads ? shipmentRoles(p.loads) : null;
  const reload = route.map((c) => trips !== undefined && trips !== null && isReloadStop(trips, v, c));
  const trip = route.map((_, k) => reload.slice(0, k).filter(Boolean).length);
  const tripOfLeg = (leg: number): number => reload.slice(0, leg).filter(Boolean).length;
  const out: LoadConflict[] = [];
  for (let leg = 0; leg <= route.length; leg++) {
    const onBoard: { node: number; goods: number }[] = [];
    route.forEach((c, k) => {
      if (reload[k] || trip[k] !== tripOfLeg(leg)) return;
      const other = partner ? partner[c]! : -1;
      if (other >= 0) {
        const delivery = route.indexOf(other);
        if (role![c] === 1 && k < leg && delivery >= leg) onBoard.push({ node: c, goods: bits[c]! | bits[other]! });
      } else if (k >= leg && deliveryBits(p, bits, c) !== 0) onBoard.push({ node: c, goods: bits[c]! });
      else if (k < leg && pickupBits(p, bits, c) !== 0) onBoard.push({ node: c, goods: bits[c]! });
    });
    const pair = firstConflict(visits.conflicts, onBoard);
    if (pair) out.push({ toNode: leg < route.length ? route[leg]! : p.endNode[v]!, nodes: pair });
  }
  return out;
}

/** Two entries whose goods may not ride together (or one shipment whose own two types may not). */
function firstConflict(conflicts: Int32Array, onBoard: { node: number; goods: number }[]): [number, number] | null {
  for (let i = 0; i < onBoard.length; i++) {
    if (conflicting(conflicts, onBoard[i]!.goods)) return [onBoard[i]!.node, onBoard[i]!.node];
    for (let j = i + 1; j < onBoard.length; j++)
      if (conflicting(conflicts, onBoard[i]!.goods | onBoard[j]!.goods)) return [onBoard[i]!.node, onBoard[j]!.node];
  }
  return null;
}

/** The same-vehicle groups that a solution splits over vehicles or serves in part. */
export function groupBreaches(p: CompiledProblem, s: Solution): GroupBreach[] {
  const visits = p.visits;
  if (!visits?.groupOf) return [];
  const vehicleOf = new Int32Array(p.nodeCount).fill(-1);
  s.routes.forEach((route, v) => {
    for (const c of route) if (c >= 0 && c < p.nodeCount && visits.groupOf![c]! >= 0) vehicleOf[c] = v;
  });
  const out: GroupBreach[] = [];
  visits.groups.forEach((group, g) => {
    const vehicles = new Set<number>();
    const unserved: number[] = [];
    for (const c of group) {
      if (vehicleOf[c]! >= 0) vehicles.add(vehicleOf[c]!);
      else unserved.push(c);
    }
    if (vehicles.size > 1 || (vehicles.size === 1 && unserved.length > 0))
      out.push({ group: g, vehicles: [...vehicles].sort((a, b) => a - b), unserved });
  });
  return out;
}

/** Whether every same-vehicle group is on one vehicle or on none, given each node's vehicle (-1: unserved). */
export function groupsKept(visits: VisitRules, vehicleOf: Int32Array): boolean {
  for (const group of visits.groups) {
    const first = vehicleOf[group[0]!]!;
    for (let k = 1; k < group.length; k++) if (vehicleOf[group[k]!] !== first) return false;
  }
  return true;
}
