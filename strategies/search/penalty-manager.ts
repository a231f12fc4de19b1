import type { FleetModel } from "./fleet-model.js";
import type { Penalties } from "./penalties.js";

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
  private readonly loadOk: boolean[] = [];
  private readonly warpOk: boolean[] = [];
  private readonly durationOk: boolean[] = [];

  constructor(m: FleetModel) {
    const timePrice = Math.max(0.1, m.meanUnitCost * m.meanSpeed);
    // A unit of load on a vehicle costs about its fixed cost per unit of capacity: overloading a
    // small vehicle must not look cheaper than the larger vehicle it stands for.
    let fixedPerUnit = 0;
    for (let v = 0; v < m.routes; v++) fixedPerUnit = Math.max(fixedPerUnit, m.fixedCost[v]! / Math.max(1e-9, m.capacity[v]!));
    this.current = {
      load: Math.max(0.1, Math.min(100_000, (m.meanUnitCost * m.maxDistance) / Math.max(1e-9, m.maxDemand) + fixedPerUnit)),
      duration: timePrice,
      timeWarp: timePrice,
    };
  }

  scaled(factor: number): Penalties {
    const c = this.current;
    return { load: c.load * factor, duration: c.duration * factor, timeWarp: c.timeWarp * factor };
  }

  record(load: boolean, warp: boolean, duration: boolean): void {
    this.loadOk.push(load);
    this.warpOk.push(warp);
    this.durationOk.push(duration);
  }

  /** Adjusts the prices once a segment of outcomes is recorded; returns whether they changed. */
  adapt(): boolean {
    if (this.loadOk.length < SEGMENT) return false;
    const adjust = (price: number, history: boolean[]) => {
      const share = history.filter(Boolean).length / history.length;
      history.length = 0;
      if (share < TARGET_FEASIBLE - 0.05) return Math.min(100_000, price * 1.2);
      if (share > TARGET_FEASIBLE + 0.05) return Math.max(0.1, price * 0.85);
      return price;
    };
    const c = this.current;
    this.current = { load: adjust(c.load, this.loadOk), duration: adjust(c.duration, this.durationOk), timeWarp: adjust(c.timeWarp, this.warpOk) };
    return true;
  }
}
