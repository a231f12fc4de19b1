import { timePenalty, type Penalties } from "./model.js";
import { TimeSegment } from "./time.js";
import type { TextbookTimes } from "./textbook-times.js";

/**
 * Exact time-window price of inserting one customer into a textbook route (Vidal et al. 2013):
 * the route's prefix time segment up to the insertion point, the customer, and the suffix from
 * the next position concatenate in O(1) (time.ts), so a greedy recreate under binding windows
 * prices every position with its true time warp and working-hours excess, not just its detour.
 */
export class WindowInsertion {
  private readonly seg = new TimeSegment();

  constructor(private readonly times: TextbookTimes) {}

  /** Time penalty of route r (sequence `seq`, end depot at `end`) with customer c inserted after position j. */
  penalty(r: number, seq: Int32Array, end: number, j: number, c: number, pen: Penalties): number {
    const t = this.times;
    const m = t.m;
    const w = m.windows!;
    const n = m.nodeCount;
    const a = seq[j]!;
    const b = seq[j + 1]!;
    const seg = this.seg.set(t.preDur[r]![j]!, t.preWarp[r]![j]!, t.preEarly[r]![j]!, t.preLate[r]![j]!, seq[0]!, a);
    seg.append(m.dist[a * n + c]! / m.speed, m.service[c]!, 0, w.start[c]!, w.end[c]!, c);
    seg.append(m.dist[c * n + b]! / m.speed, t.sufDur[r]![j + 1]!, t.sufWarp[r]![j + 1]!, t.sufEarly[r]![j + 1]!, t.sufLate[r]![j + 1]!, seq[end]!);
    return timePenalty(m, pen, seg);
  }
}
