import type { FlowState } from "./flows.js";

/**
 * Weighted fair queueing between flows (stride scheduling): each flow has a virtual time, its
 * "pass", advanced by 1/weight for every task taken from it; the next task comes from the flow
 * with the lowest pass. A flow that becomes active again starts at the scheduler's clock (the
 * start time of the task served last), so an idle account neither banks credit nor is punished.
 */
export interface Schedule {
  clock: number;
  /** Flows whose pass is ahead of the clock; any other flow's pass is the clock. */
  passes: Record<string, number>;
}

export const EMPTY_SCHEDULE: Schedule = { clock: 0, passes: {} };

export function passOf(schedule: Schedule, key: string): number {
  return Math.max(schedule.passes[key] ?? schedule.clock, schedule.clock);
}

/** A flow at its max_ack_pending: only a redelivery (of a task handed back or timed out) can come from it. */
export function atLimit(flow: FlowState): boolean {
  return flow.ackPending >= flow.maxAckPending;
}

/**
 * The flows to try, best first: those with queued tasks and room under max_solving by pass (ties
 * by key, so every worker sees the same order), then those with tasks delivered and not
 * acknowledged, where one may await redelivery (the consumer info does not tell them apart).
 */
export function candidateOrder(flows: readonly FlowState[], schedule: Schedule): FlowState[] {
  const byPass = (a: FlowState, b: FlowState) => passOf(schedule, a.key) - passOf(schedule, b.key) || (a.key < b.key ? -1 : 1);
  const queued = flows.filter((f) => f.pending > 0 && !atLimit(f));
  const delivered = flows.filter((f) => f.ackPending > 0 && (f.pending === 0 || atLimit(f)));
  return [...queued.sort(byPass), ...delivered.sort(byPass)];
}

/** The schedule after one task was taken from `key`. Passes behind the new clock are dropped (they equal it). */
export function charge(schedule: Schedule, key: string, weight: number): Schedule {
  const start = passOf(schedule, key);
  const clock = Math.max(schedule.clock, start);
  const passes: Record<string, number> = {};
  for (const [k, pass] of Object.entries(schedule.passes)) if (pass > clock) passes[k] = pass;
  passes[key] = start + 1 / weight;
  return { clock, passes };
}

/** One task taken from the flow `key` of `weight`, to be charged. */
export interface Charge {
  key: string;
  weight: number;
}

/** The schedule after the tasks of `charges` were taken, in that order. */
export function chargeAll(schedule: Schedule, charges: readonly Charge[]): Schedule {
  return charges.reduce((s, c) => charge(s, c.key, c.weight), schedule);
}

/**
 * Tasks ahead of a task that is the `position`-th (1-based) queued task of a flow of `weight`:
 * its own flow's earlier tasks, plus from each other flow as many as the weights serve before
 * it (a tie counts as ahead), at most what that flow has queued.
 */
export function tasksAhead(position: number, weight: number, others: readonly { pending: number; weight: number }[]): number {
  let ahead = position - 1;
  for (const other of others) ahead += Math.min(other.pending, Math.floor((position * other.weight) / weight));
  return ahead;
}
