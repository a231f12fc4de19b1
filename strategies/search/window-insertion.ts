import { distanceBetween, hasDenseMatrix, type CompiledProblem } from "../core/problem.js";
import { TimeSegment } from "./time-segment.js";

/** Time warp below this is none, as the evaluator rounds lateness (core/schedule.ts). */
const NO_WARP = 1e-7;

/** Prefix and suffix segments reused from call to call (the search is single-threaded), grown on demand. */
const prefix: TimeSegment[] = [];
const suffix: TimeSegment[] = [];
const one = new TimeSegment();
const mid = new TimeSegment();
const trial = new TimeSegment();

/**
 * Whether a route's feasibility is its load and its hard windows alone (with the duration cap):
 * the time dimension with hard windows and none of the rules, loads, travel, trips, locks or
 * reassignment, on a dense matrix. There the time segments price every insertion in O(1).
 */
export function windowsOnly(p: CompiledProblem): boolean {
  return (
    p.time !== null &&
    p.time.latePenaltyPerMin <= 0 &&
    !p.rules &&
    !p.loads &&
    !p.travel &&
    !p.trips &&
    !p.locks &&
    !p.reassignment &&
    hasDenseMatrix(p)
  );
}

/**
 * The cheapest position of `c` in `route` (customers only) on vehicle v that keeps the windows
 * and the duration cap, and the route's cost then (fixed + unit x distance), or null: prefix and
 * suffix time segments of the route, each position priced in O(1), so O(route length) in all.
 * The load is the caller's to check. Only where `windowsOnly(p)`.
 */
export function cheapestWindowPosition(
  p: CompiledProblem,
  v: number,
  route: readonly number[],
  c: number,
): { position: number; cost: number } | null {
  const t = p.time!;
  const speed = t.speed[v]!;
  const start = p.startNode[v]!;
  const end = p.endNode[v]!;
  const m = route.length + 2;
  while (prefix.length < m) {
    prefix.push(new TimeSegment());
    suffix.push(new TimeSegment());
  }
  const at = (k: number) => (k === 0 ? start : k === m - 1 ? end : route[k - 1]!);
  const visit = (node: number, into: TimeSegment) =>
    into.setNode(node, t.twStartMin[node]!, t.twEndMin[node]!, node === start || node === end ? 0 : t.serviceMin[node]!);
  let distance = 0;
  visit(start, prefix[0]!);
  for (let k = 1; k < m; k++) {
    const s = prefix[k]!.set(
      prefix[k - 1]!.duration,
      prefix[k - 1]!.timeWarp,
      prefix[k - 1]!.earliest,
      prefix[k - 1]!.latest,
      start,
      at(k - 1),
    );
    visit(at(k), one);
    s.append(distanceBetween(p, at(k - 1), at(k)) / speed, one.duration, one.timeWarp, one.earliest, one.latest, at(k));
    distance += distanceBetween(p, at(k - 1), at(k));
  }
  visit(end, suffix[m - 1]!);
  for (let k = m - 2; k >= 0; k--) {
    const after = suffix[k + 1]!;
    visit(at(k), suffix[k]!).append(
      distanceBetween(p, at(k), at(k + 1)) / speed,
      after.duration,
      after.timeWarp,
      after.earliest,
      after.latest,
      end,
    );
  }
  const cap = t.maxRouteMin;
  visit(c, mid);
  let best: { position: number; cost: number } | null = null;
  for (let k = 0; k < m - 1; k++) {
    const before = prefix[k]!;
    const after = suffix[k + 1]!;
    trial.set(before.duration, before.timeWarp, before.earliest, before.latest, start, at(k));
    trial.append(distanceBetween(p, at(k), c) / speed, mid.duration, mid.timeWarp, mid.earliest, mid.latest, c);
    trial.append(distanceBetween(p, c, at(k + 1)) / speed, after.duration, after.timeWarp, after.earliest, after.latest, end);
    if (trial.timeWarp >= NO_WARP || trial.duration > cap + 1e-9) continue;
    const added = distanceBetween(p, at(k), c) + distanceBetween(p, c, at(k + 1)) - distanceBetween(p, at(k), at(k + 1));
    const cost = p.fixedCost[v]! + p.unitCost[v]! * (distance + added);
    if (!best || cost < best.cost) best = { position: k, cost };
  }
  return best;
}
