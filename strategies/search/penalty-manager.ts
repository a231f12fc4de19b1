import type { FleetModel } from "./fleet-model.js";
import type { Penalties } from "./penalties.js";
import { adaptPrice, loadReference, priceRange, timeReference, type PriceRange } from "../core/penalty-scale.js";

/** Share of educated solutions that should satisfy each constraint; its price adapts towards it. */
const TARGET_FEASIBLE = 0.5;
const SEGMENT = 50;

/**
 * Prices of infeasibility for the general search (Vidal 2022's adaptive penalties): per unit of
 * excess load, per minute of time warp and per minute over the working hours, each raised when
 * too few recent solutions satisfied that constraint and lowered when too many did.
 */
export class PenaltyManager {
  current: Penalties;
  /** Each price adapts within a range around its starting value (scale-free, no fixed cap). */
  private readonly ranges: Record<keyof Penalties, PriceRange>;
  private readonly loadOk: boolean[] = [];
  private readonly warpOk: boolean[] = [];
  private readonly durationOk: boolean[] = [];

  /** segment: outcomes between two adjustments (fewer where iterations are few and dear). */
  constructor(m: FleetModel, private readonly segment = SEGMENT) {
    const timePrice = timeReference(m.meanUnitCost, m.meanSpeed);
    // A unit of load on a vehicle costs about its fixed cost per unit of capacity: overloading a
    // small vehicle must not look cheaper than the larger vehicle it stands for.
    let fixedPerUnit = 0;
    for (let v = 0; v < m.routes; v++) fixedPerUnit = Math.max(fixedPerUnit, m.fixedCost[v]! / Math.max(1e-9, m.capacity[v]!));
    this.current = {
      load: loadReference(m.meanUnitCost, m.maxDistance, m.maxDemand, fixedPerUnit),
      duration: timePrice,
      timeWarp: timePrice,
    };
    this.ranges = { load: priceRange(this.current.load), duration: priceRange(timePrice), timeWarp: priceRange(timePrice) };
  }

  scaled(factor: number): Penalties {
    const c = this.current;
    return { load: c.load * factor, duration: c.duration * factor, timeWarp: c.timeWarp * factor };
  }

  /** Multiplies every price by `factor` (within its range). */
  raise(factor: number): void {
    const c = this.current;
    const clamp = (key: keyof Penalties, value: number) => Math.min(this.ranges[key].max, Math.max(this.ranges[key].min, value));
    this.current = { load: clamp("load", c.load * factor), duration: clamp("duration", c.duration * factor), timeWarp: clamp("timeWarp", c.timeWarp * factor) };
  }

  record(load: boolean, warp: boolean, duration: boolean): void {
    this.loadOk.push(load);
    this.warpOk.push(warp);
    this.durationOk.push(duration);
  }

  /** Adjusts the prices once a segment of outcomes is recorded; returns whether they changed. */
  adapt(): boolean {
    if (this.loadOk.length < this.segment) return false;
    const adjust = (key: keyof Penalties, history: boolean[]) => {
      const share = history.filter(Boolean).length / history.length;
      history.length = 0;
      return adaptPrice(this.current[key], share, TARGET_FEASIBLE, this.ranges[key]);
    };
    this.current = { load: adjust("load", this.loadOk), duration: adjust("duration", this.durationOk), timeWarp: adjust("timeWarp", this.warpOk) };
    return true;
  }
}
