import type { BreakRule, CompiledProblem } from "./problem.js";
import { lateAt, serviceBegin, windowEndAt } from "./travel.js";

const EPS = 1e-9;
const TRAVEL = 0;
const TAKE = 1;
const MISS = 2;

/** Where each field of the states sits in a saved position: field x width + state. */
export const SAVED = { missed: 0, missedMinutes: 1, late: 2, ready: 3, waited: 4, bound: 5, onBreak: 6 } as const;
const FIELDS = 7;

/**
 * Where a vehicle takes its breaks, as a forward dynamic programme over (position, breaks handled
 * so far): position 0 is the start node before departure, k the route's k-th stop, and a break
 * starts after a service (or before departure), inside its window. A state is better with fewer
 * missed breaks, then fewer late minutes, then an earlier time ready to leave. Leaving earlier
 * never hurts what follows (waiting is allowed and every later window stays reachable), so when the
 * breaks fit without lateness this placement finds it; a greedy rule that postpones breaks can miss it.
 *
 * Each state also carries what the price needs along its chain: the minutes of its missed breaks
 * (a break's duration plus one each), its minutes on break, the minutes waited and the bound on
 * how much later the vehicle could leave without moving any visit out of the window it is served
 * in or any break out of its window (the least over the chain of the waiting so far plus the slack
 * there). The vehicle leaves from its opening and then as late as that bound allows, so its
 * visits, breaks and lateness are the earliest departure's and only the duration shrinks.
 *
 * The programme moves forward one stop at a time from any stored state, so the route model keeps
 * the states of every position of a route and walks a candidate only where it differs
 * (search/route-breaks.ts); the evaluator walks whole routes with it (travel-schedule.ts).
 */
export class BreakStates {
  /** Breaks handled so far: 0..count. */
  readonly width: number;
  readonly missed: Float64Array;
  readonly missedMinutes: Float64Array;
  readonly late: Float64Array;
  readonly ready: Float64Array;
  readonly waited: Float64Array;
  readonly bound: Float64Array;
  readonly onBreak: Float64Array;
  /** Missed minutes of breaks j..count-1, were none of them taken. */
  private readonly restMinutes: Float64Array;
  /** Per position and state, the transition that made it (kept only when tracing). */
  private how = new Uint8Array(0);
  private position = 0;

  /** After `end`: the state chosen, its lateness (the last leg's included), missed breaks and their minutes, finish, departure delay. */
  chosen = 0;
  lateMinutes = 0;
  missedCount = 0;
  missedBreakMinutes = 0;
  breakMinutes = 0;
  finish = 0;
  delay = 0;
  /** After `meets`: this walk's missed breaks, their minutes and late minutes less the saved walk's. */
  missedShift = 0;
  missedMinutesShift = 0;
  lateShift = 0;

  /**
   * Whether the walks from the next `start` keep each state's transition, which `placement` and
   * `chain` read; off, a walk only prices.
   */
  tracing = false;

  constructor(readonly breaks: readonly BreakRule[]) {
    this.width = breaks.length + 1;
    const make = () => new Float64Array(this.width);
    this.missed = make();
    this.missedMinutes = make();
    this.late = make();
    this.ready = make();
    this.waited = make();
    this.bound = make();
    this.onBreak = make();
    this.restMinutes = make();
    for (let j = breaks.length - 1; j >= 0; j--) this.restMinutes[j] = this.restMinutes[j + 1]! + breaks[j]!.duration + 1;
  }

  /** Leaves the start node at `departure`, whose own window allows `bound` minutes later at most. */
  start(departure: number, bound: number): void {
    this.position = 0;
    this.reserve(0);
    this.missed.fill(Number.POSITIVE_INFINITY);
    this.set(0, 0, 0, 0, 0, departure, 0, bound, 0, TRAVEL);
    this.takeHere();
  }

  /** Drives `leg` minutes to stop c, serves it, then takes or gives up the breaks due there. */
  visit(p: CompiledProblem, c: number, leg: number): void {
    const k = ++this.position;
    this.reserve(k);
    const service = p.time!.serviceMin[c]!;
    for (let j = 0; j < this.width; j++) {
      if (this.missed[j] === Number.POSITIVE_INFINITY) continue;
      const arrive = this.ready[j]! + leg;
      const begin = serviceBegin(p, c, arrive);
      const late = lateAt(p, c, begin);
      const waited = this.waited[j]! + begin - arrive;
      const slack = late <= EPS ? waited + windowEndAt(p, c, begin) - begin : waited;
      this.late[j] = this.late[j]! + late;
      this.ready[j] = begin + service;
      this.waited[j] = waited;
      if (slack < this.bound[j]!) this.bound[j] = slack;
      if (this.tracing) this.how[k * this.width + j] = TRAVEL;
    }
    this.takeHere();
  }

  /**
   * Ends the route: breaks not handled are missed, and with `back` the last leg of `legHome`
   * minutes reaches an end node that closes at `close`. Fills the chosen state's figures.
   */
  end(back: boolean, legHome: number, close: number): void {
    const count = this.width - 1;
    let best = -1;
    let bestMissed = Number.POSITIVE_INFINITY;
    let bestLate = 0;
    let bestFinish = 0;
    for (let j = 0; j <= count; j++) {
      if (this.missed[j] === Number.POSITIVE_INFINITY) continue;
      const finish = back ? this.ready[j]! + legHome : this.ready[j]!;
      const missed = this.missed[j]! + count - j;
      const late = this.late[j]! + (back ? Math.max(0, finish - close) : 0);
      if (missed < bestMissed || (missed === bestMissed && (late < bestLate - EPS || (late <= bestLate + EPS && finish < bestFinish)))) {
        best = j;
        bestMissed = missed;
        bestLate = late;
        bestFinish = finish;
      }
    }
    this.chosen = best;
    this.lateMinutes = bestLate;
    this.missedCount = bestMissed;
    this.missedBreakMinutes = this.missedMinutes[best]! + this.restMinutes[best]!;
    this.breakMinutes = this.onBreak[best]!;
    this.finish = bestFinish;
    const waited = this.waited[best]!;
    let bound = this.bound[best]!;
    if (back) {
      const lateEnd = bestFinish - close;
      bound = Math.min(bound, lateEnd <= EPS ? waited - lateEnd : waited);
    }
    this.delay = Math.max(0, Math.min(bound, waited));
  }

  /** After `end` of a traced walk: per break the position after whose service it starts, or -1 when missed. */
  placement(): Int32Array {
    const out = new Int32Array(this.width - 1).fill(-1);
    for (let k = this.position, j = this.chosen; j > 0;) {
      const code = this.how[k * this.width + j]!;
      if (code === TRAVEL) k--;
      else {
        if (code === TAKE) out[j - 1] = k;
        j--;
      }
    }
    return out;
  }

  /**
   * After `end` of a traced walk: per position 0..len the state the chosen chain leaves it in
   * (breaks handled by then), written into `out`.
   */
  chain(out: Int32Array): void {
    let k = this.position;
    let j = this.chosen;
    out[k] = j;
    while (k > 0 || j > 0) {
      const code = this.how[k * this.width + j]!;
      if (code === TRAVEL) out[--k] = j;
      else j--;
    }
  }

  /** Copies the states into `store` from index `at` (FIELDS x width values, laid out as SAVED says). */
  save(store: Float64Array, at: number): void {
    const fields = this.fields();
    for (let f = 0; f < FIELDS; f++) store.set(fields[f]!, at + f * this.width);
  }

  /** Takes the states saved at `at` as those of position `position` (tracing is not continued). */
  load(store: Float64Array, at: number, position: number): void {
    const w = this.width;
    this.position = position;
    const fields = this.fields();
    for (let f = 0; f < FIELDS; f++) fields[f]!.set(store.subarray(at + f * w, at + (f + 1) * w));
  }

  /** The state arrays in SAVED's order. */
  private fields(): readonly Float64Array[] {
    return [this.missed, this.missedMinutes, this.late, this.ready, this.waited, this.bound, this.onBreak];
  }

  /**
   * Whether every state is ready when the one saved at `at` is (the same states reachable), with
   * the same missed breaks, missed minutes and late minutes more or fewer in each: from there on the
   * two walks are one, and the saved walk's outcome plus those differences (`missedShift`,
   * `missedMinutesShift`, `lateShift`) is this one's.
   */
  meets(store: Float64Array, at: number): boolean {
    const w = this.width;
    let first = true;
    for (let j = 0; j < w; j++) {
      const stored = store[at + SAVED.missed * w + j]!;
      if (this.missed[j] === Number.POSITIVE_INFINITY || stored === Number.POSITIVE_INFINITY) {
        if (this.missed[j] !== stored) return false;
        continue;
      }
      if (this.ready[j] !== store[at + SAVED.ready * w + j]) return false;
      const missed = this.missed[j]! - stored;
      const missedMinutes = this.missedMinutes[j]! - store[at + SAVED.missedMinutes * w + j]!;
      const late = this.late[j]! - store[at + SAVED.late * w + j]!;
      if (first) {
        this.missedShift = missed;
        this.missedMinutesShift = missedMinutes;
        this.lateShift = late;
        first = false;
      } else if (missed !== this.missedShift || missedMinutes !== this.missedMinutesShift || Math.abs(late - this.lateShift) > EPS) {
        return false;
      }
    }
    return !first;
  }

  /** Values per saved position. */
  static size(width: number): number {
    return FIELDS * width;
  }

  private set(
    k: number,
    j: number,
    missed: number,
    missedMinutes: number,
    late: number,
    ready: number,
    waited: number,
    bound: number,
    onBreak: number,
    code: number,
  ): void {
    this.missed[j] = missed;
    this.missedMinutes[j] = missedMinutes;
    this.late[j] = late;
    this.ready[j] = ready;
    this.waited[j] = waited;
    this.bound[j] = bound;
    this.onBreak[j] = onBreak;
    if (this.tracing) this.how[k * this.width + j] = code;
  }

  /** At the current position, breaks j = 0.. in order: taken here (inside its window) or given up. */
  private takeHere(): void {
    const k = this.position;
    for (let j = 0; j < this.width - 1; j++) {
      const missed = this.missed[j]!;
      if (missed === Number.POSITIVE_INFINITY) continue;
      const b = this.breaks[j]!;
      const ready = this.ready[j]!;
      const late = this.late[j]!;
      const start = Math.max(ready, b.earliest);
      if (start <= b.latest + EPS) {
        if (this.better(missed, late, start + b.duration, j + 1)) {
          const waited = this.waited[j]! + start - ready;
          const slack = waited + b.latest - start;
          const bound = slack < this.bound[j]! ? slack : this.bound[j]!;
          this.set(k, j + 1, missed, this.missedMinutes[j]!, late, start + b.duration, waited, bound, this.onBreak[j]! + b.duration, TAKE);
        }
      } else if (this.better(missed + 1, late, ready, j + 1)) {
        const missedMinutes = this.missedMinutes[j]! + b.duration + 1;
        this.set(k, j + 1, missed + 1, missedMinutes, late, ready, this.waited[j]!, this.bound[j]!, this.onBreak[j]!, MISS);
      }
    }
  }

  private better(missed: number, late: number, ready: number, j: number): boolean {
    const m = this.missed[j]!;
    const l = this.late[j]!;
    return missed < m || (missed === m && (late < l - EPS || (late <= l + EPS && ready < this.ready[j]! - EPS)));
  }

  private reserve(k: number): void {
    if (!this.tracing || (k + 1) * this.width <= this.how.length) return;
    const grown = new Uint8Array(Math.max(2 * this.how.length, (k + 1) * this.width, 64));
    grown.set(this.how);
    this.how = grown;
  }
}
