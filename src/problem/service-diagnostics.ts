import type { components } from "../../generated/api.js";
import { legDistanceWith, returnsToEnd, travelKey } from "../../strategies/core/travel.js";
import { TravelBounds } from "./travel-bounds.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import type { ConstraintFields } from "./constraint-fields.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";

type Infeasibility = components["schemas"]["Infeasibility"];

/** d(i, j): the compiled matrix, or (in the API, which compiles without it) computed on demand. */
export type Distance = (i: number, j: number) => number;

/**
 * The validate pre-check's proofs for optional stops, skills, shifts and route limits
 * (constraints.md, first table): per customer, over the vehicles allowed to serve it, the trip
 * start node -> customer -> end node alone. Nothing here runs for a request without those fields.
 */

const EPS = 1e-9;

/** Whether vehicle v has every skill customer c needs. */
export function isAllowed(p: CompiledProblem, v: number, c: number): boolean {
  const allowed = p.rules?.allowed;
  return !allowed || allowed[v * p.nodeCount + c] === 1;
}

/** Whether customer c must be served (no skip penalty): every customer of a request without rules. */
export function mustServe(p: CompiledProblem, c: number): boolean {
  return !p.rules || p.rules.skipPenalty[c] === Number.POSITIVE_INFINITY;
}

/** Whether customer c may end up unserved without failing the task. */
export function mayBeUnassigned(p: CompiledProblem, c: number): boolean {
  return p.rules !== null && p.rules !== undefined && (p.rules.allowUnassigned || !mustServe(p, c));
}

/** Whether any customer may be left unserved: the result then carries `unassigned`. */
export function anyMayBeUnassigned(p: CompiledProblem): boolean {
  if (!p.rules) return false;
  if (p.rules.allowUnassigned) return true;
  for (const c of p.customers) if (!mustServe(p, c)) return true;
  return false;
}

/** Vehicle v's route duration cap in minutes (its own vehicle_max_working_hours, else the request's). */
export function capMinutes(p: CompiledProblem, v: number): number {
  return p.rules ? p.rules.maxDurationMin[v]! : (p.time?.maxRouteMin ?? Number.POSITIVE_INFINITY);
}

/** Flags the reasons that leave a customer unserved instead of failing the task. */
export function markMayBeUnassigned(p: CompiledProblem, found: Infeasibility[]): Infeasibility[] {
  if (!p.rules) return found;
  return found.map((i) =>
    (i.node === undefined ? p.rules!.allowUnassigned : mayBeUnassigned(p, i.node)) ? { ...i, may_be_unassigned: true as const } : i,
  );
}

/**
 * One vehicle per class of vehicles that every per-customer proof treats alike (the first of each):
 * same start and end node and speed, and with the constraint fields the same skills, shift,
 * working-hours, distance and stop caps. Keeps the pre-check O(customers x classes).
 */
export function vehicleClasses(p: CompiledProblem, request: ConstraintFields): number[] {
  const seen = new Set<string>();
  const representatives: number[] = [];
  const rules = p.rules;
  for (let v = 0; v < p.vehicleCount; v++) {
    let key = `${p.startNode[v]},${p.endNode[v]},${p.time?.speed[v] ?? 1}${travelKey(p, v)}`;
    if (rules) {
      // Skills from the request; a caller that passed none leaves each vehicle its own class.
      const skillsKnown = rules.allowed === null || request.node_skills !== undefined;
      const skills = skillsKnown ? [...new Set(request.vehicle_skills?.[v] ?? [])].sort().join("\u0000") : `#${v}`;
      key +=
        `,${capMinutes(p, v)},${rules.shiftStartMin[v]},${rules.shiftEndMin[v]},` +
        `${rules.maxDistance[v]},${rules.maxStops[v]},${JSON.stringify(skills)}`;
    }
    if (!seen.has(key)) {
      seen.add(key);
      representatives.push(v);
    }
  }
  return representatives;
}

/** The reasons of the constraint extensions, node by node, then the global stops count. */
export function serviceReasons(p: CompiledProblem, dist: Distance, request: ConstraintFields): Infeasibility[] {
  const rules = p.rules;
  if (!rules) return [];
  const found: Infeasibility[] = [];
  const classes = vehicleClasses(p, request);
  const bounds = new TravelBounds(p, dist);
  for (const c of p.customers) {
    const allowed = classes.filter((v) => isAllowed(p, v, c));
    if (allowed.length === 0) {
      found.push(skillsReason(p, c, request));
      continue;
    }
    const shift = shiftReason(p, c, allowed, bounds);
    if (shift) found.push(shift);
    const distance = distanceReason(p, c, allowed, dist);
    if (distance) found.push(distance);
  }
  const stops = stopsReason(p);
  if (stops) found.push(stops);
  return found;
}

function skillsReason(p: CompiledProblem, c: number, request: ConstraintFields): Infeasibility {
  const required = [...new Set(request.node_skills?.[c] ?? [])];
  let vehicle = 0;
  let missing = required;
  for (let v = 0; v < p.vehicleCount; v++) {
    const has = new Set(request.vehicle_skills?.[v] ?? []);
    const lacks = required.filter((s) => !has.has(s));
    if (lacks.length < missing.length) {
      missing = lacks;
      vehicle = v;
    }
  }
  return {
    kind: "no_vehicle_with_skills",
    message:
      `node ${c} needs the skills ${JSON.stringify(required)}, which no vehicle has ` +
      `all of (vehicle ${vehicle}, the closest, lacks ${JSON.stringify(missing)})`,
    node: c,
    evidence: { required_skills: required, missing_skills: missing, vehicle: `Vehicle ${vehicle}` },
  };
}

/**
 * Every allowed vehicle misses its shift on the trip to c alone (leaving at the later of its
 * start node's window and its shift start, waiting for c's window), while without shifts some
 * vehicle would make it: the shift, not the windows, is what rules the customer out.
 */
function shiftReason(p: CompiledProblem, c: number, allowed: number[], bounds: TravelBounds): Infeasibility | null {
  const t = p.time;
  const rules = p.rules!;
  // Under soft windows a shift, like the end node's window it tightens, only prices lateness.
  const hard = t !== null && t.latePenaltyPerMin <= 0;
  if (!t || !hard || !allowed.some((v) => Number.isFinite(rules.shiftStartMin[v]!) || Number.isFinite(rules.shiftEndMin[v]!))) return null;
  let best = Number.POSITIVE_INFINITY;
  let bestVehicle = -1;
  let bestReturn = 0;
  let fitsWithoutShift = false;
  for (const v of allowed) {
    const s = p.startNode[v]!;
    const e = p.endNode[v]!;
    // An open route ends at its last stop: nothing to return by.
    const open = !returnsToEnd(p, v);
    const miss = (departure: number, returnBy: number): [number, number] => {
      const begin = Math.max(departure + bounds.from(v, s, c), t.twStartMin[c]!);
      const back = begin + t.serviceMin[c]! + (open ? 0 : bounds.to(v, c, e));
      return [Math.max(begin - t.twEndMin[c]!, open ? 0 : back - returnBy), back];
    };
    const endWindow = t.twEndMin[e]!;
    if (miss(t.twStartMin[s]!, endWindow)[0] <= EPS) fitsWithoutShift = true;
    const [late, back] = miss(Math.max(t.twStartMin[s]!, rules.shiftStartMin[v]!), Math.min(endWindow, rules.shiftEndMin[v]!));
    if (late < best) {
      best = late;
      bestVehicle = v;
      bestReturn = back;
    }
  }
  if (!fitsWithoutShift || best <= EPS) return null;
  const shiftStart = rules.shiftStartMin[bestVehicle]!;
  const shiftEnd = rules.shiftEndMin[bestVehicle]!;
  const lateBy = withoutDust(best);
  return {
    kind: "shift_too_short",
    message:
      `node ${c} cannot be served within the shift of any vehicle allowed to serve it, ` +
      `even driving there and back alone: vehicle ${bestVehicle} (shift ` +
      `[${evidenceNumber(shiftStart)}, ${evidenceNumber(shiftEnd)}]) misses by ` +
      `${evidenceNumber(lateBy)} min at best, back at ` +
      `${evidenceNumber(withoutDust(bestReturn))} at the earliest`,
    node: c,
    evidence: {
      earliest_return: withoutDust(bestReturn),
      ...(Number.isFinite(shiftStart) ? { shift_start: shiftStart } : {}),
      ...(Number.isFinite(shiftEnd) ? { shift_end: shiftEnd } : {}),
      late_by: lateBy,
      vehicle: `Vehicle ${bestVehicle}`,
    },
  };
}

/** Every allowed vehicle's distance cap is shorter than its trip start node -> c -> end node. */
function distanceReason(p: CompiledProblem, c: number, allowed: number[], dist: Distance): Infeasibility | null {
  const caps = p.rules!.maxDistance;
  let over = Number.POSITIVE_INFINITY;
  let vehicle = -1;
  let trip = 0;
  for (const v of allowed) {
    const home = returnsToEnd(p, v) ? legDistanceWith(p, v, c, p.endNode[v]!, dist) : 0;
    const d = legDistanceWith(p, v, p.startNode[v]!, c, dist) + home;
    if (d - caps[v]! < over) {
      over = d - caps[v]!;
      vehicle = v;
      trip = d;
    }
  }
  if (!(over > EPS)) return null;
  const cap = caps[vehicle]!;
  return {
    kind: "distance_limit",
    message:
      `node ${c} is farther than the distance cap of every vehicle allowed to serve ` +
      `it: the shortest trip there and back, by vehicle ${vehicle}, is ` +
      `${evidenceNumber(withoutDust(trip))} against its vehicle_max_distance ` +
      `${evidenceNumber(cap)}`,
    node: c,
    evidence: { round_trip_distance: withoutDust(trip), max_distance: cap, vehicle: `Vehicle ${vehicle}` },
  };
}

/** The customers that must be served outnumber the stops of all vehicles together (every vehicle capped). */
function stopsReason(p: CompiledProblem): Infeasibility | null {
  const caps = p.rules!.maxStops;
  let total = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    if (caps[v]! >= 0x7fffffff) return null;
    total += caps[v]!;
  }
  let required = 0;
  for (const c of p.customers) if (mustServe(p, c)) required++;
  if (required <= total) return null;
  return {
    kind: "stops_limit",
    message: `${required} customers must be served but the vehicles may visit at most ${total} together (vehicle_max_stops)`,
    evidence: { customers: required, total_max_stops: total },
  };
}
