import type { components } from "../../generated/api.js";
import type { RouteEvaluation } from "../../strategies/core/answer-evaluation.js";
import { hasBreaks, type CompiledProblem } from "../../strategies/core/problem.js";
import { capMinutes } from "./service-diagnostics.js";
import { withoutDust } from "./message-numbers.js";
import { returnsToEnd } from "../../strategies/core/travel.js";
import { tripDetails } from "./trip-details.js";

export type RouteDetail = components["schemas"]["RouteDetail"];

/** Lateness below this is the evaluator's floating-point dust, not a late stop. */
const LATE_EPS = 1e-7;

/**
 * One used vehicle's cost and schedule broken down ("cost explained"). The money parts
 * are the evaluation's cost terms for the route, so fixed + distance cost + lateness penalty is
 * the route's cost in `total_cost`; the minutes are the sums of its evaluated stops.
 */
export function routeDetail(p: CompiledProblem, evaluated: RouteEvaluation): RouteDetail {
  const { vehicle: v, score, schedule, costs } = evaluated;
  const detail: RouteDetail = {
    distance: withoutDust(score.distance),
    fixed_cost: withoutDust(costs.fixed),
    distance_cost: withoutDust(costs.distance),
    lateness_penalty: withoutDust(costs.lateness),
    cost: withoutDust(costs.total),
    driving_minutes: null,
    waiting_minutes: null,
    service_minutes: null,
    lateness_minutes: null,
    late_stops: [],
    duration_minutes: null,
    max_duration_minutes: null,
    load: withoutDust(score.load),
    capacity: p.capacity[v]!,
    ...tripDetails(p, evaluated),
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
    if (travel.timeCostPerMin.some((c) => c > 0)) detail.time_cost = withoutDust(costs.time);
    if (hasBreaks(p)) detail.break_minutes = withoutDust(score.breakMinutes ?? 0);
    if (travel.profile.some((name) => name !== null)) detail.profile = travel.profile[v] ?? null;
    if (!returnsToEnd(p, v) && detail.stops !== undefined) detail.stops = schedule.nodes.length - 1;
  }
  if (!p.time) return detail;
  let driving = 0;
  let waiting = 0;
  let service = 0;
  for (const stop of evaluated.stops) {
    driving += stop.driveMinutes;
    waiting += stop.waitMinutes;
    service += stop.serviceMinutes;
    if (stop.lateBy > LATE_EPS) {
      const late = stop.lateBy;
      detail.late_stops.push({
        node: stop.node,
        lateness_minutes: withoutDust(late),
        penalty: withoutDust(late * p.time.latePenaltyPerMin),
      });
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
