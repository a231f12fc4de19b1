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
 * The flows to try, best first: those with queued tasks and room under max_solving by pass, then
 * those with tasks delivered and not acknowledged, where one may await redelivery (the consumer
 * info does not tell them apart). At equal passes (two accounts both new to the competition) the
 * flow with fewer tasks in workers' hands comes first, then the key, so that workers choosing at
 * once, before either sees the other's charge, both try the account that has nothing running.
 */
export function candidateOrder(flows: readonly FlowState[], schedule: Schedule): FlowState[] {
  const byPass = (a: FlowState, b: FlowState) =>
    passOf(schedule, a.key) - passOf(schedule, b.key) || a.ackPending - b.ackPending || (a.key < b.key ? -1 : 1);
  const queued = flows.filter((f) => f.pending > 0 && !atLimit(f));
  const delivered = flows.filter((f) => f.ackPending > 0 && (f.pending === 0 || atLimit(f)));
  return [...queued.sort(byPass), ...delivered.sort(byPass)];
}

/**
 * The schedule after `count` tasks were taken from `key` at once (a batch starts where its first
 * task would: the clock does not run ahead of the other flows through the batch). Passes behind
 * the new clock are dropped (they equal it).
 */
export function charge(schedule: Schedule, key: string, weight: number, count = 1): Schedule {
  const start = passOf(schedule, key);
  const clock = Math.max(schedule.clock, start);
  const passes: Record<string, number> = {};
  for (const [k, pass] of Object.entries(schedule.passes)) if (pass > clock) passes[k] = pass;
  passes[key] = start + count / weight;
  return { clock, passes };
}

/**
 * How many tasks one pull may take from `chosen`, the flow first in the order, at most `max`: as
 * many as its queue and its room under max_solving hold, while its pass stays within one task of
 * the next competing flow's (the lag stride scheduling allows anyway), so a batch never puts an
 * account more than one task ahead of another. Alone, a flow is limited by its queue and room only.
 */
export function batchAllowance(chosen: FlowState, others: readonly FlowState[], schedule: Schedule, max: number): number {
  const room = Math.min(max, chosen.pending, chosen.maxAckPending - chosen.ackPending);
  if (room <= 1) return 1;
  const competing = others.filter((f) => f.key !== chosen.key && f.pending > 0 && !atLimit(f));
  if (competing.length === 0) return room;
  const own = passOf(schedule, chosen.key);
  // The pass after which the next flow would be chosen, plus one of its tasks.
  const bound = Math.min(...competing.map((f) => passOf(schedule, f.key) + 1 / f.weight));
  let allowed = 1;
  while (allowed < room && own + allowed / chosen.weight <= bound + 1e-9) allowed++;
  return allowed;
}

/** Tasks taken at once from the flow `key` of `weight` (one unless a batch), to be charged. */
export interface Charge {
  key: string;
  weight: number;
  count?: number;
}

/** The schedule after the tasks of `charges` were taken, in that order. */
export function chargeAll(schedule: Schedule, charges: readonly Charge[]): Schedule {
  return charges.reduce((s, c) => charge(s, c.key, c.weight, c.count), schedule);
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
