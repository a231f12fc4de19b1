import { BreakStates, SAVED } from "../core/break-states.js";
import { windowEndAt } from "../core/travel.js";
import type { Pieces } from "./pieces.js";
import type { ProblemData } from "./problem-data.js";

const EPS = 1e-9;

/** How a route store reads travel minutes and tells whether a stored tail holds for another vehicle. */
export interface BreakTravel {
  leg(v: number, a: number, b: number): number;
  sameTail(r: number, v: number): boolean;
}

/**
 * Driver breaks in the route model: each route of a vehicle with breaks keeps the break
 * programme's states (core/break-states.ts) after every position, so a candidate reads its
 * vehicle's own head, steps through the stops that moved and on through the tail it joins until
 * its states meet the stored ones (every state ready when the stored one is, with the same
 * differences in missed breaks and late minutes): from there the two programmes are one, and the
 * route's stored outcome plus those differences is the candidate's. The prices are the
 * evaluator's, since both run the one programme.
 *
 * The duration needs the departure delay, the least slack along the chain the programme chooses;
 * each route stores, per position, the least slack after it on its own chosen chain relative to
 * the waiting by then, which holds for a candidate that meets it there (its chain from there on is
 * the same).
 */
export class RouteBreaks {
  /** Whether durations are priced: the walks then compute them. */
  readonly durations: boolean;
  /** The last walk's (or `set`'s) late minutes (the start's included), missed breaks' minutes and duration. */
  lateMinutes = 0;
  missedBreakMinutes = 0;
  duration = 0;
  /** Per slot its programme (null: no breaks), and values per stored position. */
  private readonly statesOf: (BreakStates | null)[];
  private readonly stride: Int32Array;
  /** Per slot an id shared by the slots whose breaks are the same. */
  private readonly breaksId: Int32Array;
  /** Per route the programme's states after each position 0..len. */
  private readonly stored: Float64Array[];
  /** Per route, its chosen outcome: programme late minutes, missed minutes, finish. */
  private readonly lateOf: Float64Array;
  private readonly missedMinutesOf: Float64Array;
  private readonly finishOf: Float64Array;
  /** Durations only, per route and position: the chosen chain's state there, and the least slack after it less the waiting by it. */
  private readonly chainOf: Int32Array[];
  private readonly slackAfter: Float64Array[];

  constructor(
    private readonly m: ProblemData,
    slots: number,
    durations: boolean,
    private readonly travel: BreakTravel,
  ) {
    this.durations = durations;
    const breaks = m.p.travel!.breaks;
    this.statesOf = Array.from({ length: m.routes }, (_, v) => ((breaks[v]?.length ?? 0) > 0 ? new BreakStates(breaks[v]!) : null));
    this.stride = Int32Array.from(this.statesOf, (s) => (s ? BreakStates.size(s.width) : 0));
    const ids = new Map<string, number>();
    this.breaksId = Int32Array.from({ length: m.routes }, (_, v) => {
      const key = JSON.stringify(breaks[v] ?? []);
      if (!ids.has(key)) ids.set(key, ids.size);
      return ids.get(key)!;
    });
    this.stored = Array.from({ length: m.routes }, (_, v) => new Float64Array(this.stride[v]! * (slots + 1)));
    this.lateOf = new Float64Array(m.routes);
    this.missedMinutesOf = new Float64Array(m.routes);
    this.finishOf = new Float64Array(m.routes);
    const perRoute = <T>(make: (size: number) => T) =>
      Array.from({ length: m.routes }, (_, v) => make(durations && this.statesOf[v] ? slots + 1 : 0));
    this.chainOf = perRoute((size) => new Int32Array(size));
    this.slackAfter = perRoute((size) => new Float64Array(size));
  }

  /** Whether slot v takes breaks. */
  has(v: number): boolean {
    return this.statesOf[v] !== null;
  }

  /** Stores route r's states, customers seq[1..len] (len > 0); its figures go to the fields. */
  set(r: number, seq: Int32Array, len: number): void {
    const states = this.statesOf[r]!;
    const store = this.stored[r]!;
    const stride = this.stride[r]!;
    // Only a stored route's chain is read back (for the duration); candidate walks keep no trace.
    states.tracing = this.durations;
    let prev = this.startOn(r, states);
    states.save(store, 0);
    for (let k = 1; k <= len; k++) {
      prev = this.visit(r, states, prev, seq[k]!);
      states.save(store, k * stride);
    }
    this.end(r, states, prev);
    this.lateOf[r] = states.lateMinutes;
    this.missedMinutesOf[r] = states.missedBreakMinutes;
    this.finishOf[r] = states.finish;
    if (this.durations) this.storeChain(r, states, seq, len);
    states.tracing = false;
  }

  /** The figures (in the fields) of vehicle v driving `pieces` (positions of the routes `seqs`, or loose nodes). */
  walk(v: number, pieces: Pieces, seqs: readonly Int32Array[], lengths: Int32Array): void {
    const states = this.statesOf[v]!;
    let k = 0;
    let prev: number;
    // The vehicle's own head: its stored states are this candidate's up to there.
    if (pieces.count > 0 && pieces.route[0] === v && pieces.from[0] === 1 && pieces.reversed[0] === 0) {
      const to = pieces.to[0]!;
      states.load(this.stored[v]!, to * this.stride[v]!, to);
      prev = seqs[v]![to]!;
      k = 1;
    } else prev = this.startOn(v, states);
    for (; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      if (r < 0) prev = this.visit(v, states, prev, from);
      else if (k === pieces.count - 1 && pieces.reversed[k] === 0 && to === lengths[r] && this.sameTail(r, v))
        return this.withTail(v, r, states, prev, seqs[r]!, from, to);
      else if (pieces.reversed[k]) for (let t = to; t >= from; t--) prev = this.visit(v, states, prev, seqs[r]![t]!);
      else for (let t = from; t <= to; t++) prev = this.visit(v, states, prev, seqs[r]![t]!);
    }
    this.end(v, states, prev);
  }

  /** As `walk`, for vehicle v driving customers[0..count) (count > 0), from scratch. */
  walkList(v: number, customers: ArrayLike<number>, count: number): void {
    const states = this.statesOf[v]!;
    let prev = this.startOn(v, states);
    for (let k = 0; k < count; k++) prev = this.visit(v, states, prev, customers[k]!);
    this.end(v, states, prev);
  }

  private startOn(v: number, states: BreakStates): number {
    const m = this.m;
    const open = m.departOpen![v]!;
    states.start(open, m.twEnd![m.start[v]!]! - open);
    return m.start[v]!;
  }

  private visit(v: number, states: BreakStates, prev: number, c: number): number {
    states.visit(this.m.p, c, this.travel.leg(v, prev, c));
    return c;
  }

  /** Ends a walk of vehicle v from its last stop `prev`, and fills the fields. */
  private end(v: number, states: BreakStates, prev: number): void {
    const m = this.m;
    const end = m.end[v]!;
    states.end(true, this.travel.leg(v, prev, end), m.arriveClose![v]!);
    this.fill(v, states.lateMinutes, states.missedBreakMinutes, states.finish, states.delay);
  }

  private fill(v: number, late: number, missedMinutes: number, finish: number, delay: number): void {
    const m = this.m;
    const open = m.departOpen![v]!;
    const close = m.twEnd![m.start[v]!]!;
    const total = (m.p.rules && open > close ? open - close : 0) + late;
    this.lateMinutes = total < 1e-7 ? 0 : total;
    this.missedBreakMinutes = missedMinutes;
    if (this.durations) this.duration = finish - (open + delay);
  }

  /** Whether route r's stored states hold for vehicle v from any of its positions on. */
  private sameTail(r: number, v: number): boolean {
    return r === v || (this.breaksId[r] === this.breaksId[v] && this.travel.sameTail(r, v));
  }

  /** The walk of vehicle v on through the tail from..to (= its length) of route r, onto r's stored states as soon as it meets them. */
  private withTail(v: number, r: number, states: BreakStates, prev: number, seq: Int32Array, from: number, to: number): void {
    const store = this.stored[r]!;
    const stride = this.stride[r]!;
    for (let t = from; t <= to; t++) {
      prev = this.visit(v, states, prev, seq[t]!);
      if (states.meets(store, t * stride)) {
        const late = this.lateOf[r]! + states.lateShift;
        const missedMinutes = this.missedMinutesOf[r]! + states.missedMinutesShift;
        let delay = 0;
        if (this.durations) {
          const j = this.chainOf[r]![t]!;
          const waited = states.waited[j]!;
          delay = Math.max(0, Math.min(states.bound[j]!, waited + this.slackAfter[r]![t]!));
        }
        return this.fill(v, late, missedMinutes, this.finishOf[r]!, delay);
      }
    }
    this.end(v, states, prev);
  }

  /**
   * Route r's chosen chain and, per position 1..len, the least slack after the chain's state there
   * (the waiting by then left out): each stop's (its window's end less its start, or none when late)
   * and each break's taken there (its latest start less its start), plus the waiting up to them,
   * and at the end the waiting and the end node's slack.
   */
  private storeChain(r: number, states: BreakStates, seq: Int32Array, len: number): void {
    const m = this.m;
    const p = m.p;
    const chain = this.chainOf[r]!;
    const after = this.slackAfter[r]!;
    const store = this.stored[r]!;
    const stride = this.stride[r]!;
    const w = states.width;
    const breaks = states.breaks;
    states.chain(chain);
    const late = SAVED.late * w;
    const ready = SAVED.ready * w;
    const waited = SAVED.waited * w;
    const endWaited = store[len * stride + waited + chain[len]!]!;
    const lateEnd = states.finish - m.arriveClose![r]!;
    let least = Math.min(endWaited, lateEnd <= EPS ? endWaited - lateEnd : endWaited);
    for (let k = len; k >= 1; k--) {
      const at = k * stride;
      after[k] = least - store[at + waited + chain[k]!]!;
      // The breaks taken at k, latest first: each from the state before it.
      for (let j = chain[k]!; j > chain[k - 1]!; j--) {
        const before = store[at + ready + j - 1]!;
        const b = breaks[j - 1]!;
        const start = Math.max(before, b.earliest);
        if (start <= b.latest + EPS) least = Math.min(least, store[at + waited + j]! + b.latest - start);
      }
      // The stop at k, reached by the chain's state before the breaks taken there.
      const j = chain[k - 1]!;
      const c = seq[k]!;
      const begin = store[at + ready + j]! - m.service[c]!;
      const lateHere = store[at + late + j]! - store[(k - 1) * stride + late + j]!;
      const wait = store[at + waited + j]!;
      least = Math.min(least, lateHere <= EPS ? wait + windowEndAt(p, c, begin) - begin : wait);
    }
  }
}
