import { evaluateRoute } from "../core/evaluator.js";
import type { Balance } from "../core/problem.js";
import type { Pieces } from "./pieces.js";
import { piecesDistance, writePieces, type PieceSource } from "./piece-walks.js";
import type { ProblemData } from "./problem-data.js";
import type { RouteSchedules } from "./route-schedules.js";
import type { RouteTimes } from "./route-times.js";

/** The parts of the route model (routes.ts) a workload is read from. */
export interface BalanceSource extends PieceSource {
  readonly length: Int32Array;
  readonly duration: Float64Array;
  readonly times: RouteTimes | null;
  readonly schedules: RouteSchedules | null;
}

/**
 * The balance term (balance) in the route model: each route's workload, and the three largest
 * kept so that a move rewriting routes u and v prices the new largest workload in O(1): the
 * largest of the routes it leaves alone is the first of those three that is neither u nor v.
 * A candidate's workload is its customers, its distance, or its working minutes from the same
 * time segments or schedules that price its windows (the evaluator's where neither computes them).
 */
export class RouteBalance {
  readonly workload: Float64Array;
  readonly costPerUnit: number;
  private readonly measure: Balance["measure"];
  /** The routes of the three largest workloads (-1: fewer routes), valid unless `stale`. */
  private readonly top = new Int32Array(3);
  private stale = true;
  private readonly buffer: Int32Array;

  constructor(
    private readonly m: ProblemData,
    private readonly rs: BalanceSource,
    b: Balance,
  ) {
    this.workload = new Float64Array(m.routes);
    this.costPerUnit = b.costPerUnit;
    this.measure = b.measure;
    this.buffer = new Int32Array(m.customers.length + 2);
  }

  /** Route r now serves seq[1..count], its time figures already stored: keeps its workload. */
  setRoute(r: number, seq: Int32Array, count: number): void {
    const rs = this.rs;
    let w = 0;
    if (count > 0 && this.measure === "stops") w = count;
    else if (count > 0 && this.measure === "distance") w = rs.fwd[r]![count + 1]!;
    else if (count > 0) w = this.storedDurations() ? rs.duration[r]! : evaluateRoute(this.m.p, r, seq.subarray(1, count + 1)).durationMin;
    this.workload[r] = w;
    this.stale = true;
  }

  /** The balance term now: the price of the largest workload. */
  term(): number {
    return this.costPerUnit * this.largestExcept(-1, -1);
  }

  /** The largest workload of the routes other than u and v (-1: none excluded); 0 when none is left. */
  largestExcept(u: number, v: number): number {
    if (this.stale) this.rank();
    const top = this.top;
    for (let k = 0; k < 3; k++) {
      const r = top[k]!;
      if (r < 0) return 0;
      if (r !== u && r !== v) return this.workload[r]!;
    }
    return 0;
  }

  /** The change of the term when routes u and v get workloads wu and wv (v = -1: u alone). */
  delta(u: number, wu: number, v: number, wv: number): number {
    const largest = this.largestExcept(-1, -1);
    const others = this.largestExcept(u, v);
    return this.costPerUnit * (Math.max(others, wu, wv) - largest);
  }

  /**
   * A lower bound of `delta` for candidates of which only the counts and distances are known:
   * exact for stops and distance; for working minutes, the routes the move leaves alone.
   */
  boundDelta(u: number, countU: number, distU: number, v: number, countV: number, distV: number): number {
    if (this.measure === "stops") return this.delta(u, countU, v, countV);
    if (this.measure === "distance") return this.delta(u, countU > 0 ? distU : 0, v, countV > 0 ? distV : 0);
    return this.delta(u, 0, v, 0);
  }

  /** The workload of vehicle v driving `pieces`. */
  workloadOf(v: number, pieces: Pieces): number {
    if (pieces.size === 0) return 0;
    const rs = this.rs;
    if (this.measure === "stops") return pieces.size;
    if (this.measure === "distance") return piecesDistance(rs, v, pieces);
    if (rs.times) return rs.times.segmentOf(v, pieces, rs.seq, rs.length).duration;
    if (rs.schedules?.durations) {
      rs.schedules.walk(v, pieces, rs.seq, rs.length);
      return rs.schedules.duration;
    }
    const count = writePieces(rs, pieces, this.buffer);
    return evaluateRoute(this.m.p, v, this.buffer, count).durationMin;
  }

  /** The workload of vehicle v driving customers[0..count) (distance: the caller's, on v's matrix). */
  workloadOfList(v: number, customers: ArrayLike<number>, count: number, distance: number): number {
    if (count === 0) return 0;
    const rs = this.rs;
    if (this.measure === "stops") return count;
    if (this.measure === "distance") return distance;
    if (rs.times) return rs.times.listSegment(v, customers, count).duration;
    if (rs.schedules?.durations) {
      rs.schedules.walkList(v, customers, count);
      return rs.schedules.duration;
    }
    return evaluateRoute(this.m.p, v, customers, count).durationMin;
  }

  /** Whether the route model stores each route's working minutes (time segments, or schedules that compute them). */
  private storedDurations(): boolean {
    return this.rs.times !== null || (this.rs.schedules?.durations ?? false);
  }

  private rank(): void {
    const top = this.top.fill(-1);
    const w = this.workload;
    for (let r = 0; r < w.length; r++) {
      const x = w[r]!;
      if (top[0]! < 0 || x > w[top[0]!]!) {
        top[2] = top[1]!;
        top[1] = top[0]!;
        top[0] = r;
      } else if (top[1]! < 0 || x > w[top[1]!]!) {
        top[2] = top[1]!;
        top[1] = r;
      } else if (top[2]! < 0 || x > w[top[2]!]!) top[2] = r;
    }
    this.stale = false;
  }
}
