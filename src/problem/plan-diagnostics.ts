import type { components } from "../../generated/api.js";
import { departureOpen } from "../../strategies/core/evaluate-rules.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";
import type { Distance } from "./service-diagnostics.js";

type Infeasibility = components["schemas"]["Infeasibility"];

const EPS = 1e-9;

/**
 * The pre-check's proofs for locked stops (vehicle_locked_stops): a vehicle's locked head alone
 * already carries more than its capacity, or reaches a locked stop after its hard window closes
 * even leaving as early as it may. Whatever else the route serves comes after the head, so no
 * plan can keep the locks; locked stops are always served, so these fail the task.
 */
export function lockedStopReasons(p: CompiledProblem, distance: Distance): Infeasibility[] {
  const locks = p.locks;
  if (!locks) return [];
  const found: Infeasibility[] = [];
  locks.stops.forEach((head, v) => {
    if (head.length === 0) return;
    const vehicle = `Vehicle ${v}`;
    // Several trips: a reload stop in the head empties the vehicle, so the largest trip is what must fit.
    let demand = 0;
    let trip = 0;
    for (const c of head) {
      trip = p.isDepot[c] ? 0 : trip + p.demand[c]!;
      demand = Math.max(demand, trip);
    }
    if (demand > p.capacity[v]! + EPS) {
      const excess = withoutDust(demand - p.capacity[v]!);
      found.push({
        kind: "locked_stops_infeasible",
        message:
          `vehicle ${v}'s ${head.length} locked stop(s) need ${evidenceNumber(withoutDust(demand))} against its capacity ` +
          `${evidenceNumber(p.capacity[v]!)}, ${evidenceNumber(excess)} over`,
        evidence: { vehicle, locked_stops: head.length, demand: withoutDust(demand), excess },
      });
    }
    const late = firstLateStop(p, v, head, distance);
    if (late)
      found.push({
        kind: "locked_stops_infeasible",
        message:
          `vehicle ${v} reaches its locked stop ${late.node} at ${evidenceNumber(late.arrival)} at the earliest, ` +
          `${evidenceNumber(late.lateBy)} min after its time window closes at ${evidenceNumber(late.windowEnd)}`,
        node: late.node,
        evidence: { vehicle, locked_stops: head.length, earliest_arrival: late.arrival, window_end: late.windowEnd, late_by: late.lateBy },
      });
  });
  return found;
}

/** Under hard windows: the first locked stop reached after its window closes, leaving at once. */
function firstLateStop(
  p: CompiledProblem,
  v: number,
  head: Int32Array,
  distance: Distance,
): { node: number; arrival: number; windowEnd: number; lateBy: number } | null {
  const t = p.time;
  if (!t || t.latePenaltyPerMin > 0) return null;
  let clock = departureOpen(p, v);
  let prev = p.startNode[v]!;
  for (const c of head) {
    const arrival = clock + distance(prev, c) / t.speed[v]!;
    if (arrival > t.twEndMin[c]! + EPS) {
      return { node: c, arrival: withoutDust(arrival), windowEnd: t.twEndMin[c]!, lateBy: withoutDust(arrival - t.twEndMin[c]!) };
    }
    clock = Math.max(arrival, t.twStartMin[c]!) + t.serviceMin[c]!;
    prev = c;
  }
  return null;
}
