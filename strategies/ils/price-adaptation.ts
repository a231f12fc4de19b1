import { adaptPrice, priceRange, type PriceRange } from "../core/penalty-scale.js";
import type { LocalSearch } from "../search/local-search.js";
import type { Penalties } from "../search/penalties.js";
import type { PenaltyManager } from "../search/penalty-manager.js";
import type { Routes } from "../search/routes.js";
import type { PriceAdaptation } from "./ils-parts.js";

const TARGET_FEASIBLE = 0.5;

/**
 * The identical-vehicles family's prices of excess load, duration and (under binding windows) time
 * warp, each adapted after every `segment` outcomes by the share that kept it. New prices come
 * before a restart, which descends from the best at them.
 */
export class SegmentPrices implements PriceAdaptation {
  readonly beforeRestart = true;
  current: Penalties;
  private readonly loadRange: PriceRange;
  private readonly durationRange: PriceRange;
  private readonly warpRange: PriceRange;
  private loadOk = 0;
  private durationOk = 0;
  private warpOk = 0;
  private outcomes = 0;

  /** `reference`: the prices each range is centred on (the load and duration ones before any start factor). */
  constructor(
    private readonly ls: LocalSearch,
    private readonly segment: number,
    reference: Penalties,
    start: Penalties,
  ) {
    this.current = start;
    this.loadRange = priceRange(reference.load);
    this.durationRange = priceRange(reference.duration);
    this.warpRange = priceRange(start.timeWarp);
  }

  record(load: boolean, duration: boolean, warp: boolean): void {
    this.loadOk += load ? 1 : 0;
    this.durationOk += duration ? 1 : 0;
    this.warpOk += warp ? 1 : 0;
    this.outcomes++;
  }

  adaptWhenDue(): boolean {
    if (this.outcomes !== this.segment) return false;
    const pen = this.current;
    const outcomes = this.outcomes;
    this.current = {
      load: adaptPrice(pen.load, this.loadOk / outcomes, TARGET_FEASIBLE, this.loadRange),
      duration: adaptPrice(pen.duration, this.durationOk / outcomes, TARGET_FEASIBLE, this.durationRange),
      timeWarp: this.ls.m.windows ? adaptPrice(pen.timeWarp, this.warpOk / outcomes, TARGET_FEASIBLE, this.warpRange) : pen.timeWarp,
    };
    this.loadOk = this.durationOk = this.warpOk = this.outcomes = 0;
    this.ls.penalties = this.current;
    this.ls.reprice();
    return true;
  }
}

/**
 * The per-vehicle family's prices (search/penalty-manager.ts). New prices come after a restart,
 * so that the acceptance starts afresh from the restarted solution; the local search forgets the
 * moves it found not to improve, since their prices changed.
 */
export class PenaltyManagerPrices implements PriceAdaptation {
  readonly beforeRestart = false;
  constructor(
    private readonly penalties: PenaltyManager,
    private readonly rs: Routes,
    private readonly ls: LocalSearch,
  ) {}

  adaptWhenDue(): boolean {
    if (!this.penalties.adapt()) return false;
    this.rs.penalties = this.penalties.current;
    this.rs.reprice();
    this.ls.forget();
    return true;
  }
}
