import { lateAt, serviceBegin, windowEndAt, WINDOW_END_EPS } from "../core/travel.js";
import type { Pieces } from "./pieces.js";
import { RouteBreaks } from "./route-breaks.js";
import type { ProblemData } from "./problem-data.js";

/** The evaluator's tolerance on a late minute when it chooses the departure (core/schedule.ts, core/travel-schedule.ts). */
const LATE_EPS = 1e-9;

/**
 * The evaluator's schedule of a route kept in the route model, where a visit's start is not one
 * window's clamp (several windows) or lateness delays the rest of the route (soft windows), and no
 * breaks are placed. The evaluator's service start never decreases with a later arrival
 * (core/travel.ts serviceBegin), nor does anything after it, so a route stores its schedule from
 * the earliest departure (when each position is left, the late minutes up to it and from it) and
 * per position the latest arrival from which the rest of the route is on time. A candidate reads
 * its vehicle's own head, walks the stops that moved and then the tail it joins, until a service
 * starts when the stored one does (both waited for one opening): from there the two schedules are
 * one. Where only late minutes are priced, reaching the tail by its latest on-time arrival ends
 * the walk at once. A vehicle with breaks keeps the evaluator's break programme instead
 * (route-breaks.ts), walked the same way.
 *
 * Durations (a price per minute or a working-hours cap): the evaluator leaves as late as keeps
 * every visit in the window it is served in, which changes no lateness and no finish, only the
 * departure. That delay is the least over the positions of the minutes waited up to each plus its
 * slack in its window; a route stores those bounds from each position on, relative to the waiting
 * before it, so that a candidate meeting its schedule adds only its own waiting so far.
 */
export class RouteSchedules {
  /** Whether durations are priced (a price per minute, or a cap on some vehicle): the walks then compute them too. */
  readonly durations: boolean;
  /** The last walk's (or `set`'s) late minutes, missed breaks' minutes and duration (the duration only with `durations`). */
  lateMinutes = 0;
  missedBreakMinutes = 0;
  duration = 0;
  /** Per route, per position 0..len: when the position is left, leaving at the earliest departure (0: the departure). */
  private readonly leave: Float64Array[];
  /** Per route, per position 1..len: when service starts. */
  private readonly begin: Float64Array[];
  /** Per route, late minutes at positions 0..k (0: a shift that starts after its start node closes). */
  private readonly lateTo: Float64Array[];
  /** Per route, late minutes at positions k..len + 1 (len + 1: the arrival at the end node). */
  private readonly lateFrom: Float64Array[];
  /** Per route, the latest arrival at position k from which positions k..len + 1 are all on time (-Infinity: none). */
  private readonly onTimeBy: Float64Array[];
  /** Durations only, per route: minutes waited at positions 1..k; the least departure bound over positions 0..k. */
  private readonly waitedTo: Float64Array[];
  private readonly boundTo: Float64Array[];
  /** Durations only, per route: the least bound over positions k..len + 1, less the minutes waited up to k. */
  private readonly boundFrom: Float64Array[];
  /** Durations only, per route: when its end node is reached. */
  private readonly finishOf: Float64Array;
  /** Per slot the matrix its travel minutes come from and what it is divided by (its speed, or 1 for a duration matrix). */
  private readonly matrixOf: Float64Array[];
  private readonly divisorOf: Float64Array;
  private readonly startLate: Float64Array;
  /** Per slot 1 when its vehicle takes breaks; their programme's stored states. */
  private readonly breaksOn: Uint8Array;
  private readonly breaks: RouteBreaks | null;
  private readonly n: number;
  /** A walk's state: when it leaves its last stop, late and waited minutes so far, the departure bound, that stop. */
  private clock = 0;
  private late = 0;
  private waited = 0;
  private bound = 0;
  private prev = 0;
  /** When the last visit's service started. */
  private started = 0;

  /** Whether `m`'s routes are priced on these schedules: several or soft windows or breaks, no trips. */
  static applies(m: ProblemData): boolean {
    // Under traffic a leg's minutes depend on its departure: each candidate is timed by the evaluator instead.
    return m.twStart !== null && !m.p.trips && !m.p.travel?.traffic && (m.latePenalty > 0 || m.visitTimes);
  }

  constructor(
    private readonly m: ProblemData,
    slots: number,
  ) {
    this.durations = m.timeCostPerMin !== null || m.maxDurationOf!.some((cap) => cap !== Number.POSITIVE_INFINITY);
    const make = (used = true) => Array.from({ length: used ? m.routes : 0 }, () => new Float64Array(slots));
    this.leave = make();
    this.begin = make();
    this.lateTo = make();
    this.lateFrom = make();
    this.onTimeBy = make();
    this.waitedTo = make(this.durations);
    this.boundTo = make(this.durations);
    this.boundFrom = make(this.durations);
    this.finishOf = new Float64Array(m.routes);
    this.n = m.nodeCount;
    this.matrixOf = Array.from({ length: m.routes }, (_, v) => m.durationOf?.[v] ?? m.dist);
    this.divisorOf = Float64Array.from({ length: m.routes }, (_, v) => (m.durationOf?.[v] ? 1 : m.speed[v]!));
    this.breaksOn = Uint8Array.from({ length: m.routes }, (_, v) => ((m.p.travel?.breaks[v]?.length ?? 0) > 0 ? 1 : 0));
    this.breaks = this.breaksOn.includes(1) ? new RouteBreaks(m, slots, this.durations, this) : null;
    const twEnd = m.twEnd!;
    this.startLate = Float64Array.from({ length: m.routes }, (_, v) => {
      const open = m.departOpen![v]!;
      const close = twEnd[m.start[v]!]!;
      return m.p.rules && open > close ? open - close : 0;
    });
  }

  /** Stores route r's schedule, customers seq[1..len] (len > 0); its late minutes and duration go to the fields. */
  set(r: number, seq: Int32Array, len: number): void {
    if (this.breaksOn[r]) {
      this.breaks!.set(r, seq, len);
      return this.fromBreaks();
    }
    this.missedBreakMinutes = 0;
    const m = this.m;
    const leave = this.leave[r]!;
    const begin = this.begin[r]!;
    const lateTo = this.lateTo[r]!;
    this.startOn(r);
    leave[0] = this.clock;
    lateTo[0] = this.late;
    if (this.durations) {
      this.waitedTo[r]![0] = 0;
      this.boundTo[r]![0] = this.bound;
    }
    for (let k = 1; k <= len; k++) {
      const c = seq[k]!;
      this.visit(r, c);
      begin[k] = this.started;
      leave[k] = this.clock;
      lateTo[k] = this.late;
      if (this.durations) {
        this.waitedTo[r]![k] = this.waited;
        this.boundTo[r]![k] = this.bound;
      }
    }
    const finish = this.clock + this.leg(r, seq[len]!, m.end[r]!);
    this.storeTail(r, seq, len, finish);
    this.finish(r, finish);
  }

  /** The late minutes and duration (in the fields) of vehicle v driving `pieces` (positions of the routes `seqs`, or loose nodes). */
  walk(v: number, pieces: Pieces, seqs: readonly Int32Array[], lengths: Int32Array): void {
    if (this.breaksOn[v]) {
      this.breaks!.walk(v, pieces, seqs, lengths);
      return this.fromBreaks();
    }
    this.missedBreakMinutes = 0;
    let k = 0;
    // The vehicle's own head: its stored schedule starts where and when this candidate does.
    if (pieces.count > 0 && pieces.route[0] === v && pieces.from[0] === 1 && pieces.reversed[0] === 0) {
      const to = pieces.to[0]!;
      this.clock = this.leave[v]![to]!;
      this.late = this.lateTo[v]![to]!;
      this.prev = seqs[v]![to]!;
      if (this.durations) {
        this.waited = this.waitedTo[v]![to]!;
        this.bound = this.boundTo[v]![to]!;
      }
      k = 1;
    } else this.startOn(v);
    for (; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      if (r < 0) this.visit(v, from);
      else if (k === pieces.count - 1 && pieces.reversed[k] === 0 && to === lengths[r] && this.sameTail(r, v))
        return this.withTail(v, r, seqs[r]!, from, to);
      else if (pieces.reversed[k]) for (let t = to; t >= from; t--) this.visit(v, seqs[r]![t]!);
      else for (let t = from; t <= to; t++) this.visit(v, seqs[r]![t]!);
    }
    this.finish(v, this.clock + this.leg(v, this.prev, this.m.end[v]!));
  }

  /** As `walk`, for vehicle v driving customers[0..count) (count > 0), from scratch. */
  walkList(v: number, customers: ArrayLike<number>, count: number): void {
    if (this.breaksOn[v]) {
      this.breaks!.walkList(v, customers, count);
      return this.fromBreaks();
    }
    this.missedBreakMinutes = 0;
    this.startOn(v);
    for (let k = 0; k < count; k++) this.visit(v, customers[k]!);
    this.finish(v, this.clock + this.leg(v, this.prev, this.m.end[v]!));
  }

  /** Takes the figures of the break programme's last walk. */
  private fromBreaks(): void {
    const breaks = this.breaks!;
    this.lateMinutes = breaks.lateMinutes;
    this.missedBreakMinutes = breaks.missedBreakMinutes;
    this.duration = breaks.duration;
  }

  private startOn(v: number): void {
    const m = this.m;
    this.clock = m.departOpen![v]!;
    this.late = this.startLate[v]!;
    this.prev = m.start[v]!;
    this.waited = 0;
    this.bound = m.twEnd![m.start[v]!]! - this.clock;
  }

  private visit(v: number, c: number): void {
    const p = this.m.p;
    const arrive = this.clock + this.leg(v, this.prev, c);
    const start = serviceBegin(p, c, arrive);
    const late = lateAt(p, c, start);
    this.late += late;
    if (this.durations) this.waitAt(c, start, start - arrive, late);
    this.clock = start + this.m.service[c]!;
    this.prev = c;
    this.started = start;
  }

  /** Adds the waiting before a service at `start` and that visit's bound on the departure delay. */
  private waitAt(c: number, start: number, wait: number, late: number): void {
    this.waited += wait;
    const bound = late <= LATE_EPS ? this.waited + windowEndAt(this.m.p, c, start) - start : this.waited;
    if (bound < this.bound) this.bound = bound;
  }

  /** Ends a walk of vehicle v arriving at its end node at `finish`. */
  private finish(v: number, finish: number): void {
    const lateEnd = finish - this.m.arriveClose![v]!;
    this.lateMinutes = roundedLate(this.late + Math.max(0, lateEnd));
    if (!this.durations) return;
    this.bound = Math.min(this.bound, lateEnd <= LATE_EPS ? this.waited - lateEnd : this.waited, this.waited);
    this.duration = finish - this.m.departOpen![v]! - Math.max(0, this.bound);
  }

  /** The walk of vehicle v on through the tail from..to (= its length) of route r, onto the stored schedule as soon as it meets it. */
  private withTail(v: number, r: number, seq: Int32Array, from: number, to: number): void {
    const p = this.m.p;
    const begin = this.begin[r]!;
    const onTimeBy = this.onTimeBy[r]!;
    for (let t = from; t <= to; t++) {
      const c = seq[t]!;
      const arrive = this.clock + this.leg(r, this.prev, c);
      if (!this.durations && arrive <= onTimeBy[t]!) {
        this.lateMinutes = roundedLate(this.late);
        return;
      }
      const start = serviceBegin(p, c, arrive);
      if (start === begin[t]) return this.meet(v, r, t, start - arrive);
      const late = lateAt(p, c, start);
      this.late += late;
      if (this.durations) this.waitAt(c, start, start - arrive, late);
      this.clock = start + this.m.service[c]!;
      this.prev = c;
    }
    this.finish(v, this.clock + this.leg(r, this.prev, this.m.end[r]!));
  }

  /** A walk of vehicle v that starts the service at position t of route r when r's stored schedule does, after waiting `wait` there. */
  private meet(v: number, r: number, t: number, wait: number): void {
    this.lateMinutes = roundedLate(this.late + this.lateFrom[r]![t]!);
    if (!this.durations) return;
    this.bound = Math.min(this.bound, this.waited + wait + this.boundFrom[r]![t]!);
    this.duration = this.finishOf[r]! - this.m.departOpen![v]! - Math.max(0, this.bound);
  }

  /** Route r's tail: late minutes and latest on-time arrivals from each position, and with durations the bounds from each. */
  private storeTail(r: number, seq: Int32Array, len: number, finish: number): void {
    const m = this.m;
    const p = m.p;
    const begin = this.begin[r]!;
    const lateFrom = this.lateFrom[r]!;
    const onTimeBy = this.onTimeBy[r]!;
    const close = m.arriveClose![r]!;
    lateFrom[len + 1] = Math.max(0, finish - close);
    onTimeBy[len + 1] = close;
    let next = m.end[r]!;
    for (let k = len; k >= 1; k--) {
      const c = seq[k]!;
      lateFrom[k] = lateFrom[k + 1]! + lateAt(p, c, begin[k]!);
      onTimeBy[k] = this.latestOnTime(c, onTimeBy[k + 1]! - this.leg(r, c, next) - m.service[c]!);
      next = c;
    }
    if (!this.durations) return;
    // A position's own bound less the waiting up to it is its slack in its window (none when late); the
    // next position's relative bound adds the waiting there. The end's: its slack, and never above 0.
    const waitedTo = this.waitedTo[r]!;
    const boundFrom = this.boundFrom[r]!;
    const lateEnd = finish - close;
    boundFrom[len + 1] = Math.min(lateEnd <= LATE_EPS ? -lateEnd : 0, 0);
    for (let k = len; k >= 1; k--) {
      const c = seq[k]!;
      const slack = lateAt(p, c, begin[k]!) <= LATE_EPS ? windowEndAt(p, c, begin[k]!) - begin[k]! : 0;
      const waitNext = k < len ? waitedTo[k + 1]! - waitedTo[k]! : 0;
      boundFrom[k] = Math.min(slack, boundFrom[k + 1]! + waitNext);
    }
    this.finishOf[r] = finish;
  }

  /** Travel minutes of slot v from a to b. */
  leg(v: number, a: number, b: number): number {
    return this.matrixOf[v]![a * this.n + b]! / this.divisorOf[v]!;
  }

  /** Whether route r's stored tail holds for vehicle v: the same travel minutes, end node and closing time, breaks or none. */
  sameTail(r: number, v: number): boolean {
    const m = this.m;
    if (r === v) return true;
    return (
      this.breaksOn[r] === this.breaksOn[v] &&
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
