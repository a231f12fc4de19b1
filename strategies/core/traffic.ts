/**
 * Traffic by time of day (time_dependent_durations): from each slot's start until the next one's,
 * driving takes `factor` times its base minutes. A leg that spans slots is driven through them at
 * each slot's pace (Ichoua, Gendreau and Potvin 1997), so the arrival is a continuous, strictly
 * increasing, piecewise linear function of the departure: leaving later never arrives earlier.
 * This module is that function, its inverse and its composition along a path, and nothing else.
 */

/** The slots, sorted by start; the first starts at 0 and also covers every earlier minute. */
export interface TrafficSlots {
  start: Float64Array;
  factor: Float64Array;
}

/** The slot that minute `t` falls in (0 for every minute before the second slot). */
export function slotAt(slots: TrafficSlots, t: number): number {
  const start = slots.start;
  let lo = 0;
  let hi = start.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** When a leg of `base` minutes at factor 1 arrives when it leaves at `depart`. */
export function arrivalAfter(slots: TrafficSlots, depart: number, base: number): number {
  const start = slots.start;
  const factor = slots.factor;
  let k = slotAt(slots, depart);
  let clock = depart;
  let left = base;
  for (;;) {
    const pace = factor[k]!;
    const until = k + 1 < start.length ? start[k + 1]! : Number.POSITIVE_INFINITY;
    const arrive = clock + left * pace;
    if (arrive <= until) return arrive;
    left -= (until - clock) / pace;
    clock = until;
    k++;
  }
}

/**
 * The latest departure that arrives by `arrive` on a leg of `base` minutes: the inverse of
 * arrivalAfter, which is strictly increasing, so it is unique.
 */
export function latestDepartureFor(slots: TrafficSlots, arrive: number, base: number): number {
  const start = slots.start;
  const factor = slots.factor;
  let k = slotAt(slots, arrive);
  // An arrival exactly at a slot's start was driven in the slot before it.
  if (k > 0 && start[k] === arrive) k--;
  let clock = arrive;
  let left = base;
  for (;;) {
    const pace = factor[k]!;
    const from = k > 0 ? start[k]! : Number.NEGATIVE_INFINITY;
    const depart = clock - left * pace;
    if (depart >= from) return depart;
    left -= (clock - from) / pace;
    clock = from;
    k--;
  }
}

/**
 * A piecewise linear arrival function: at departure `at[i]` the arrival is `value[i]`, linear
 * between, and with the slope of the last piece after the last point (the first before the first).
 */
export interface ArrivalFunction {
  at: Float64Array;
  value: Float64Array;
}

/** Evaluates an arrival function at departure `t`. */
export function arrivalOf(f: ArrivalFunction, t: number): number {
  const at = f.at;
  const value = f.value;
  const last = at.length - 1;
  if (last === 0) return value[0]! + (t - at[0]!);
  let k = 0;
  while (k < last - 1 && at[k + 1]! <= t) k++;
  const slope = (value[k + 1]! - value[k]!) / (at[k + 1]! - at[k]!);
  return value[k]! + slope * (t - at[k]!);
}

/**
 * The arrival function of one leg of `base` minutes over departures in [from, to]: its
 * breakpoints are the slot starts and the departures that arrive at a slot start.
 */
export function legFunction(slots: TrafficSlots, base: number, from: number, to: number): ArrivalFunction {
  const points = new Set<number>([from, to]);
  for (let k = 1; k < slots.start.length; k++) {
    const s = slots.start[k]!;
    if (s > from && s < to) points.add(s);
    const d = latestDepartureFor(slots, s, base);
    if (d > from && d < to) points.add(d);
  }
  const at = Float64Array.from([...points].sort((a, b) => a - b));
  return { at, value: at.map((t) => arrivalAfter(slots, t, base)) };
}

/**
 * The arrival function of driving `bases` one after the other without stopping, over departures
 * in [from, to]: each leg's function composed with the previous, exactly, on the union of their
 * breakpoints carried back to the first departure.
 */
export function pathFunction(slots: TrafficSlots, bases: readonly number[], from: number, to: number): ArrivalFunction {
  const points = new Set<number>([from, to]);
  let lo = from;
  let hi = to;
  // Departures of the whole path at which some leg leaves or arrives at a slot start.
  const inverse: ((t: number) => number)[] = [];
  for (const base of bases) {
    for (let k = 1; k < slots.start.length; k++) {
      const s = slots.start[k]!;
      for (const leave of [s, latestDepartureFor(slots, s, base)]) {
        if (leave <= lo || leave >= hi) continue;
        let t = leave;
        for (let i = inverse.length - 1; i >= 0; i--) t = inverse[i]!(t);
        if (t > from && t < to) points.add(t);
      }
    }
    inverse.push((t) => latestDepartureFor(slots, t, base));
    lo = arrivalAfter(slots, lo, base);
    hi = arrivalAfter(slots, hi, base);
  }
  const at = Float64Array.from([...points].sort((a, b) => a - b));
  const value = at.map((t) => bases.reduce((clock, base) => arrivalAfter(slots, clock, base), t));
  return { at, value };
}
