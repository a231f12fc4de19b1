/** Penalty prices per unit of excess load, per minute of excess duration and per minute of time warp. */
export interface Penalties {
  load: number;
  duration: number;
  timeWarp: number;
}
