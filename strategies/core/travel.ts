import { distanceBetween, hasBreaks, type CompiledProblem } from "./problem.js";
import { arrivalAfter, latestDepartureFor } from "./traffic.js";
import { TRAVEL_FEATURES, type StrategyFeature } from "./strategy.js";

/**
 * The one place that says how far and how long a vehicle drives from one node to the next, and
 * when service may start at a node (CompiledProblem.travel). Without travel rules each is the
 * arithmetic of before (distanceBetween, distance / speed, the one window), to the bit.
 */

/** Distance of vehicle v from i to j: its profile's matrix, else the request's. */
export function legDistance(p: CompiledProblem, v: number, i: number, j: number): number {
  const own = p.travel ? p.travel.distance[v] : null;
  return own ? own[i * p.nodeCount + j]! : distanceBetween(p, i, j);
}

/** Travel minutes of vehicle v from i to j: its duration matrix, else its distance / its speed. */
export function legMinutes(p: CompiledProblem, v: number, i: number, j: number): number {
  const own = p.travel ? p.travel.duration[v] : null;
  return own ? own[i * p.nodeCount + j]! : legDistance(p, v, i, j) / p.time!.speed[v]!;
}

/**
 * When vehicle v, leaving i at `depart`, reaches j: `depart` plus its travel minutes, or under
 * traffic (core/traffic.ts) those minutes driven at each slot's pace.
 */
export function legArrival(p: CompiledProblem, v: number, i: number, j: number, depart: number): number {
  const traffic = p.travel?.traffic;
  return traffic ? arrivalAfter(traffic, depart, legMinutes(p, v, i, j)) : depart + legMinutes(p, v, i, j);
}

/** The latest departure from i that reaches j by `arrive` (legArrival's inverse). */
export function legDeparture(p: CompiledProblem, v: number, i: number, j: number, arrive: number): number {
  const traffic = p.travel?.traffic;
  return traffic ? latestDepartureFor(traffic, arrive, legMinutes(p, v, i, j)) : arrive - legMinutes(p, v, i, j);
}

/** Whether vehicle v drives back to its end node (false: an open route ending at its last stop). */
export function returnsToEnd(p: CompiledProblem, v: number): boolean {
  return !p.travel || p.travel.returnToEnd[v] === 1;
}

/**
 * A computed arrival within this of a window's end is in that window: floating-point dust of the
 * sums that reach it (a departure delayed to meet a window exactly), as lateness below it is none.
 */
export const WINDOW_END_EPS = 1e-7;

/**
 * When service starts at `node` for a vehicle arriving at `arrive`: in the earliest window whose
 * end it can reach (waiting for its start), else on arrival, late (lateAt) by the time past the
 * last window's end. It never decreases when the arrival is later, which lets a route's stored
 * schedule price the part of a candidate after the stops that moved (search/route-schedules.ts).
 */
export function serviceBegin(p: CompiledProblem, node: number, arrive: number): number {
  const set = p.travel ? p.travel.windowSets[node] : null;
  if (!set) {
    const open = p.time!.twStartMin[node]!;
    return arrive > open ? arrive : open;
  }
  for (let k = 0; k < set.length; k += 2) {
    if (arrive <= set[k + 1]! + WINDOW_END_EPS) return arrive > set[k]! ? arrive : set[k]!;
  }
  return arrive;
}

/** How late a service that starts at `begin` (serviceBegin's) is: 0 within a window. */
export function lateAt(p: CompiledProblem, node: number, begin: number): number {
  const set = p.travel ? p.travel.windowSets[node] : null;
  if (!set) return Math.max(0, begin - p.time!.twEndMin[node]!);
  const last = set[set.length - 1]!;
  return begin > last + WINDOW_END_EPS ? begin - last : 0;
}

/** The end of the window service at `node` starts in when it starts at `begin` (the v1 window's end without several). */
export function windowEndAt(p: CompiledProblem, node: number, begin: number): number {
  const set = p.travel ? p.travel.windowSets[node] : null;
  if (!set) return p.time!.twEndMin[node]!;
  for (let k = 0; k < set.length; k += 2) if (begin <= set[k + 1]! + WINDOW_END_EPS) return set[k + 1]!;
  return set[set.length - 1]!;
}

type TravelFeature = (typeof TRAVEL_FEATURES)[number];

/** The travel features a compiled problem uses (none without travel rules). */
export function travelFeatures(p: CompiledProblem): TravelFeature[] {
  const tr = p.travel;
  if (!tr) return [];
  const found: TravelFeature[] = [];
  // A vehicle on a duration matrix that is not its profile's: the request's own duration_matrix.
  if (tr.duration.some((d, v) => d !== null && tr.profile[v] === null)) found.push("duration_matrix");
  if (tr.profile.some((name) => name !== null)) found.push("profiles");
  if (tr.distance.some((d) => d !== null)) found.push("profile_distances");
  if (tr.timeCostPerMin.some((c) => c > 0)) found.push("time_costs");
  if (tr.returnToEnd.some((back) => back === 0)) found.push("open_routes");
  if (tr.windowSets.some((set) => set !== null && set.length > 2)) found.push("several_windows");
  if (hasBreaks(p)) found.push("breaks");
  if (tr.traffic) found.push("traffic");
  return found;
}

/** The refusal of a strategy for a problem using travel features it does not claim; null when it claims them all. */
export function travelRefusal(p: CompiledProblem, strategy: string, claimed: readonly StrategyFeature[]): string | null {
  const missing = travelFeatures(p).filter((f) => !claimed.includes(f));
  if (missing.length === 0) return null;
  return `the ${strategy} strategy does not honour ${missing.join(", ")} yet; the exact strategy does on tiny problems`;
}

/**
 * Travel minutes of vehicle v from i to j with the request's distances given by `distance` (the
 * API's pre-check compiles without a matrix): its duration matrix, else its own or the request's
 * distance over its speed.
 */
export function legMinutesWith(p: CompiledProblem, v: number, i: number, j: number, distance: (i: number, j: number) => number): number {
  const tr = p.travel;
  const own = tr ? tr.duration[v] : null;
  if (own) return own[i * p.nodeCount + j]!;
  return legDistanceWith(p, v, i, j, distance) / p.time!.speed[v]!;
}

/** Distance of vehicle v from i to j with the request's distances given by `distance`. */
export function legDistanceWith(p: CompiledProblem, v: number, i: number, j: number, distance: (i: number, j: number) => number): number {
  const own = p.travel ? p.travel.distance[v] : null;
  return own ? own[i * p.nodeCount + j]! : distance(i, j);
}

/** What sets a vehicle's travel apart from another's (its network and whether it returns), for grouping vehicles. */
export function travelKey(p: CompiledProblem, v: number): string {
  const tr = p.travel;
  return tr ? `,${tr.profile[v] ?? ""},${tr.returnToEnd[v]}` : "";
}
