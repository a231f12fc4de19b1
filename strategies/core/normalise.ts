import { hasDenseMatrix, type CompiledProblem, type TimeBlock } from "./problem.js";

/**
 * The searches compare costs, loads and minutes against small absolute tolerances (a move must
 * gain more than 1e-7 to count, a load may exceed capacity by 1e-9): right for numbers of the
 * size of the benchmarks, wrong far from it. With every distance x 100,000 rounding noise in a
 * move's price exceeds the tolerance and the local search cycles on moves that gain nothing
 * (a small fraction of the usual iterations in the same time); with every distance x 0.001 real
 * gains fall below it. So a problem whose numbers lie outside the range the searches are made
 * for is solved in other units: distances (and fixed costs), minutes and demands are each
 * multiplied by a power of two (exact in floating point: every sum and product scales without
 * a new rounding), which changes no route's feasibility nor the order of any two solutions'
 * costs. Routes found on the rescaled problem are the answer to the original one.
 */

/** Largest distance, time value and capacity the searches work on as they are: [2^0, 2^17] (1 to 131,072). */
const LOW = 1;
const HIGH = 2 ** 17;
/** What a number outside that range is brought to: about 1,000 (the X instances' scale). */
const TARGET = 1000;

/** 1, or the power of two that brings `largest` to about TARGET when it is outside [LOW, HIGH]. */
function factorFor(largest: number): number {
  if (!(largest > 0) || !Number.isFinite(largest) || (largest >= LOW && largest <= HIGH)) return 1;
  return 2 ** Math.round(Math.log2(TARGET / largest));
}

function largestDistance(p: CompiledProblem): number {
  let max = 0;
  if (hasDenseMatrix(p)) {
    for (let i = 0; i < p.dist.length; i++) if (p.dist[i]! > max) max = p.dist[i]!;
    return max;
  }
  const c = p.coords;
  if (!c) return 0;
  for (let i = 0; i < c.length; i++) max = Math.max(max, Math.abs(c[i]!));
  return 2 * max;
}

function largestTime(t: TimeBlock): number {
  let max = Number.isFinite(t.maxRouteMin) ? t.maxRouteMin : 0;
  for (let i = 0; i < t.twEndMin.length; i++) {
    if (Number.isFinite(t.twEndMin[i]!)) max = Math.max(max, t.twEndMin[i]!);
    max = Math.max(max, t.serviceMin[i]!);
  }
  return max;
}

const times = (a: Float64Array, f: number) => (f === 1 ? a : a.map((x) => x * f));

/** The problem in units where the searches' tolerances fit (the same object when it already fits). */
export function normaliseScale(p: CompiledProblem): CompiledProblem {
  // Travel rules bring matrices, window sets and breaks of their own: solved in the request's units.
  if (p.travel) return p;
  const s = factorFor(largestDistance(p));
  let maxCapacity = 0;
  for (let v = 0; v < p.vehicleCount; v++) if (Number.isFinite(p.capacity[v]!)) maxCapacity = Math.max(maxCapacity, p.capacity[v]!);
  const q = factorFor(maxCapacity);
  const t = p.time ? factorFor(largestTime(p.time)) : 1;
  if (s === 1 && q === 1 && t === 1) return p;
  const time: TimeBlock | null = p.time && {
    twStartMin: times(p.time.twStartMin, t),
    twEndMin: times(p.time.twEndMin, t),
    serviceMin: times(p.time.serviceMin, t),
    // Travel minutes = distance / speed: scaled by t when distances are scaled by s.
    speed: times(p.time.speed, s / t),
    maxRouteMin: p.time.maxRouteMin * t,
    // A late minute's price in cost units, costs being scaled by s and minutes by t.
    latePenaltyPerMin: p.time.latePenaltyPerMin * (s / t),
  };
  return {
    ...p,
    dist: times(p.dist, s),
    coords: p.coords && times(p.coords, s),
    fixedCost: times(p.fixedCost, s),
    demand: times(p.demand, q),
    capacity: times(p.capacity, q),
    time,
    // Release times are minutes (x t).
    ...(p.trips?.release ? { trips: { ...p.trips, release: times(p.trips.release, t) } } : {}),
    // Skip penalties are costs and caps distances (x s); shifts and working hours minutes (x t).
    ...(p.rules
      ? {
          rules: {
            ...p.rules,
            skipPenalty: times(p.rules.skipPenalty, s),
            maxDistance: times(p.rules.maxDistance, s),
            shiftStartMin: times(p.rules.shiftStartMin, t),
            shiftEndMin: times(p.rules.shiftEndMin, t),
            maxDurationMin: times(p.rules.maxDurationMin, t),
          },
        }
      : {}),
  };
}
