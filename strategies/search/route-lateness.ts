import { lateAt, serviceBegin, WINDOW_END_EPS } from "../core/travel.js";
import type { Pieces } from "./pieces.js";
import type { ProblemData } from "./problem-data.js";

/**
 * Late minutes as the whole time price of a route: several windows per stop or soft windows, with
 * no price per minute, no working-hours cap and no breaks. The evaluator's service start never
 * decreases with a later arrival (core/travel.ts serviceBegin), nor does anything after it, so a
 * route stores its own schedule (when each position is left, the late minutes up to it and from
 * it) and per position the latest arrival from which the rest of the route is on time. A
 * candidate reads its vehicle's own head, walks the stops that moved, and reads a tail in O(1)
 * when it arrives by that time; arriving later it walks the tail until it starts a service when
 * the stored schedule does (both waited for the same opening), from where nothing differs. The
 * minutes are the evaluator's (core/travel-schedule.ts, core/schedule.ts): its departure delay
 * moves no visit out of the window it is served in, so lateness is that of leaving at the opening.
 */
export class RouteLateness {
  /** Per route, per position 0..len: when the position is left on the route's own schedule (0: the departure). */
  private readonly leave: Float64Array[];
  /** Per route, per position 1..len: when service starts. */
  private readonly begin: Float64Array[];
  /** Per route, late minutes at positions 0..k (0: a shift that starts after its start node closes). */
  private readonly lateTo: Float64Array[];
  /** Per route, late minutes at positions k..len + 1 (len + 1: the arrival at the end node). */
  private readonly lateFrom: Float64Array[];
  /** Per route, the latest arrival at position k from which positions k..len + 1 are all on time (-Infinity: none). */
  private readonly onTimeBy: Float64Array[];
  /** Per slot the matrix its travel minutes come from and what it is divided by (its speed, or 1 for a duration matrix). */
  private readonly matrixOf: Float64Array[];
  private readonly divisorOf: Float64Array;
  private readonly startLate: Float64Array;
  private readonly n: number;

  /** Whether lateness is the whole time price of `m`'s routes, so that this model prices it. */
  static applies(m: ProblemData): boolean {
    if (m.twStart === null || m.p.trips || m.timeCostPerMin !== null) return false;
    if (m.latePenalty === 0 && !m.visitTimes) return false;
    if (m.p.travel?.breaks.some((list) => list.length > 0)) return false;
    return m.maxDurationOf!.every((cap) => cap === Number.POSITIVE_INFINITY);
  }

  constructor(
    private readonly m: ProblemData,
    slots: number,
  ) {
    const make = () => Array.from({ length: m.routes }, () => new Float64Array(slots));
    this.leave = make();
    this.begin = make();
    this.lateTo = make();
    this.lateFrom = make();
    this.onTimeBy = make();
    this.n = m.nodeCount;
    this.matrixOf = Array.from({ length: m.routes }, (_, v) => m.durationOf?.[v] ?? m.dist);
    this.divisorOf = Float64Array.from({ length: m.routes }, (_, v) => (m.durationOf?.[v] ? 1 : m.speed[v]!));
    const twEnd = m.twEnd!;
    this.startLate = Float64Array.from({ length: m.routes }, (_, v) => {
      const open = m.departOpen![v]!;
      const close = twEnd[m.start[v]!]!;
      return m.p.rules && open > close ? open - close : 0;
    });
  }

  /** Stores route r's schedule, customers seq[1..len] (len > 0); returns its late minutes. */
  set(r: number, seq: Int32Array, len: number): number {
    const m = this.m;
    const p = m.p;
    const leave = this.leave[r]!;
    const begin = this.begin[r]!;
    const lateTo = this.lateTo[r]!;
    const lateFrom = this.lateFrom[r]!;
    const onTimeBy = this.onTimeBy[r]!;
    leave[0] = m.departOpen![r]!;
    lateTo[0] = this.startLate[r]!;
    for (let k = 1; k <= len; k++) {
      const c = seq[k]!;
      const start = serviceBegin(p, c, leave[k - 1]! + this.leg(r, seq[k - 1]!, c));
      begin[k] = start;
      lateTo[k] = lateTo[k - 1]! + lateAt(p, c, start);
      leave[k] = start + m.service[c]!;
    }
    const end = m.end[r]!;
    const close = m.arriveClose![r]!;
    lateFrom[len + 1] = Math.max(0, leave[len]! + this.leg(r, seq[len]!, end) - close);
    onTimeBy[len + 1] = close;
    let next = end;
    for (let k = len; k >= 1; k--) {
      const c = seq[k]!;
      lateFrom[k] = lateFrom[k + 1]! + lateAt(p, c, begin[k]!);
      onTimeBy[k] = this.latestOnTime(c, onTimeBy[k + 1]! - this.leg(r, c, next) - m.service[c]!);
      next = c;
    }
    return roundedLate(lateTo[len]! + lateFrom[len + 1]!);
  }

  /** Late minutes of vehicle v driving `pieces` (positions of the routes `seqs`, or loose nodes) from its start to its end node. */
  minutesLate(v: number, pieces: Pieces, seqs: readonly Int32Array[], lengths: Int32Array): number {
    const m = this.m;
    let k = 0;
    // The vehicle's own head: its stored schedule starts where and when this candidate does.
    if (pieces.count > 0 && pieces.route[0] === v && pieces.from[0] === 1 && pieces.reversed[0] === 0) {
      const to = pieces.to[0]!;
      this.clock = this.leave[v]![to]!;
      this.late = this.lateTo[v]![to]!;
      this.prev = seqs[v]![to]!;
      k = 1;
    } else this.startOn(v);
    for (; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      if (r < 0) {
        this.visit(v, from);
        continue;
      }
      const seq = seqs[r]!;
      if (k === pieces.count - 1 && pieces.reversed[k] === 0 && to === lengths[r] && this.sameTail(r, v))
        return this.withTail(r, seq, from, to);
      if (pieces.reversed[k]) for (let t = to; t >= from; t--) this.visit(v, seq[t]!);
      else for (let t = from; t <= to; t++) this.visit(v, seq[t]!);
    }
    return this.finish(v);
  }

  /** Late minutes of vehicle v driving customers[0..count) from its start to its end node, from scratch. */
  listMinutesLate(v: number, customers: ArrayLike<number>, count: number): number {
    this.startOn(v);
    for (let k = 0; k < count; k++) this.visit(v, customers[k]!);
    return this.finish(v);
  }

  /** The walk of a candidate: when it leaves its last stop, the late minutes so far, and that stop. */
  private clock = 0;
  private late = 0;
  private prev = 0;

  private startOn(v: number): void {
    this.clock = this.m.departOpen![v]!;
    this.late = this.startLate[v]!;
    this.prev = this.m.start[v]!;
  }

  private visit(v: number, c: number): void {
    const p = this.m.p;
    const start = serviceBegin(p, c, this.clock + this.leg(v, this.prev, c));
    this.late += lateAt(p, c, start);
    this.clock = start + this.m.service[c]!;
    this.prev = c;
  }

  private finish(v: number): number {
    const m = this.m;
    return roundedLate(this.late + Math.max(0, this.clock + this.leg(v, this.prev, m.end[v]!) - m.arriveClose![v]!));
  }

  /** The walk on through the tail from..to (= its length) of route r, on the stored schedule as soon as it can. */
  private withTail(r: number, seq: Int32Array, from: number, to: number): number {
    const begin = this.begin[r]!;
    const onTimeBy = this.onTimeBy[r]!;
    for (let t = from; t <= to; t++) {
      const c = seq[t]!;
      const arrive = this.clock + this.leg(r, this.prev, c);
      if (arrive <= onTimeBy[t]!) return roundedLate(this.late);
      const start = serviceBegin(this.m.p, c, arrive);
      // The stored schedule's start: from here on the two schedules are one.
      if (start === begin[t]) return roundedLate(this.late + this.lateFrom[r]![t]!);
      this.late += lateAt(this.m.p, c, start);
      this.clock = start + this.m.service[c]!;
      this.prev = c;
    }
    return this.finish(r);
  }

  /** Travel minutes of slot v from a to b. */
  private leg(v: number, a: number, b: number): number {
    return this.matrixOf[v]![a * this.n + b]! / this.divisorOf[v]!;
  }

  /** Whether route r's stored tail holds for vehicle v: the same travel minutes, end node and closing time. */
  private sameTail(r: number, v: number): boolean {
    const m = this.m;
    if (r === v) return true;
    return (
      this.matrixOf[r] === this.matrixOf[v] &&
      this.divisorOf[r] === this.divisorOf[v] &&
      m.end[r] === m.end[v] &&
      m.arriveClose![r] === m.arriveClose![v]
    );
  }

  /**
   * The latest arrival at customer c whose service starts by `latestBegin` and on time: in the
   * last window that opens by then, up to its end (serviceBegin's tolerance included) or that
   * bound; -Infinity when no window opens by then.
   */
  private latestOnTime(c: number, latestBegin: number): number {
    const m = this.m;
    const set = m.p.travel ? m.p.travel.windowSets[c] : null;
    if (!set) {
      const latest = Math.min(m.twEnd![c]!, latestBegin);
      return m.twStart![c]! > latest ? Number.NEGATIVE_INFINITY : latest;
    }
    for (let k = set.length - 2; k >= 0; k -= 2) {
      if (set[k]! <= latestBegin) return Math.min(set[k + 1]! + WINDOW_END_EPS, latestBegin);
    }
    return Number.NEGATIVE_INFINITY;
  }
}

/** The evaluator's rounding of a route's lateness: below 1e-7 minutes is none. */
function roundedLate(late: number): number {
  return late < 1e-7 ? 0 : late;
}
