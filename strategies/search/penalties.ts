/** Penalty prices per unit of excess load, per minute of excess duration and per minute of time warp. */
export interface Penalties {
  load: number;
  duration: number;
  timeWarp: number;
  /** Per unit of distance above a vehicle's cap, per customer above its stop cap (problems with rules; 1 when unset). */
  distance?: number;
  stops?: number;
}
