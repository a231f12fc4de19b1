import { evaluateRoute } from "../core/evaluator.js";
import type { FleetModel } from "./fleet-model.js";
import type { Penalties } from "./model.js";
import type { Pieces } from "./pieces.js";
import { TimeSegment } from "./time.js";

/**
 * The routes of the general search, one per vehicle, with what prices a candidate route in about
 * O(pieces): per route prefix sums of distance (both directions) and load, and prefix and suffix
 * time segments (Vidal et al. 2013) of its customers driven at its vehicle's speed. A candidate
 * route is a vehicle plus pieces (pieces.ts); its start and end nodes, capacity, costs and speed
 * are that vehicle's, which is what makes moves between mixed vehicles and depots exact.
 * Soft windows (lateness delays the rest of the route) are priced by simulating the candidate
 * with the shared evaluator: exact, O(route length).
 */
export class RouteSet {
  readonly seq: Int32Array[];
  readonly length: Int32Array;
  readonly fwd: Float64Array[];
  readonly bwd: Float64Array[];
  readonly load: Float64Array[];
  private readonly preDur: Float64Array[];
  private readonly preWarp: Float64Array[];
  private readonly preEarly: Float64Array[];
  private readonly preLate: Float64Array[];
  private readonly sufDur: Float64Array[];
  private readonly sufWarp: Float64Array[];
  private readonly sufEarly: Float64Array[];
  private readonly sufLate: Float64Array[];
  /** Penalised cost per route under `penalties`. */
  readonly cost: Float64Array;
  /** Objective per route: fixed + unit x distance, plus the soft-window lateness penalty. */
  readonly objective: Float64Array;
  readonly loadExcess: Float64Array;
  readonly timeWarp: Float64Array;
  readonly durationExcess: Float64Array;
  readonly routeOf: Int32Array;
  readonly pos: Int32Array;
  readonly modifiedAt: Float64Array;
  clock = 0;
  penalties: Penalties = { load: 1, duration: 1, timeWarp: 1 };
  private readonly seg = new TimeSegment();
  private readonly tail = new TimeSegment();
  private readonly buffer: Int32Array;
  private readonly hardTime: boolean;

  constructor(readonly m: FleetModel) {
    const slots = m.customers.length + 2;
    const make = <T>(f: () => T): T[] => Array.from({ length: m.routes }, f);
    this.seq = make(() => new Int32Array(slots));
    this.fwd = make(() => new Float64Array(slots));
    this.bwd = make(() => new Float64Array(slots));
    this.load = make(() => new Float64Array(slots));
    this.hardTime = m.twStart !== null && m.latePenalty === 0;
    const timed = () => (this.hardTime ? new Float64Array(slots) : new Float64Array(0));
    this.preDur = make(timed);
    this.preWarp = make(timed);
    this.preEarly = make(timed);
    this.preLate = make(timed);
    this.sufDur = make(timed);
    this.sufWarp = make(timed);
    this.sufEarly = make(timed);
    this.sufLate = make(timed);
    this.length = new Int32Array(m.routes);
    this.cost = new Float64Array(m.routes);
    this.objective = new Float64Array(m.routes);
    this.loadExcess = new Float64Array(m.routes);
    this.timeWarp = new Float64Array(m.routes);
    this.durationExcess = new Float64Array(m.routes);
    this.routeOf = new Int32Array(m.nodeCount).fill(-1);
    this.pos = new Int32Array(m.nodeCount);
    this.modifiedAt = new Float64Array(m.routes);
    this.buffer = new Int32Array(slots);
    for (let r = 0; r < m.routes; r++) this.setRoute(r, this.buffer, 0);
  }

  /**
   * Loads one customer list per vehicle (missing lists empty); customers on none are unrouted.
   * Routes that already hold exactly that list are left alone, so their modification times
   * stay and the local search need not look at them again.
   */
  loadRoutes(routes: readonly (readonly number[])[]): void {
    for (let r = 0; r < this.m.routes; r++) {
      const route = routes[r] ?? [];
      if (this.holds(r, route)) continue;
      for (let k = 0; k < route.length; k++) this.buffer[k] = route[k]!;
      this.setRoute(r, this.buffer, route.length);
    }
    // A customer dropped from a route that another route now holds is re-registered there above;
    // one in no list at all stays unrouted.
    const listed = new Uint8Array(this.m.nodeCount);
    for (let r = 0; r < this.m.routes; r++) for (const c of routes[r] ?? []) listed[c] = 1;
    for (const c of this.m.customers) if (!listed[c]) this.routeOf[c] = -1;
  }

  private holds(r: number, route: readonly number[]): boolean {
    if (this.length[r] !== route.length) return false;
    const seq = this.seq[r]!;
    for (let k = 0; k < route.length; k++) if (seq[k + 1] !== route[k]) return false;
    return true;
  }

  routes(): number[][] {
    const out: number[][] = [];
    // Most vehicles of a large free fleet are unused: an empty list for them costs no copy.
    for (let r = 0; r < this.m.routes; r++) out.push(this.length[r] === 0 ? [] : Array.from(this.seq[r]!.subarray(1, this.length[r]! + 1)));
    return out;
  }

  /** Rewrites route r as `customers[0..count)` and recomputes its prefix data and price. */
  setRoute(r: number, customers: ArrayLike<number>, count: number): void {
    const m = this.m;
    const n = m.nodeCount;
    const d = m.dist;
    const seq = this.seq[r]!;
    const fwd = this.fwd[r]!;
    const bwd = this.bwd[r]!;
    const load = this.load[r]!;
    if (this.length[r]! > 0) for (let k = 1; k <= this.length[r]!; k++) if (this.routeOf[seq[k]!] === r) this.routeOf[seq[k]!] = -1;
    seq[0] = m.start[r]!;
    for (let k = 1; k <= count; k++) seq[k] = customers[k - 1]!;
    seq[count + 1] = m.end[r]!;
    for (let k = 1; k <= count + 1; k++) {
      const a = seq[k - 1]!;
      const b = seq[k]!;
      fwd[k] = fwd[k - 1]! + d[a * n + b]!;
      bwd[k] = bwd[k - 1]! + d[b * n + a]!;
      load[k] = k <= count ? load[k - 1]! + m.demand[b]! : load[k - 1]!;
      if (k <= count) {
        this.routeOf[b] = r;
        this.pos[b] = k;
      }
    }
    this.length[r] = count;
    this.loadExcess[r] = Math.max(0, load[count]! - m.capacity[r]!);
    this.timeWarp[r] = 0;
    this.durationExcess[r] = 0;
    let late = 0;
    if (count > 0 && this.hardTime) {
      this.setTimes(r);
      const seg = this.segmentOfWhole(r);
      this.timeWarp[r] = seg.timeWarp;
      this.durationExcess[r] = Math.max(0, seg.duration - m.maxDuration);
    } else if (count > 0 && m.twStart) {
      const score = evaluateRoute(m.p, r, customers, count);
      late = score.latePenalty;
      this.durationExcess[r] = score.durationExcessMin;
    }
    this.objective[r] = count > 0 ? m.fixedCost[r]! + m.unitCost[r]! * fwd[count + 1]! + late : 0;
    this.cost[r] = this.penalised(r);
    this.modifiedAt[r] = ++this.clock;
  }

  private penalised(r: number): number {
    const pen = this.penalties;
    return this.objective[r]! + pen.load * this.loadExcess[r]! + pen.timeWarp * this.timeWarp[r]! + pen.duration * this.durationExcess[r]!;
  }

  /** Re-prices every route after the penalties changed. */
  reprice(): void {
    for (let r = 0; r < this.m.routes; r++) this.cost[r] = this.penalised(r);
  }

  totalCost(): number {
    let total = 0;
    for (let r = 0; r < this.m.routes; r++) total += this.cost[r]!;
    return total;
  }

  /** Prefix (customers 1..k) and suffix (k..len) time segments of route r at its vehicle's speed. */
  private setTimes(r: number): void {
    const m = this.m;
    const n = m.nodeCount;
    const twS = m.twStart!;
    const twE = m.twEnd!;
    const speed = m.speed[r]!;
    const seq = this.seq[r]!;
    const len = this.length[r]!;
    const seg = this.seg;
    for (let k = 1; k <= len; k++) {
      const c = seq[k]!;
      if (k === 1) seg.setNode(c, twS[c]!, twE[c]!, m.service[c]!);
      else seg.append(m.dist[seq[k - 1]! * n + c]! / speed, m.service[c]!, 0, twS[c]!, twE[c]!, c);
      this.preDur[r]![k] = seg.duration;
      this.preWarp[r]![k] = seg.timeWarp;
      this.preEarly[r]![k] = seg.earliest;
      this.preLate[r]![k] = seg.latest;
    }
    const tail = this.tail;
    for (let k = len; k >= 1; k--) {
      const c = seq[k]!;
      seg.setNode(c, twS[c]!, twE[c]!, m.service[c]!);
      if (k < len) seg.append(m.dist[c * n + seq[k + 1]!]! / speed, tail.duration, tail.timeWarp, tail.earliest, tail.latest, tail.last);
      tail.set(seg.duration, seg.timeWarp, seg.earliest, seg.latest, seg.first, seg.last);
      this.sufDur[r]![k] = seg.duration;
      this.sufWarp[r]![k] = seg.timeWarp;
      this.sufEarly[r]![k] = seg.earliest;
      this.sufLate[r]![k] = seg.latest;
    }
  }

  private segmentOfWhole(r: number): TimeSegment {
    const m = this.m;
    const n = m.nodeCount;
    const len = this.length[r]!;
    const seq = this.seq[r]!;
    const speed = m.speed[r]!;
    const start = m.start[r]!;
    const end = m.end[r]!;
    const seg = this.seg.setNode(start, m.twStart![start]!, m.twEnd![start]!, 0);
    seg.append(m.dist[start * n + seq[1]!]! / speed, this.preDur[r]![len]!, this.preWarp[r]![len]!, this.preEarly[r]![len]!, this.preLate[r]![len]!, seq[len]!);
    return seg.append(m.dist[seq[len]! * n + end]! / speed, 0, 0, Number.NEGATIVE_INFINITY, m.twEnd![end]!, end);
  }

  /**
   * Fixed + unit x distance + load penalty of vehicle v driving `pieces` (0 when empty): a lower
   * bound of the full price, checked first so that most candidates never reach the time part.
   */
  basePrice(v: number, pieces: Pieces): number {
    if (pieces.size === 0) return 0;
    const m = this.m;
    const n = m.nodeCount;
    const d = m.dist;
    let distance = 0;
    let load = 0;
    let prev = m.start[v]!;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      if (r < 0) {
        const node = pieces.from[k]!;
        distance += d[prev * n + node]!;
        load += m.demand[node]!;
        prev = node;
        continue;
      }
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      const seq = this.seq[r]!;
      load += this.load[r]![to]! - this.load[r]![from - 1]!;
      if (pieces.reversed[k]) {
        distance += d[prev * n + seq[to]!]! + this.bwd[r]![to]! - this.bwd[r]![from]!;
        prev = seq[from]!;
      } else {
        distance += d[prev * n + seq[from]!]! + this.fwd[r]![to]! - this.fwd[r]![from]!;
        prev = seq[to]!;
      }
    }
    distance += d[prev * n + m.end[v]!]!;
    const excess = load - m.capacity[v]!;
    return m.fixedCost[v]! + m.unitCost[v]! * distance + (excess > 0 ? this.penalties.load * excess : 0);
  }

  /** The time part of the price: time warp and working-hours excess, or soft lateness (exact). */
  timePrice(v: number, pieces: Pieces): number {
    const m = this.m;
    if (pieces.size === 0 || !m.twStart) return 0;
    const pen = this.penalties;
    if (!this.hardTime) {
      const count = this.write(pieces, this.buffer);
      const score = evaluateRoute(m.p, v, this.buffer, count);
      return score.latePenalty + pen.duration * score.durationExcessMin;
    }
    const seg = this.segmentOf(v, pieces);
    return pen.timeWarp * seg.timeWarp + (seg.duration > m.maxDuration ? pen.duration * (seg.duration - m.maxDuration) : 0);
  }

  price(v: number, pieces: Pieces): number {
    return this.basePrice(v, pieces) + this.timePrice(v, pieces);
  }

  /** Time segment of vehicle v driving `pieces` from its start node to its end node (hard windows). */
  segmentOf(v: number, pieces: Pieces): TimeSegment {
    const m = this.m;
    const n = m.nodeCount;
    const d = m.dist;
    const twS = m.twStart!;
    const twE = m.twEnd!;
    const speed = m.speed[v]!;
    const start = m.start[v]!;
    const seg = this.seg.setNode(start, twS[start]!, twE[start]!, 0);
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      if (r < 0) {
        seg.append(d[seg.last * n + from]! / speed, m.service[from]!, 0, twS[from]!, twE[from]!, from);
        continue;
      }
      const seq = this.seq[r]!;
      if (pieces.reversed[k] === 0 && m.speed[r] === speed && (from === 1 || to === this.length[r])) {
        const travel = d[seg.last * n + seq[from]!]! / speed;
        if (from === 1) seg.append(travel, this.preDur[r]![to]!, this.preWarp[r]![to]!, this.preEarly[r]![to]!, this.preLate[r]![to]!, seq[to]!);
        else seg.append(travel, this.sufDur[r]![from]!, this.sufWarp[r]![from]!, this.sufEarly[r]![from]!, this.sufLate[r]![from]!, seq[to]!);
        continue;
      }
      const step = pieces.reversed[k] ? -1 : 1;
      for (let t = step > 0 ? from : to; step > 0 ? t <= to : t >= from; t += step) {
        const c = seq[t]!;
        seg.append(d[seg.last * n + c]! / speed, m.service[c]!, 0, twS[c]!, twE[c]!, c);
      }
    }
    const end = m.end[v]!;
    return seg.append(d[seg.last * n + end]! / speed, 0, 0, Number.NEGATIVE_INFINITY, twE[end]!, end);
  }

  /** Writes the customers of `pieces` in order into `out`; returns their count. */
  write(pieces: Pieces, out: Int32Array): number {
    let count = 0;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      if (r < 0) {
        out[count++] = pieces.from[k]!;
        continue;
      }
      const seq = this.seq[r]!;
      if (pieces.reversed[k]) for (let t = pieces.to[k]!; t >= pieces.from[k]!; t--) out[count++] = seq[t]!;
      else for (let t = pieces.from[k]!; t <= pieces.to[k]!; t++) out[count++] = seq[t]!;
    }
    return count;
  }
}
