import type { Budget } from "../core/budget.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import { travelFeatures } from "../core/travel.js";
import type { TrafficSlots } from "../core/traffic.js";

/** Share of the budget that searches the problem at the day's mean pace before the search under traffic. */
const MEAN_PACE_SHARE = 0.3;

/**
 * The day's mean factor of the slots over [from, to]: the pace a planner on mean speeds assumes.
 * An endless horizon ends at the last slot's start (its pace counts for nothing then).
 */
function meanFactor(slots: TrafficSlots, from: number, to: number): number {
  const last = slots.start[slots.start.length - 1]!;
  const end = Number.isFinite(to) ? to : last;
  if (!(end > from)) return slots.factor[slots.start.length - 1]!;
  let sum = 0;
  for (let k = 0; k < slots.start.length; k++) {
    const lo = Math.max(from, k === 0 ? Number.NEGATIVE_INFINITY : slots.start[k]!);
    const hi = Math.min(end, k + 1 < slots.start.length ? slots.start[k + 1]! : Number.POSITIVE_INFINITY);
    if (hi > lo) sum += (hi - lo) * slots.factor[k]!;
  }
  return sum / (end - from);
}

/**
 * The problem as a planner on mean speeds sees it: traffic the only travel rule, dropped, and
 * every vehicle driving at the day's mean pace over its depots' opening hours. Null when the
 * problem has other travel rules, which the mean pace would not remove from the general search.
 */
export function meanPaceProblem(p: CompiledProblem): CompiledProblem | null {
  const traffic = p.travel?.traffic;
  const time = p.time;
  if (!traffic || !time) return null;
  const features = travelFeatures(p);
  if (features.length !== 1) return null;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (let v = 0; v < p.vehicleCount; v++) {
    from = Math.min(from, time.twStartMin[p.startNode[v]!]!);
    to = Math.max(to, time.twEndMin[p.endNode[v]!]!);
  }
  const factor = meanFactor(traffic, Math.max(0, from), to);
  return { ...p, travel: null, time: { ...time, speed: time.speed.map((s) => s / factor) } };
}

/**
 * Under traffic the general search prices each candidate by walking its route through the slots,
 * so it runs fewer iterations than the textbook search on the same customers. A plan found first
 * at the mean pace, by that faster search, is a start whose shape is already good; the search
 * under traffic then repairs its timing and goes on from there.
 */
export function meanPaceStart(
  p: CompiledProblem,
  budget: Budget,
  solve: (q: CompiledProblem, b: Budget) => Solution,
): Solution | undefined {
  const meanPace = meanPaceProblem(p);
  if (!meanPace) return undefined;
  const phase = budget.phase(MEAN_PACE_SHARE);
  const found = solve(meanPace, phase);
  budget.spent(phase);
  return found;
}
