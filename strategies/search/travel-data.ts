import { hasBreaks, type CompiledProblem } from "../core/problem.js";
import { slotMinutes } from "./distance-profiles.js";

/**
 * The travel rules as the route model reads them (constraints.md, third table): each slot's
 * travel minutes and minute price, and whether visits take their service start from the
 * evaluator's schedule (several windows, breaks).
 */

/** ProblemData's travel fields (problem-data.ts documents them). */
export interface TravelData {
  durationOf: (Float64Array | null)[] | null;
  timeCostPerMin: Float64Array | null;
  visitTimes: boolean;
}

/** A vehicle's network and minute price, which set it apart from another vehicle (its type). */
export function travelKey(p: CompiledProblem, v: number): string {
  const tr = p.travel;
  return tr ? `|${tr.profile[v] ?? ""}|${tr.timeCostPerMin[v]}` : "";
}

/** The slots' duration matrices and minute prices (null without them, and without the time dimension). */
export function travelData(p: CompiledProblem, routes: number): TravelData {
  const tr = p.travel;
  if (!tr || routes === 0) return { durationOf: null, timeCostPerMin: null, visitTimes: false };
  const costs = tr.timeCostPerMin.subarray(0, routes);
  return {
    durationOf: slotMinutes(p, routes),
    timeCostPerMin: costs.some((c) => c > 0) ? costs : null,
    // Under traffic a visit's start also comes from the evaluator's schedule (core/traffic.ts).
    visitTimes: tr.windowSets.some((set) => set !== null) || hasBreaks(p) || tr.traffic != null,
  };
}

/**
 * Several windows or breaks (ProblemData.visitTimes): what the evaluator's schedule breaks, as
 * time warp: hard lateness (soft lateness is priced as such) and the breaks that found no place.
 */
export function visitWarp(m: { latePenalty: number }, score: { lateMinutes: number; missedBreakMinutes?: number }): number {
  return (m.latePenalty === 0 ? score.lateMinutes : 0) + (score.missedBreakMinutes ?? 0);
}
