import type { ProblemData } from "./problem-data.js";
import { TimeSegment } from "./time-segment.js";

/**
 * The trip part of the route model (routes.ts) for problems with reload stops or release times
 * (CompiledProblem.trips; the search sees reload stops as copies of the reload node, see
 * trip-copies.ts). A reload visit is a load reset: the route's load excess is the sum of its trips'
 * excesses over the vehicle's capacity. Under hard windows it is also where a trip's release is
 * settled: each trip's depot visit (the start node, or the reload stop before it) opens no earlier
 * than the largest release time of the trip's customers, so the route's time segment
 * (time-segment.ts) is the concatenation of visits whose depot windows carry those releases. Both
 * are walks over the candidate, O(its length): exact, and the same arithmetic for a move's price
 * and the route it commits. The moves' O(1) bounds stay lower bounds because the problem data
 * gives reloading vehicles no capacity bound (problem-data.ts).
 */
export class RouteTrips {
  /** Per node: 1 for a reload copy (a trip ends there). */
  readonly isReset: Uint8Array;
  /** Per node: the vehicle a reload copy belongs to, -1 for every other node. */
  readonly ownerOf: Int32Array;
  /** Per vehicle: its real capacity, which each trip must keep. */
  private readonly capacity: Float64Array;
  private readonly release: Float64Array | null;
  /** Whether any vehicle reloads (otherwise loads are priced as before: release times alone). */
  readonly reloads: boolean;
  /** Hard windows: the time segments below price the route's time; otherwise routes.ts prices time as before. */
  readonly timed: boolean;
  private readonly relAt: Float64Array;
  private readonly seg = new TimeSegment();

  constructor(
    readonly m: ProblemData,
    slots: number,
  ) {
    const trips = m.p.trips!;
    this.isReset = new Uint8Array(m.nodeCount);
    this.ownerOf = new Int32Array(m.nodeCount).fill(-1);
    trips.reloadNodes.forEach((nodes, v) => {
      for (const c of nodes) {
        this.isReset[c] = 1;
        this.ownerOf[c] = v;
      }
    });
    this.reloads = trips.reloadNodes.some((nodes) => nodes.length > 0);
    this.capacity = m.p.capacity;
    this.release = trips.release;
    this.timed = m.twStart !== null && m.latePenalty === 0;
    this.relAt = new Float64Array(slots + 1);
  }

  /** Load above capacity, summed over the trips of vehicle v serving list[from..to]. */
  excess(v: number, list: ArrayLike<number>, from: number, to: number): number {
    const cap = this.capacity[v]!;
    const demand = this.m.demand;
    let trip = 0;
    let excess = 0;
    for (let k = from; k <= to; k++) {
      const c = list[k]!;
      if (this.isReset[c]) {
        if (trip > cap) excess += trip - cap;
        trip = 0;
      } else trip += demand[c]!;
    }
    return trip > cap ? excess + trip - cap : excess;
  }

  /**
   * Time segment of vehicle v driving list[from..to] from its start to its end node (hard
   * windows): every depot visit opens at the latest of its window's start and its trip's release;
   * one that cannot open before its window closes departs late, the difference counted as time
   * warp (the evaluator's lateness there).
   */
  segment(v: number, list: ArrayLike<number>, from: number, to: number): TimeSegment {
    const m = this.m;
    const n = m.nodeCount;
    const d = m.dist;
    const twS = m.twStart!;
    const twE = m.twEnd!;
    const speed = m.speed[v]!;
    const rel = this.relAt;
    // Backwards: the release of the trip that leaves each reload stop, and at `to + 1` the first trip's.
    let latest = Number.NEGATIVE_INFINITY;
    if (this.release) {
      for (let k = to; k >= from; k--) {
        const c = list[k]!;
        if (this.isReset[c]) {
          rel[k - from] = latest;
          latest = Number.NEGATIVE_INFINITY;
        } else if (this.release[c]! > latest) latest = this.release[c]!;
      }
    }
    const start = m.start[v]!;
    const seg = this.depot(start, Math.max(m.departOpen![v]!, latest), twE[start]!);
    let prev = start;
    for (let k = from; k <= to; k++) {
      const c = list[k]!;
      const travel = d[prev * n + c]! / speed;
      if (this.isReset[c]) {
        const open = this.release && rel[k - from]! > twS[c]! ? rel[k - from]! : twS[c]!;
        const close = twE[c]!;
        if (open <= close) seg.append(travel, 0, 0, open, close, c);
        else seg.append(travel, 0, open - close, open, open, c);
      } else seg.append(travel, m.service[c]!, 0, twS[c]!, twE[c]!, c);
      prev = c;
    }
    const end = m.end[v]!;
    return seg.append(d[prev * n + end]! / speed, 0, 0, Number.NEGATIVE_INFINITY, m.arriveClose![v]!, end);
  }

  /** The start node's visit: departure in [open, close], or at `open` with the excess as time warp. */
  private depot(node: number, open: number, close: number): TimeSegment {
    if (open <= close) return this.seg.setNode(node, open, close, 0);
    return this.seg.set(0, open - close, open, open, node, node);
  }
}
