import type { components } from "../../generated/api.js";
import type { RouteSchedule, RouteScore } from "../../strategies/core/evaluator.js";
import { hasBreaks, type CompiledProblem } from "../../strategies/core/problem.js";
import { capMinutes } from "./service-diagnostics.js";
import { withoutDust } from "./message-numbers.js";
import { legMinutes, returnsToEnd } from "../../strategies/core/travel.js";
import { isStopAt, tripDetails } from "./trip-details.js";

export type RouteDetail = components["schemas"]["RouteDetail"];

/** Lateness below this is the evaluator's floating-point dust, not a late stop. */
const LATE_EPS = 1e-7;

/**
 * One used vehicle's cost and schedule broken down ("cost explained"). The money parts
 * are the evaluator's own numbers for the route (`score`), so fixed + distance cost + lateness
 * penalty is the route's cost in `total_cost`; the minutes are read off the evaluator's schedule
 * with its rule for service start (arrival, or the window's opening when earlier).
 */
export function routeDetail(p: CompiledProblem, v: number, score: RouteScore, schedule: RouteSchedule): RouteDetail {
  const fixed = p.fixedCost[v]!;
  const distanceCost = p.unitCost[v]! * score.distance;
  const detail: RouteDetail = {
    distance: withoutDust(score.distance),
    fixed_cost: withoutDust(fixed),
    distance_cost: withoutDust(distanceCost),
    lateness_penalty: withoutDust(score.latePenalty),
    cost: withoutDust(score.cost),
    driving_minutes: null,
    waiting_minutes: null,
    service_minutes: null,
    lateness_minutes: null,
    late_stops: [],
    duration_minutes: null,
    max_duration_minutes: null,
    load: withoutDust(score.load),
    capacity: p.capacity[v]!,
    ...tripDetails(p, v, schedule),
  };
  const rules = p.rules;
  if (rules) {
    // The route limits beside what the route uses, only for requests that set any of them.
    detail.stops = schedule.nodes.length - 2 - (detail.reloads ?? 0);
    detail.max_stops = rules.maxStops[v]! < 0x7fffffff ? rules.maxStops[v]! : null;
    detail.max_distance = Number.isFinite(rules.maxDistance[v]!) ? rules.maxDistance[v]! : null;
    const [from, to] = [rules.shiftStartMin[v]!, rules.shiftEndMin[v]!];
    // A shift is compiled only with the time dimension, and always with both ends.
    detail.shift = Number.isFinite(from) && Number.isFinite(to) ? [from, to] : null;
  }
  const travel = p.travel;
  if (travel) {
    // The travel extensions' parts, only for requests that use them.
    if (travel.timeCostPerMin.some((c) => c > 0)) detail.time_cost = withoutDust(score.timeCost ?? 0);
    if (hasBreaks(p)) detail.break_minutes = withoutDust(score.breakMinutes ?? 0);
    if (travel.profile.some((name) => name !== null)) detail.profile = travel.profile[v] ?? null;
    if (!returnsToEnd(p, v) && detail.stops !== undefined) detail.stops = schedule.nodes.length - 1;
  }
  const t = p.time;
  if (!t) return detail;
  const nodes = schedule.nodes;
  const open = !returnsToEnd(p, v);
  let driving = 0;
  let waiting = 0;
  let service = 0;
  for (let k = 1; k < nodes.length; k++) {
    const node = nodes[k]!;
    driving += legMinutes(p, v, nodes[k - 1]!, node);
    const arrive = schedule.arrive[k]!;
    const isEnd = k === nodes.length - 1 && !open;
    // A reload stop serves nobody: it is left when the next trip's goods are released (its leave time).
    const reload = isStopAt(p, v, schedule, k);
    const begin = isEnd ? arrive : reload ? schedule.leave[k]! : (schedule.begin?.[k] ?? Math.max(arrive, t.twStartMin[node]!));
    if (!isEnd) {
      waiting += begin - arrive;
      if (!reload) service += t.serviceMin[node]!;
    }
    // Several windows: lateness is after the last one, which is the hull's end.
    const late = begin - t.twEndMin[node]!;
    if (late > LATE_EPS) {
      detail.late_stops.push({ node, lateness_minutes: withoutDust(late), penalty: withoutDust(late * t.latePenaltyPerMin) });
    }
  }
  detail.driving_minutes = withoutDust(driving);
  detail.waiting_minutes = withoutDust(waiting);
  detail.service_minutes = withoutDust(service);
  detail.lateness_minutes = withoutDust(score.lateMinutes);
  detail.duration_minutes = withoutDust(score.durationMin);
  const cap = capMinutes(p, v);
  detail.max_duration_minutes = Number.isFinite(cap) ? cap : null;
  return detail;
}
