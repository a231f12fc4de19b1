import type { ProblemData } from "./problem-data.js";
import type { Pieces } from "./pieces.js";
import { TimeSegment } from "./time-segment.js";

/** Numbers stored per position and segment: duration, time warp, earliest and latest start. */
const FIELDS = 4;

/**
 * The time part of the route model (routes.ts) under hard windows: per route and customer
 * position k, the time segment (Vidal et al. 2013, time-segment.ts) of customers 1..k (prefix)
 * and k..length (suffix) in the route's vehicle's travel minutes (minutes(): its duration matrix,
 * else distance / speed). The vehicle's start and end nodes are not in them: whoever prices a
 * candidate adds its own vehicle's, so a piece of one route can be priced on another vehicle
 * (another depot) in O(1) when it drives in the same minutes.
 */
export class RouteTimes {
  /**
   * Per route, the prefix segments' fields side by side: position k's duration, time warp,
   * earliest and latest at 4k..4k + 3, so a candidate's piece reads one cache line, not four arrays.
   */
  readonly pre: Float64Array[];
  /** The suffix segments, laid out as `pre`. */
  readonly suf: Float64Array[];
  private readonly seg = new TimeSegment();
  private readonly tail = new TimeSegment();
  /**
   * Per vehicle, the segment of its start node (startAt's fields, laid out as `pre`): read by
   * every candidate's pricing, so it is computed once rather than rebuilt per candidate.
   */
  private readonly startFields: Float64Array;
  /** Every vehicle drives in the same minutes: any route's stored segments hold on any vehicle. */
  private readonly oneMinutes: boolean;

  constructor(
    readonly m: ProblemData,
    slots: number,
  ) {
    const make = () => Array.from({ length: m.routes }, () => new Float64Array(FIELDS * slots));
    this.pre = make();
    this.suf = make();
    this.startFields = new Float64Array(FIELDS * m.routes);
    let oneMinutes = true;
    for (let v = 0; v < m.routes; v++) {
      const s = this.startAt(v);
      this.startFields.set([s.duration, s.timeWarp, s.earliest, s.latest], FIELDS * v);
      if (!this.sameMinutes(0, v)) oneMinutes = false;
    }
    this.oneMinutes = oneMinutes;
  }

  /** Travel minutes of the vehicle of slot v from a to b: its duration matrix, else distance / speed. */
  minutes(v: number, a: number, b: number): number {
    const m = this.m;
    const dur = m.durationOf ? m.durationOf[v] : null;
    return dur ? dur[a * m.nodeCount + b]! : m.dist[a * m.nodeCount + b]! / m.speed[v]!;
  }

  /**
   * Prefix (customers 1..k) and suffix (k..len) time segments of route r, customers seq[1..len].
   * `from`: the first position whose customer changed since the last call; the prefixes before it
   * are kept, and the running segment resumes from the one before it, as if appended here.
   * `keptTail`: the route still ends with that many of the customers it ended with, which were
   * `shift` positions later (old length - len); their suffixes are moved, not recomputed.
   */
  set(r: number, seq: Int32Array, len: number, from = 1, keptTail = 0, shift = 0): void {
    const m = this.m;
    const n = m.nodeCount;
    const twS = m.twStart!;
    const twE = m.twEnd!;
    const speed = m.speed[r]!;
    const dur = m.durationOf ? m.durationOf[r]! : null;
    const d = dur ?? m.dist;
    const per = dur ? 1 : speed;
    const seg = this.seg;
    const pre = this.pre[r]!;
    if (from > 1) {
      const at = FIELDS * (from - 1);
      seg.set(pre[at]!, pre[at + 1]!, pre[at + 2]!, pre[at + 3]!, seq[1]!, seq[from - 1]!);
    }
    for (let k = from; k <= len; k++) {
      const c = seq[k]!;
      if (k === 1) seg.setNode(c, twS[c]!, twE[c]!, m.service[c]!);
      else seg.append(d[seq[k - 1]! * n + c]! / per, m.service[c]!, 0, twS[c]!, twE[c]!, c);
      pre[FIELDS * k] = seg.duration;
      pre[FIELDS * k + 1] = seg.timeWarp;
      pre[FIELDS * k + 2] = seg.earliest;
      pre[FIELDS * k + 3] = seg.latest;
    }
    const tail = this.tail;
    const suf = this.suf[r]!;
    let last = len;
    if (keptTail > 0) {
      const start = len - keptTail + 1;
      if (shift !== 0) suf.copyWithin(FIELDS * start, FIELDS * (start + shift), FIELDS * (len + 1 + shift));
      const at = FIELDS * start;
      tail.set(suf[at]!, suf[at + 1]!, suf[at + 2]!, suf[at + 3]!, seq[start]!, seq[len]!);
      last = start - 1;
    }
    for (let k = last; k >= 1; k--) {
      const c = seq[k]!;
      seg.setNode(c, twS[c]!, twE[c]!, m.service[c]!);
      if (k < len) seg.append(d[c * n + seq[k + 1]!]! / per, tail.duration, tail.timeWarp, tail.earliest, tail.latest, tail.last);
      tail.set(seg.duration, seg.timeWarp, seg.earliest, seg.latest, seg.first, seg.last);
      suf[FIELDS * k] = seg.duration;
      suf[FIELDS * k + 1] = seg.timeWarp;
      suf[FIELDS * k + 2] = seg.earliest;
      suf[FIELDS * k + 3] = seg.latest;
    }
  }

  /**
   * Vehicle v at its start node: departure between its earliest (the node's window opening or
   * the shift start, evaluate-rules.ts) and the node's closing; a shift that starts after the
   * node closes departs at the shift start, the difference counted as time warp (the
   * evaluator's lateness at the start).
   */
  private startAt(v: number): TimeSegment {
    const m = this.m;
    const start = m.start[v]!;
    const open = m.departOpen![v]!;
    const close = m.twEnd![start]!;
    if (open <= close) return this.seg.setNode(start, open, close, 0);
    return this.seg.set(0, open - close, open, open, start, start);
  }

  /** `into` set to vehicle v at its start node (as startAt), for callers that build candidates step by step. */
  startInto(into: TimeSegment, v: number): TimeSegment {
    const s = this.startAt(v);
    return into.set(s.duration, s.timeWarp, s.earliest, s.latest, s.first, s.last);
  }

  /** Appends customers 1..k of route r (nothing for k = 0) to `seg`, at route r's speed. */
  appendHead(seg: TimeSegment, r: number, seq: Int32Array, k: number): TimeSegment {
    if (k <= 0) return seg;
    const travel = this.minutes(r, seg.last, seq[1]!);
    const pre = this.pre[r]!;
    const at = FIELDS * k;
    return seg.append(travel, pre[at]!, pre[at + 1]!, pre[at + 2]!, pre[at + 3]!, seq[k]!);
  }

  /** Appends customers k..len of route r (nothing for k > len) to `seg`, at route r's speed. */
  appendTail(seg: TimeSegment, r: number, seq: Int32Array, k: number, len: number): TimeSegment {
    if (k > len) return seg;
    const travel = this.minutes(r, seg.last, seq[k]!);
    const suf = this.suf[r]!;
    const at = FIELDS * k;
    return seg.append(travel, suf[at]!, suf[at + 1]!, suf[at + 2]!, suf[at + 3]!, seq[len]!);
  }

  /** Appends the visit of customer c, driven at vehicle v's speed. */
  appendNode(seg: TimeSegment, v: number, c: number): TimeSegment {
    const m = this.m;
    return seg.append(this.minutes(v, seg.last, c), m.service[c]!, 0, m.twStart![c]!, m.twEnd![c]!, c);
  }

  /** Appends vehicle v's drive to its end node and the end node's closing. */
  finish(seg: TimeSegment, v: number): TimeSegment {
    const m = this.m;
    const end = m.end[v]!;
    return seg.append(this.minutes(v, seg.last, end), 0, 0, Number.NEGATIVE_INFINITY, m.arriveClose![v]!, end);
  }

  /** Segment of route r as it is (customers 1..len), from its vehicle's start to its end node. */
  whole(r: number, seq: Int32Array, len: number): TimeSegment {
    const m = this.m;
    const n = m.nodeCount;
    const speed = m.speed[r]!;
    const start = m.start[r]!;
    const end = m.end[r]!;
    const seg = this.startAt(r);
    const pre = this.pre[r]!;
    const at = FIELDS * len;
    if (m.durationOf) {
      seg.append(this.minutes(r, start, seq[1]!), pre[at]!, pre[at + 1]!, pre[at + 2]!, pre[at + 3]!, seq[len]!);
      return seg.append(this.minutes(r, seq[len]!, end), 0, 0, Number.NEGATIVE_INFINITY, m.arriveClose![r]!, end);
    }
    seg.append(m.dist[start * n + seq[1]!]! / speed, pre[at]!, pre[at + 1]!, pre[at + 2]!, pre[at + 3]!, seq[len]!);
    return seg.append(m.dist[seq[len]! * n + end]! / speed, 0, 0, Number.NEGATIVE_INFINITY, m.arriveClose![r]!, end);
  }

  /** Whether route r's vehicle drives in vehicle v's minutes, so that r's stored segments hold on v. */
  private sameMinutes(r: number, v: number): boolean {
    const m = this.m;
    const dur = m.durationOf ? m.durationOf[v]! : null;
    return dur !== null ? m.durationOf![r] === dur : (m.durationOf === null || m.durationOf[r] === null) && m.speed[r] === m.speed[v];
  }

  /**
   * Segment of vehicle v driving `pieces` (positions 1..length of current routes, or loose nodes)
   * from its start to its end node. The hottest function of the search under windows: the running
   * segment lives in locals and each step is TimeSegment.append written out, the same arithmetic
   * in the same order, so that nothing is stored back until the end.
   */
  segmentOf(v: number, pieces: Pieces, seqs: readonly Int32Array[], lengths: Int32Array): TimeSegment {
    const m = this.m;
    const n = m.nodeCount;
    const twS = m.twStart!;
    const twE = m.twEnd!;
    const service = m.service;
    const dur = m.durationOf ? m.durationOf[v]! : null;
    const dv = dur ?? m.dist;
    const per = dur ? 1 : m.speed[v]!;
    // Minutes that are the matrix's own (a duration matrix, or speed 1) skip the division: x / 1 is x, bit for bit.
    const own = per === 1;
    const startFields = this.startFields;
    const at0 = FIELDS * v;
    let sDur = startFields[at0]!;
    let sWarp = startFields[at0 + 1]!;
    let sEarly = startFields[at0 + 2]!;
    let sLate = startFields[at0 + 3]!;
    const first = m.start[v]!;
    let last = first;
    const oneMinutes = this.oneMinutes;
    const count = pieces.count;
    const routeOf = pieces.route;
    const fromOf = pieces.from;
    const toOf = pieces.to;
    const reversedOf = pieces.reversed;
    for (let k = 0; k < count; k++) {
      const r = routeOf[k]!;
      const from = fromOf[k]!;
      const to = toOf[k]!;
      let eDur: number;
      let eWarp: number;
      let eEarly: number;
      let eLate: number;
      let eLast: number;
      let travel: number;
      if (r < 0) {
        travel = own ? dv[last * n + from]! : dv[last * n + from]! / per;
        eDur = service[from]!;
        eWarp = 0;
        eEarly = twS[from]!;
        eLate = twE[from]!;
        eLast = from;
      } else {
        const seq = seqs[r]!;
        if (reversedOf[k] === 0 && (from === 1 || to === lengths[r]) && (oneMinutes || this.sameMinutes(r, v))) {
          const arc = last * n + seq[from]!;
          travel = own ? dv[arc]! : dv[arc]! / per;
          const fields = from === 1 ? this.pre[r]! : this.suf[r]!;
          const at = FIELDS * (from === 1 ? to : from);
          eDur = fields[at]!;
          eWarp = fields[at + 1]!;
          eEarly = fields[at + 2]!;
          eLate = fields[at + 3]!;
          eLast = seq[to]!;
        } else {
          // A piece walked visit by visit: every visit but the last is appended here, the last below.
          const step = reversedOf[k] ? -1 : 1;
          const stop = step > 0 ? to : from;
          for (let t = step > 0 ? from : to; t !== stop; t += step) {
            const c = seq[t]!;
            const tr = own ? dv[last * n + c]! : dv[last * n + c]! / per;
            const delta = sDur - sWarp + tr;
            const wait = Math.max(twS[c]! - delta - sLate, 0);
            const warp = Math.max(sEarly + delta - twE[c]!, 0);
            sDur = sDur + service[c]! + tr + wait;
            sWarp = sWarp + 0 + warp;
            sEarly = Math.max(twS[c]! - delta, sEarly) - wait;
            sLate = Math.min(twE[c]! - delta, sLate) + warp;
            last = c;
          }
          const c = seq[stop]!;
          travel = own ? dv[last * n + c]! : dv[last * n + c]! / per;
          eDur = service[c]!;
          eWarp = 0;
          eEarly = twS[c]!;
          eLate = twE[c]!;
          eLast = c;
        }
      }
      const delta = sDur - sWarp + travel;
      const wait = Math.max(eEarly - delta - sLate, 0);
      const warp = Math.max(sEarly + delta - eLate, 0);
      sDur = sDur + eDur + travel + wait;
      sWarp = sWarp + eWarp + warp;
      sEarly = Math.max(eEarly - delta, sEarly) - wait;
      sLate = Math.min(eLate - delta, sLate) + warp;
      last = eLast;
    }
    // The drive to the end node, which opens at once and closes at its arrival limit: the step
    // above with no service, no wait (its earliest is minus infinity) and no earlier warp.
    const end = m.end[v]!;
    const travel = own ? dv[last * n + end]! : dv[last * n + end]! / per;
    const close = m.arriveClose![v]!;
    const delta = sDur - sWarp + travel;
    const warp = Math.max(sEarly + delta - close, 0);
    return this.seg.set(sDur + travel, sWarp + warp, sEarly, Math.min(close - delta, sLate) + warp, first, end);
  }

  /** Segment of vehicle v driving customers[0..count) from its start to its end node, from scratch. */
  listSegment(v: number, customers: ArrayLike<number>, count: number): TimeSegment {
    const m = this.m;
    const n = m.nodeCount;
    const twS = m.twStart!;
    const twE = m.twEnd!;
    const dur = m.durationOf ? m.durationOf[v]! : null;
    const d = dur ?? m.dist;
    const per = dur ? 1 : m.speed[v]!;
    const seg = this.startAt(v);
    for (let k = 0; k < count; k++) {
      const c = customers[k]!;
      seg.append(d[seg.last * n + c]! / per, m.service[c]!, 0, twS[c]!, twE[c]!, c);
    }
    const end = m.end[v]!;
    return seg.append(d[seg.last * n + end]! / per, 0, 0, Number.NEGATIVE_INFINITY, m.arriveClose![v]!, end);
  }
}
