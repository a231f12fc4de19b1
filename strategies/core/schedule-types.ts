/** Per-node schedule of a route, start and end depots included: [arrive, leave] minutes. */
export interface RouteSchedule {
  nodes: number[];
  arrive: number[];
  leave: number[];
  loads: number[];
  /** With load rules only: load on board after each node, first dimension and the D extra ones. */
  onBoard?: number[];
  extraOnBoard?: number[][];
  /** With travel rules only: service start per node (the finish at the end node), and the breaks as placed. */
  begin?: number[];
  breaks?: PlacedBreak[];
}

/** A break as the evaluator placed it: minutes, and the node after whose service it is taken. */
export interface PlacedBreak {
  start: number;
  end: number;
  afterNode: number;
}

/** The time part of a route's score (evaluator.ts): lateness, duration and departure, in minutes. */
export interface RouteTimes {
  lateMinutes: number;
  latePenalty: number;
  durationMin: number;
  durationExcessMin: number;
  departureMin: number;
  /** With travel rules only: minutes of breaks taken, breaks that found no place, and the time cost. */
  breakMinutes?: number;
  missedBreaks?: number;
  /** The search's measure of the breaks that found no place: each one's duration plus a minute. */
  missedBreakMinutes?: number;
  timeCost?: number;
}
