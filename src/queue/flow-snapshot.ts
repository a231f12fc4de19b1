import type { JetStreamManager } from "@nats-io/jetstream";
import type { Plan } from "../config/plans.js";
import { tasksAhead } from "./fair-share.js";
import { flowKey, listFlows, type FlowState } from "./flows.js";

/** How long one consumers list answers the API's questions (depths, room, tasks ahead). */
const SNAPSHOT_MS = 250;
/** How long a question waits for a new list before the last one answers it. */
const SLOW_LIST_MS = 500;

/** Where a new task stands in its account's flow when admitted; kept in its record for the poll's queue_depth. */
export interface FlowMark {
  /** The account's tasks queued ahead of it. */
  ahead: number;
  /** The flow consumer's deliveries at that moment: later deliveries are tasks that left the queue ahead of it. */
  delivered: number;
}

/** What a submit needs to know about the queue: the busy checks' figures and the new task's place. */
export interface AdmissionRoom {
  plan: Plan;
  key: string;
  /** Tasks of every account waiting for a worker. */
  serviceDepth: number;
  /** This account's tasks waiting for a worker. */
  accountQueued: number;
  /** Tasks ahead of the new task under the fair order (the queued event's queue_depth). */
  ahead: number;
  mark: FlowMark;
}

interface Snapshot {
  at: number;
  flows: Map<string, FlowState>;
}

/**
 * The flows as one consumers list showed them, briefly cached (one list answers every submit and
 * poll of that moment), with this process's own admissions counted in meanwhile.
 */
export class FlowSnapshot {
  private snapshot: Snapshot | null = null;
  private reading: Promise<Snapshot> | null = null;

  constructor(private readonly jsm: JetStreamManager) {}

  private fresh(): Snapshot | null {
    return this.snapshot && Date.now() - this.snapshot.at < SNAPSHOT_MS ? this.snapshot : null;
  }

  private async current(): Promise<Snapshot> {
    const fresh = this.fresh();
    if (fresh) return fresh;
    this.reading ??= listFlows(this.jsm)
      .then((flows) => (this.snapshot = { at: Date.now(), flows: new Map(flows.map((f) => [f.key, f])) }))
      .finally(() => (this.reading = null));
    const last = this.snapshot;
    if (!last) return this.reading;
    // A list slow to come (on a cluster the server waits up to 4 s for a consumer that does not
    // answer, such as one just made) must not hold up submits and polls: the last one answers.
    let timer: NodeJS.Timeout | undefined;
    const timely = await Promise.race([
      this.reading.catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SLOW_LIST_MS))),
    ]);
    clearTimeout(timer);
    return timely ?? last;
  }

  /** Counts an admitted task into the snapshot rather than asking the server again. */
  admitted(key: string, plan: Plan): void {
    if (!this.snapshot) return;
    const flow = this.snapshot.flows.get(key) ?? emptyFlow(key, plan);
    flow.pending++;
    this.snapshot.flows.set(key, flow);
  }

  async serviceDepth(): Promise<number> {
    return sum(await this.current(), (f) => f.pending);
  }

  cachedServiceDepth(): number | null {
    const fresh = this.fresh();
    return fresh ? sum(fresh, (f) => f.pending) : null;
  }

  async inProgress(): Promise<number> {
    return sum(await this.current(), (f) => f.ackPending);
  }

  async room(owner: string, plan: Plan): Promise<AdmissionRoom> {
    return roomIn(await this.current(), owner, plan);
  }

  /** The room as of the cached snapshot, or null when it is not fresh. */
  cachedRoom(owner: string, plan: Plan): AdmissionRoom | null {
    const fresh = this.fresh();
    return fresh ? roomIn(fresh, owner, plan) : null;
  }

  /** Tasks ahead of a queued task of the flow `key`, given where it stood when admitted. */
  async aheadOf(key: string, mark: FlowMark | undefined): Promise<number> {
    const snapshot = await this.current();
    const own = snapshot.flows.get(key);
    if (!own) return 0;
    const left = mark ? mark.ahead - Math.max(0, own.delivered - mark.delivered) : own.pending - 1;
    const position = Math.max(0, Math.min(left, own.pending - 1)) + 1;
    return tasksAhead(position, own.weight, others(snapshot, key));
  }
}

function roomIn(snapshot: Snapshot, owner: string, plan: Plan): AdmissionRoom {
  const key = flowKey(owner);
  const own = snapshot.flows.get(key) ?? emptyFlow(key, plan);
  return {
    plan,
    key,
    serviceDepth: sum(snapshot, (f) => f.pending),
    accountQueued: own.pending,
    ahead: tasksAhead(own.pending + 1, plan.weight, others(snapshot, key)),
    mark: { ahead: own.pending, delivered: own.delivered },
  };
}

function others(snapshot: Snapshot, key: string): FlowState[] {
  return [...snapshot.flows.values()].filter((f) => f.key !== key && f.pending > 0);
}

function sum(snapshot: Snapshot, of: (f: FlowState) => number): number {
  let total = 0;
  for (const f of snapshot.flows.values()) total += of(f);
  return total;
}

function emptyFlow(key: string, plan: Plan): FlowState {
  return {
    key,
    consumer: "",
    plan: plan.name,
    weight: plan.weight,
    pending: 0,
    ackPending: 0,
    maxAckPending: plan.maxSolving,
    delivered: 0,
  };
}
