import type { ProblemData } from "./problem-data.js";
import type { Penalties } from "./penalties.js";

/**
 * THE price of a route in the search, for every method: it holds the current penalty prices
 * (the penalty manager and the identical-vehicles schedules write them here) and prices a route on vehicle
 * v from its totals, its time segment and its rule excesses. Every search half, split and the
 * solution forms price through it, so a move's predicted cost and the stored route cost are the
 * same arithmetic in the same order, to the last bit.
 */
export class CostEvaluator {
  penalties: Penalties = { load: 1, duration: 1, timeWarp: 1 };
  // The vehicle data fromTotals reads, held here: it runs for nearly every candidate move.
  private readonly fixedCost: Float64Array;
  private readonly unitCost: Float64Array;
  private readonly capacity: Float64Array;
  private readonly speed: Float64Array;
  private readonly durationLimit: number;
  private readonly perMinute: Float64Array | null;
  /**
   * Per vehicle, the minute price that a route's time cost has at least per unit of distance (its
   * minutes are distance over speed; 0 where a duration matrix sets them) and per service minute:
   * null where no route price holds a time cost. Without it the bounds see none of the time cost,
   * and nearly every candidate reaches the exact time price.
   */
  private readonly floorPerDistance: Float64Array | null;

  constructor(readonly m: ProblemData) {
    this.perMinute = m.timeCostPerMin;
    const perMinute = m.timeCostPerMin;
    // Under traffic driving takes at least its base minutes at the fastest slot's pace.
    const traffic = m.p.travel?.traffic;
    const pace = traffic ? Math.min(1, ...traffic.factor) : 1;
    // Several trips price their time apart, without the time cost (routes.ts timePrice).
    this.floorPerDistance =
      perMinute && m.twStart && !m.p.trips?.copyOf
        ? Float64Array.from(perMinute, (price, v) => (m.durationOf?.[v] ? 0 : (pace * price) / m.speed[v]!))
        : null;
    this.fixedCost = m.fixedCost;
    this.unitCost = m.unitCost;
    this.capacity = m.capacity;
    this.speed = m.speed;
    this.durationLimit = m.durationLimit;
  }

  /**
   * Penalised cost of vehicle v serving `count` customers with these totals: fixed + unit x
   * distance, the load above its capacity, and (where windows cannot bind) the additive duration
   * (driving + service) above the cap. Time windows are priced apart (timePrice). 0 when empty.
   */
  fromTotals(v: number, count: number, distance: number, load: number, service: number): number {
    if (count === 0) return 0;
    const pen = this.penalties;
    let cost = this.fixedCost[v]! + this.unitCost[v]! * distance;
    const capacity = this.capacity[v]!;
    if (load > capacity) cost += pen.load * (load - capacity);
    const limit = this.durationLimit;
    if (limit !== Number.POSITIVE_INFINITY) {
      const excess = distance / this.speed[v]! + service - limit;
      if (excess > 0) cost += pen.duration * excess;
    }
    return cost;
  }

  /** Fixed + unit x distance of vehicle v: the price's part that no penalty lowers, the bound moves prune on. */
  travel(v: number, distance: number): number {
    return this.fixedCost[v]! + this.unitCost[v]! * distance;
  }

  /**
   * A lower bound on the time cost of vehicle v's route with this distance and service: its
   * duration is at least its driving and service minutes (0 without time costs).
   */
  timeFloor(v: number, distance: number, service: number): number {
    const perDistance = this.floorPerDistance;
    return perDistance ? perDistance[v]! * distance + this.perMinute![v]! * service : 0;
  }

  /** Time warp and working-hours excess of a route whose time segment is `seg`, under the duration cap `cap`. */
  timePrice(seg: { timeWarp: number; duration: number }, cap: number): number {
    return timePrice(this.penalties, seg, cap);
  }

  /** Time warp, working-hours excess and the time cost (vehicle_unit_time_costs) of vehicle v's route whose time segment is `seg`. */
  routeTimePrice(v: number, seg: { timeWarp: number; duration: number }, cap: number): number {
    const price = timePrice(this.penalties, seg, cap);
    return this.perMinute ? price + this.perMinute[v]! * seg.duration : price;
  }

  /** The time cost of vehicle v's route lasting `duration` minutes: part of its objective (0 without time costs). */
  timeCost(v: number, duration: number): number {
    return this.perMinute ? this.perMinute[v]! * duration : 0;
  }

  /** Penalised excess distance and stops of a route. */
  rulePrice(distanceExcess: number, stopsExcess: number): number {
    return rulePrice(this.penalties, distanceExcess, stopsExcess);
  }

  /** A route's penalised cost from its stored objective and excesses (without rules). */
  excessPrice(objective: number, loadExcess: number, timeWarp: number, durationExcess: number): number {
    return excessPrice(this.penalties, objective, loadExcess, timeWarp, durationExcess);
  }
}

/** An objective plus its priced load, time warp and duration excesses: a route's, or a solution's sums (ils/snapshot.ts). */
export function excessPrice(pen: Penalties, objective: number, loadExcess: number, timeWarp: number, durationExcess: number): number {
  return objective + pen.load * loadExcess + pen.timeWarp * timeWarp + pen.duration * durationExcess;
}

/** Time warp and the duration above `cap` at the prices `pen`: for callers that hold prices, not an evaluator (split). */
export function timePrice(pen: Penalties, seg: { timeWarp: number; duration: number }, cap: number): number {
  return pen.timeWarp * seg.timeWarp + (seg.duration > cap ? pen.duration * (seg.duration - cap) : 0);
}

/** Penalised excess distance and stops: the prices are the penalty manager's (1 when a caller sets none). */
export function rulePrice(pen: Penalties, distanceExcess: number, stopsExcess: number): number {
  let cost = 0;
  if (distanceExcess > 0) cost += (pen.distance ?? 1) * distanceExcess;
  if (stopsExcess > 0) cost += (pen.stops ?? 1) * stopsExcess;
  return cost;
}
