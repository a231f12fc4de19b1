/** Everything about one route, rebuilt from scratch. */
export interface RouteScore {
  distance: number;
  /** Fixed + unit x distance when used (0 when empty), plus the lateness penalty and the reassignment cost. */
  cost: number;
  load: number;
  capacityExcess: number;
  /** Total lateness in minutes (soft windows: priced; hard windows: a violation). */
  lateMinutes: number;
  latePenalty: number;
  durationMin: number;
  durationExcessMin: number;
  departureMin: number;
  /** Route limits and skills (constraints.md; all 0 without rules): see evaluate-rules.ts. */
  distanceExcess: number;
  stopsExcess: number;
  /** Customers whose skills the vehicle lacks. */
  forbidden: number;
  /**
   * With load rules only (p.loads): the most on board in the first dimension, and the broken
   * backhaul-order and shipment-pairing rules (evaluate-loads.ts). capacityExcess then covers
   * the peak on board and every extra dimension.
   */
  peakOnBoard?: number;
  orderViolations?: number;
  /** With travel rules only (p.travel, travel-score.ts): time cost (in `cost`), break minutes, breaks with no place. */
  timeCost?: number;
  breakMinutes?: number;
  missedBreaks?: number;
  missedBreakMinutes?: number;
  /** With trips only (p.trips): reload stops on the route, and how many exceed the vehicle's limit (evaluate-trips.ts). */
  reloads?: number;
  reloadsExcess?: number;
  /**
   * With visit rules only (p.visits, evaluate-visits.ts): minutes shipments ride beyond their
   * limit, and legs carrying an incompatible pair.
   */
  rideExcessMin?: number;
  conflictLegs?: number;
  feasible: boolean;
}
