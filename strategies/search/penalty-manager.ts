import type { ProblemData } from "./problem-data.js";
import type { Penalties } from "./penalties.js";
import { adaptPrice, loadReference, priceRange, timeReference, type PriceRange } from "../core/penalty-scale.js";

/** Share of educated solutions that should satisfy each constraint; its price adapts towards it. */
const TARGET_FEASIBLE = 0.5;
const SEGMENT = 50;

export type PriceKind = "load" | "duration" | "timeWarp" | "distance" | "stops";

/** Which constraints one educated solution kept (distance and stop caps: problems with rules). */
export interface Outcome {
  load: boolean;
  duration: boolean;
  timeWarp: boolean;
  distance?: boolean;
  stops?: boolean;
}

/**
 * Prices of infeasibility (Vidal 2022's adaptive penalties), one rule for every search: per unit of
 * excess load, per minute over the working hours, per minute of time warp, and on problems with
 * rules per unit of distance over a vehicle's cap and per customer over its stop cap, each raised
 * when too few recent outcomes satisfied that constraint and lowered when too many did, within a
 * range around its reference. Only the kinds given adapt; the others keep their starting price.
 */
export class PenaltyManager {
  current: Penalties;
  private readonly ranges: Partial<Record<PriceKind, PriceRange>> = {};
  private readonly kept: Record<PriceKind, number> = { load: 0, duration: 0, timeWarp: 0, distance: 0, stops: 0 };
  private outcomes = 0;

  /**
   * start: the first prices; references: the price each kind's range is centred on; kinds: those
   * that adapt; segment: outcomes between two adjustments (fewer where iterations are few and dear);
   * target: the share of outcomes that should keep each constraint.
   */
  constructor(
    start: Penalties,
    references: Partial<Record<PriceKind, number>>,
    private readonly kinds: readonly PriceKind[],
    private readonly segment: number,
    private readonly target = TARGET_FEASIBLE,
  ) {
    this.current = copyOf(start);
    for (const kind of kinds) this.ranges[kind] = priceRange(references[kind]!);
  }

  /**
   * The prices for any fleet, from the problem's own numbers (core/penalty-scale.ts).
   * fixedCostFloor: with fixed costs, the load price never falls below its starting value (which
   * includes the dearest fixed cost per unit of capacity, loadReference). Below it, a vehicle's
   * fixed cost and depot legs outweigh the price of carrying its load as excess on the others, so
   * an education at a lower price emptied whole vehicles into the rest, and the price then hovered
   * at that collapse point, with many outcomes collapsed and repaired into far dearer plans.
   */
  static forProblem(m: ProblemData, segment = SEGMENT, fixedCostFloor = false): PenaltyManager {
    const perMinute = m.timeCostPerMin ? m.timeCostPerMin.reduce((sum, price) => sum + price, 0) / Math.max(1, m.routes) : 0;
    const timePrice = timeReference(m.meanUnitCost, m.meanSpeed, perMinute);
    // A unit of load on a vehicle costs about its fixed cost per unit of capacity: overloading a
    // small vehicle must not look cheaper than the larger vehicle it stands for.
    let fixedPerUnit = 0;
    for (let v = 0; v < m.routes; v++) fixedPerUnit = Math.max(fixedPerUnit, m.fixedCost[v]! / Math.max(1e-9, m.capacity[v]!));
    const start: Penalties = {
      load: loadReference(m.meanUnitCost, m.maxDistance, m.maxDemand, fixedPerUnit),
      duration: timePrice,
      timeWarp: timePrice,
    };
    const kinds: PriceKind[] = ["load", "duration", "timeWarp"];
    if (m.rules) {
      // A unit of distance over the cap as dear as driving it; a customer over the stop cap as
      // the longest edge (both scale with the problem's own numbers).
      start.distance = timeReference(m.meanUnitCost, 1);
      start.stops = loadReference(m.meanUnitCost, m.maxDistance, 1);
      kinds.push("distance", "stops");
    }
    const manager = new PenaltyManager(start, start, kinds, segment);
    if (fixedCostFloor && fixedPerUnit > 0) manager.ranges.load!.min = start.load;
    return manager;
  }

  /** The current prices with every adapting kind multiplied by `factor` (a repair's raised prices). */
  scaled(factor: number): Penalties {
    const out = copyOf(this.current);
    for (const kind of this.kinds) out[kind] = this.current[kind]! * factor;
    return out;
  }

  /** Multiplies every adapting price by `factor` (within its range). */
  raise(factor: number): void {
    const next = copyOf(this.current);
    for (const kind of this.kinds) {
      const range = this.ranges[kind]!;
      next[kind] = Math.min(range.max, Math.max(range.min, this.current[kind]! * factor));
    }
    this.current = next;
  }

  record(outcome: Outcome): void {
    const kept = this.kept;
    if (outcome.load) kept.load++;
    if (outcome.duration) kept.duration++;
    if (outcome.timeWarp) kept.timeWarp++;
    if (outcome.distance ?? true) kept.distance++;
    if (outcome.stops ?? true) kept.stops++;
    this.outcomes++;
  }

  /** Adjusts the prices once a segment of outcomes is recorded; returns whether they changed. */
  adapt(): boolean {
    if (this.outcomes < this.segment) return false;
    this.adaptNow();
    return true;
  }

  /** Adjusts the prices to the outcomes recorded since the last adjustment, however many (none: unchanged). */
  adaptNow(): void {
    const outcomes = this.outcomes;
    if (outcomes > 0) {
      const next = copyOf(this.current);
      for (const kind of this.kinds)
        next[kind] = adaptPrice(this.current[kind]!, this.kept[kind] / outcomes, this.target, this.ranges[kind]!);
      this.current = next;
    }
    for (const kind of Object.keys(this.kept) as PriceKind[]) this.kept[kind] = 0;
    this.outcomes = 0;
  }
}

/**
 * A copy of `p` built field by field, so that every price object has one shape: the move pricing
 * reads them for every candidate, and objects of several shapes there slow it down.
 */
function copyOf(p: Penalties): Penalties {
  const out: Penalties = { load: p.load, duration: p.duration, timeWarp: p.timeWarp };
  if (p.distance !== undefined) out.distance = p.distance;
  if (p.stops !== undefined) out.stops = p.stops;
  return out;
}
