import { isReloadStop } from "./evaluate-trips.js";
import type { CompiledProblem } from "./problem.js";
import type { RouteSchedule } from "./schedule-types.js";
import { legMinutes, returnsToEnd } from "./travel.js";

/**
 * One position of a route's schedule (the start node, each stop, the end node when the route
 * returns to it) as the answer's evaluation keeps it: times in minutes from the start of the day
 * (0 without a time dimension), what is on board, and what the stop is.
 */
export interface StopEvaluation {
  node: number;
  arrive: number;
  /**
   * Service start: the arrival or the window's opening (the evaluator's own under several
   * windows), the time a reload stop is left, the arrival at the end node.
   */
  begin: number;
  leave: number;
  /** Minutes driven from the previous position (0 at the start, and without a time dimension). */
  driveMinutes: number;
  /** Minutes between arrival and service start (0 at the end node). */
  waitMinutes: number;
  /** Service minutes spent here (0 at reload stops and at the end node). */
  serviceMinutes: number;
  /** Service start after the node's window closes (its last window under several), negative when in time. */
  lateBy: number;
  /** A reload stop between two trips (several trips): it serves nobody. */
  reload: boolean;
  /** The vehicle's end node, reached by a route that returns to it. */
  end: boolean;
  /** The evaluator's cumulative load after this position (the current trip's, with several trips). */
  load: number;
  /** With load rules: on board after this position, first dimension and the extra ones (absent past an open route's end). */
  onBoard?: number;
  extraOnBoard?: readonly number[];
}

/**
 * The stops of vehicle v's route read off the evaluator's schedule, positions 1.. (the start node
 * is the route's departure). Times are taken as they are, never simulated again: only the
 * service start is named here, by the rule the evaluator serves with.
 */
export function evaluateStops(p: CompiledProblem, v: number, schedule: RouteSchedule): StopEvaluation[] {
  const nodes = schedule.nodes;
  const t = p.time;
  const open = !returnsToEnd(p, v);
  const stops: StopEvaluation[] = [];
  for (let k = 1; k < nodes.length; k++) {
    const node = nodes[k]!;
    const arrive = schedule.arrive[k]!;
    const end = k === nodes.length - 1 && !open;
    const reload = p.trips != null && k < nodes.length - 1 && isReloadStop(p.trips, v, node);
    const stop: StopEvaluation = {
      node,
      arrive,
      begin: arrive,
      leave: schedule.leave[k]!,
      driveMinutes: 0,
      waitMinutes: 0,
      serviceMinutes: 0,
      lateBy: Number.NEGATIVE_INFINITY,
      reload,
      end,
      load: schedule.loads[k]!,
    };
    if (schedule.onBoard && k < schedule.onBoard.length) stop.onBoard = schedule.onBoard[k]!;
    if (schedule.extraOnBoard && k < schedule.extraOnBoard.length) stop.extraOnBoard = schedule.extraOnBoard[k]!;
    if (t) {
      // Under traffic a leg's minutes depend on when it is driven (no breaks then: validation refuses both).
      stop.driveMinutes = p.travel?.traffic ? arrive - schedule.leave[k - 1]! : legMinutes(p, v, nodes[k - 1]!, node);
      stop.begin = end ? arrive : reload ? stop.leave : (schedule.begin?.[k] ?? Math.max(arrive, t.twStartMin[node]!));
      if (!end) stop.waitMinutes = stop.begin - arrive;
      if (!end && !reload) stop.serviceMinutes = t.serviceMin[node]!;
      // Several windows: lateness is after the last one, which is the hull's end.
      stop.lateBy = stop.begin - t.twEndMin[node]!;
    }
    stops.push(stop);
  }
  return stops;
}
