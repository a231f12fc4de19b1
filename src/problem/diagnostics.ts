import type { CompiledProblem } from "../../strategies/core/problem.js";

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

/**
 * Reasons, in English, why no feasible solution can exist, where they can be told cheaply and
 * for sure. An empty list does not prove feasibility; it only means none of these applies.
 */
export function infeasibilityReasons(p: CompiledProblem): string[] {
  const reasons: string[] = [];
  const n = p.nodeCount;
  let maxCapacity = 0;
  let totalCapacity = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    maxCapacity = Math.max(maxCapacity, p.capacity[v]!);
    totalCapacity += p.capacity[v]!;
  }
  let totalDemand = 0;
  for (const c of p.customers) {
    totalDemand += p.demand[c]!;
    if (p.demand[c]! > maxCapacity + 1e-9) reasons.push(`node ${c} demand ${fmt(p.demand[c]!)} exceeds the largest vehicle capacity ${fmt(maxCapacity)}`);
  }
  if (totalDemand > totalCapacity + 1e-9) reasons.push(`total demand ${fmt(totalDemand)} exceeds the total capacity of all vehicles ${fmt(totalCapacity)}`);

  const t = p.time;
  if (t) {
    const hard = t.latePenaltyPerMin <= 0;
    for (const c of p.customers) {
      let reachable = false;
      let withinHours = false;
      for (let v = 0; v < p.vehicleCount; v++) {
        const s = p.startNode[v]!;
        const e = p.endNode[v]!;
        const arrive = t.twStartMin[s]! + p.dist[s * n + c]! / t.speed[v]!;
        const begin = Math.max(arrive, t.twStartMin[c]!);
        const back = begin + t.serviceMin[c]! + p.dist[c * n + e]! / t.speed[v]!;
        if (begin <= t.twEndMin[c]! + 1e-9 && back <= t.twEndMin[e]! + 1e-9) reachable = true;
        const shortestTrip = p.dist[s * n + c]! / t.speed[v]! + t.serviceMin[c]! + p.dist[c * n + e]! / t.speed[v]!;
        if (shortestTrip <= t.maxRouteMin + 1e-9) withinHours = true;
      }
      if (hard && !reachable) reasons.push(`node ${c} cannot be served within its time window [${fmt(t.twStartMin[c]!)}, ${fmt(t.twEndMin[c]!)}] by any vehicle (or not with a return to the end depot in time)`);
      if (!withinHours) reasons.push(`node ${c}: max_working_hours (${fmt(t.maxRouteMin / 60)} h) is shorter than any vehicle's round trip to it`);
    }
  }
  return reasons;
}
