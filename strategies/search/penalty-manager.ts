import type { ProblemData } from "./problem-data.js";
import type { Penalties } from "./penalties.js";
import { adaptPrice, loadReference, priceRange, timeReference, type PriceRange } from "../core/penalty-scale.js";

/** Share of educated solutions that should satisfy each constraint; its price adapts towards it. */
const TARGET_FEASIBLE = 0.5;
const SEGMENT = 50;

type Kind = "load" | "duration" | "timeWarp" | "distance" | "stops";

/**
 * Prices of infeasibility for the general search (Vidal 2022's adaptive penalties): per unit of
 * excess load, per minute of time warp and per minute over the working hours, and on problems
 * with rules per unit of distance over a vehicle's cap and per customer over its stop cap, each
 * raised when too few recent solutions satisfied that constraint and lowered when too many did.
 */
export class PenaltyManager {
  current: Penalties;
  /** Each price adapts within a range around its starting value (scale-free, no fixed cap). */
  private readonly ranges: Partial<Record<Kind, PriceRange>>;
  private readonly history: Record<Kind, boolean[]> = { load: [], duration: [], timeWarp: [], distance: [], stops: [] };
  private readonly kinds: Kind[];

  /**
   * segment: outcomes between two adjustments (fewer where iterations are few and dear).
   * fixedCostFloor: with fixed costs, the load price never falls below its starting value (which
   * includes the dearest fixed cost per unit of capacity, loadReference). Below it, a vehicle's
   * fixed cost and depot legs outweigh the price of carrying its load as excess on the others, so
   * an education at a lower price emptied whole vehicles into the rest, and the price then hovered
   * at that collapse point, with many outcomes collapsed and repaired into far dearer plans.
   */
  constructor(
    m: ProblemData,
    private readonly segment = SEGMENT,
    fixedCostFloor = false,
  ) {
    const perMinute = m.timeCostPerMin ? m.timeCostPerMin.reduce((sum, price) => sum + price, 0) / Math.max(1, m.routes) : 0;
    const timePrice = timeReference(m.meanUnitCost, m.meanSpeed, perMinute);
    // A unit of load on a vehicle costs about its fixed cost per unit of capacity: overloading a
    // small vehicle must not look cheaper than the larger vehicle it stands for.
    let fixedPerUnit = 0;
    for (let v = 0; v < m.routes; v++) fixedPerUnit = Math.max(fixedPerUnit, m.fixedCost[v]! / Math.max(1e-9, m.capacity[v]!));
    this.current = {
      load: loadReference(m.meanUnitCost, m.maxDistance, m.maxDemand, fixedPerUnit),
      duration: timePrice,
      timeWarp: timePrice,
    };
    this.kinds = ["load", "duration", "timeWarp"];
    if (m.rules) {
      // A unit of distance over the cap as dear as driving it; a customer over the stop cap as
      // the longest edge (both scale with the problem's own numbers).
      this.current.distance = timeReference(m.meanUnitCost, 1);
      this.current.stops = loadReference(m.meanUnitCost, m.maxDistance, 1);
      this.kinds.push("distance", "stops");
    }
    this.ranges = {};
    for (const kind of this.kinds) this.ranges[kind] = priceRange(this.current[kind]!);
    if (fixedCostFloor && fixedPerUnit > 0) this.ranges.load!.min = this.current.load;
  }

  scaled(factor: number): Penalties {
    const out = { ...this.current };
    for (const kind of this.kinds) out[kind] = this.current[kind]! * factor;
    return out;
  }

  /** Multiplies every price by `factor` (within its range). */
  raise(factor: number): void {
    const next = { ...this.current };
    for (const kind of this.kinds) {
      const range = this.ranges[kind]!;
      next[kind] = Math.min(range.max, Math.max(range.min, this.current[kind]! * factor));
    }
    this.current = next;
  }

  record(load: boolean, warp: boolean, duration: boolean, distance = true, stops = true): void {
    const h = this.history;
    h.load.push(load);
    h.timeWarp.push(warp);
    h.duration.push(duration);
    h.distance.push(distance);
    h.stops.push(stops);
  }

  /** Adjusts the prices once a segment of outcomes is recorded; returns whether they changed. */
  adapt(): boolean {
    if (this.history.load.length < this.segment) return false;
    const next = { ...this.current };
    for (const kind of this.kinds) {
      const history = this.history[kind];
      const share = history.filter(Boolean).length / history.length;
      next[kind] = adaptPrice(this.current[kind]!, share, TARGET_FEASIBLE, this.ranges[kind]!);
    }
    for (const kind of Object.keys(this.history) as Kind[]) this.history[kind].length = 0;
    this.current = next;
    return true;
  }
}
