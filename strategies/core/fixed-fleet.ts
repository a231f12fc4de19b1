import type { CompiledProblem, Solution } from "./problem.js";

/** A problem on some of the vehicles, and the way back to the whole fleet's routes. */
export interface FixedFleet {
  problem: CompiledProblem;
  /** Routes on the kept vehicles, in the original problem's vehicle numbering. */
  widen(routes: Solution): Solution;
  /** Routes of the whole fleet on the kept vehicles (the others must be empty). */
  narrow(routes: Solution): Solution;
}

/**
 * The problem with only `kept` vehicles (the others made unavailable), so that a search after
 * the route elimination keeps the fleet size it reached. Only where a vehicle is described by
 * the base arrays alone: with rules, loads, travel, trips, locks or reassignment null (their
 * per-vehicle tables stay whole), and the caller then searches the whole fleet.
 */
export function fixedFleet(p: CompiledProblem, kept: readonly number[]): FixedFleet | null {
  if (p.rules || p.loads || p.travel || p.trips || p.locks || p.reassignment) return null;
  const pick = (a: Float64Array) => Float64Array.from(kept, (v) => a[v]!);
  const problem: CompiledProblem = {
    ...p,
    vehicleCount: kept.length,
    capacity: pick(p.capacity),
    fixedCost: pick(p.fixedCost),
    unitCost: pick(p.unitCost),
    startNode: Int32Array.from(kept, (v) => p.startNode[v]!),
    endNode: Int32Array.from(kept, (v) => p.endNode[v]!),
    time: p.time ? { ...p.time, speed: pick(p.time.speed) } : null,
  };
  return {
    problem,
    widen(s) {
      const routes = Array.from({ length: p.vehicleCount }, () => [] as number[]);
      kept.forEach((v, i) => (routes[v] = (s.routes[i] ?? []).slice()));
      return { routes };
    },
    narrow(s) {
      return { routes: kept.map((v) => (s.routes[v] ?? []).slice()) };
    },
  };
}
