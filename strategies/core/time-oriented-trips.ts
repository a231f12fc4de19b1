import { distanceBetween, type CompiledProblem, type Solution } from "./problem.js";

/** Solomon's (1987) weights of distance, time gap and urgency in the time-oriented nearest neighbour. */
const DISTANCE_WEIGHT = 0.4;
const GAP_WEIGHT = 0.4;
const URGENCY_WEIGHT = 0.2;

/** Whether timeOrientedTrips applies: hard windows, and no locked stops (which it would not keep). */
export function plansTrips(p: CompiledProblem): boolean {
  return p.trips != null && p.time !== null && p.time.latePenaltyPerMin === 0 && !p.locks;
}

/**
 * A first plan for vehicles that reload under hard windows: Solomon's time-oriented nearest
 * neighbour, extended with trips. The vehicle that is free earliest takes the feasible customer
 * nearest in distance, time gap and urgency (window kept, trip load within capacity, released by the
 * trip's departure, home before its end node closes); when none fits, it goes to reload and starts
 * a new trip, or, with an empty trip, is done. Customers left over are for the search to place.
 */
export function timeOrientedTrips(p: CompiledProblem): Solution {
  const t = p.time!;
  const trips = p.trips!;
  const n = p.nodeCount;
  const d = (i: number, j: number) => distanceBetween(p, i, j);
  const release = trips.release;
  const served = new Uint8Array(n);
  const vehicles = p.vehicleCount;
  const routes: number[][] = Array.from({ length: vehicles }, () => []);
  const at = Int32Array.from(p.startNode);
  const rules = p.rules ?? null;
  const allowed = rules?.allowed ?? null;
  // Each vehicle's day: its start node's window narrowed by its shift, and its working-hours cap.
  const now = Float64Array.from({ length: vehicles }, (_, v) =>
    Math.max(t.twStartMin[p.startNode[v]!]!, rules?.shiftStartMin[v] ?? -Infinity),
  );
  const home = Float64Array.from({ length: vehicles }, (_, v) => Math.min(t.twEndMin[p.endNode[v]!]!, rules?.shiftEndMin[v] ?? Infinity));
  const maxDuration = Float64Array.from({ length: vehicles }, (_, v) => rules?.maxDurationMin[v] ?? t.maxRouteMin);
  /** When each vehicle's first trip leaves (NaN before it has one): the working hours count from there. */
  const leftHome = new Float64Array(vehicles).fill(Number.NaN);
  const load = new Float64Array(vehicles);
  /** The current trip's departure (-1: the trip has no customer yet) and the reloads made. */
  const departure = new Float64Array(vehicles).fill(-1);
  const reloads = new Int32Array(vehicles);
  const open = new Uint8Array(vehicles).fill(1);
  let left = p.customers.length;
  while (left > 0) {
    let v = -1;
    for (let w = 0; w < vehicles; w++) if (open[w] && (v < 0 || now[w]! < now[v]!)) v = w;
    if (v < 0) break;
    const speed = t.speed[v]!;
    const from = at[v]!;
    const end = p.endNode[v]!;
    const leaveFrom = now[v]! + (departure[v]! < 0 ? 0 : t.serviceMin[from]!);
    let best = -1;
    let bestScore = Number.POSITIVE_INFINITY;
    let bestStart = 0;
    let bestDeparture = 0;
    for (const c of p.customers) {
      if (served[c] || load[v]! + p.demand[c]! > p.capacity[v]! + 1e-9) continue;
      if (allowed && !allowed[v * n + c]) continue;
      const rel = release ? release[c]! : 0;
      // A trip without customers leaves when its first one is released; later ones must be released by then.
      const leave = departure[v]! < 0 ? Math.max(leaveFrom, rel) : leaveFrom;
      if (departure[v]! >= 0 && rel > departure[v]! + 1e-9) continue;
      const travel = d(from, c) / speed;
      const start = Math.max(leave + travel, t.twStartMin[c]!);
      if (start > t.twEndMin[c]! + 1e-9) continue;
      const back = start + t.serviceMin[c]! + d(c, end) / speed;
      if (back > home[v]! + 1e-9 || back - (Number.isNaN(leftHome[v]!) ? leave : leftHome[v]!) > maxDuration[v]! + 1e-9) continue;
      const score = DISTANCE_WEIGHT * d(from, c) + GAP_WEIGHT * (start - leaveFrom) + URGENCY_WEIGHT * (t.twEndMin[c]! - (leave + travel));
      if (score < bestScore) {
        bestScore = score;
        best = c;
        bestStart = start;
        bestDeparture = departure[v]! < 0 ? leave : departure[v]!;
      }
    }
    if (best >= 0) {
      routes[v]!.push(best);
      served[best] = 1;
      left--;
      load[v] = load[v]! + p.demand[best]!;
      departure[v] = bestDeparture;
      if (Number.isNaN(leftHome[v]!)) leftHome[v] = bestDeparture;
      at[v] = best;
      now[v] = bestStart;
      continue;
    }
    const depots = trips.reloadNodes[v]!;
    if (departure[v]! < 0 || depots.length === 0 || reloads[v]! >= trips.maxReloads[v]!) {
      open[v] = 0;
      continue;
    }
    // Back to the nearest reload node for a new trip.
    let depot = depots[0]!;
    for (const o of depots) if (d(from, o) < d(from, depot)) depot = o;
    const arrive = leaveFrom + d(from, depot) / speed;
    if (arrive > t.twEndMin[depot]!) {
      open[v] = 0;
      continue;
    }
    routes[v]!.push(depot);
    reloads[v]!++;
    at[v] = depot;
    now[v] = Math.max(arrive, t.twStartMin[depot]!);
    load[v] = 0;
    departure[v] = -1;
  }
  // A route never ends with a reload stop.
  for (const route of routes) while (route.length > 0 && p.isDepot[route[route.length - 1]!]) route.pop();
  return { routes };
}
