import type { KV } from "@nats-io/kv";
import type { Infeasibility } from "../problem/diagnostics.js";
import type { SolvedResultObject } from "../problem/solve-request.js";

export type TaskState = "queued" | "solving" | "solved" | "failed";
export type Channel = "direct" | "marketplace";

export interface CallbackRecord {
  /** "sending" is written before the POST, so a redelivered task never sends a second callback. */
  state: "sending" | "done";
  outcome?: string;
  httpStatus?: number;
  reason?: string;
  at: string;
}

/** The task's state machine as stored in the task bucket (whose TTL is the result lifetime). */
export interface TaskRecord {
  id: string;
  owner: string;
  channel: Channel;
  state: TaskState;
  submittedAt: string;
  updatedAt: string;
  name: string | null;
  nodeNum: number;
  vehicleNum: number;
  objective: "min_total_distance" | "min_total_cost";
  timeLimitSeconds: number;
  strategy: string | null;
  callbackUrl: string | null;
  /**
   * Solves started and not handed back: a worker crash or hang leaves one behind. Counted here
   * rather than from JetStream's delivery count, which also grows when a worker gives a task back
   * on a broker error (a NATS node failing over) before it starts solving.
   */
  solveAttempts: number;
  /** The search's seed: the request's, or one the API picked at submit (so a redelivery repeats it). */
  seed?: number;
  /**
   * When the result expires: the last change of state plus the bucket's TTL (set by TaskStore).
   * Later bookkeeping writes re-arm the TTL without moving this, so it is never later than the real expiry.
   */
  expiresAt?: string;
  result?: SolvedResultObject;
  error?: string;
  code?: "no_feasible_solution" | "task_failed" | "cancelled";
  /** Set once the caller asked to cancel (issue 13); a worker that takes the task stops at once. */
  cancelRequested?: boolean;
  diagnostics?: string[];
  infeasibilities?: Infeasibility[];
  callback?: CallbackRecord;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class TaskStore {
  /** `ttlMs`: the bucket's TTL, to stamp each record with its expiry (0: leave it unstamped). */
  constructor(
    private readonly kv: KV,
    private readonly ttlMs = 0,
  ) {}

  /** Every write re-arms the bucket's TTL for the key: the expiry is counted from a write. */
  private stamp(task: TaskRecord): void {
    if (this.ttlMs > 0) task.expiresAt = new Date(Date.parse(task.updatedAt) + this.ttlMs).toISOString();
  }

  /** Removes a record and its history at once (data removal), leaving no value behind. */
  async purge(id: string): Promise<void> {
    await this.kv.purge(id);
  }

  /**
   * Writes a new task's first record. A plain put, not KV `create`: the id is a fresh UUIDv4
   * (122 random bits), so the insert-if-absent check could never fail, and it costs the server a
   * per-key sequence lookup on every submit.
   */
  async create(task: TaskRecord): Promise<void> {
    this.stamp(task);
    await this.kv.put(task.id, encoder.encode(JSON.stringify(task)));
  }

  async get(id: string): Promise<TaskRecord | null> {
    const entry = await this.kv.get(id);
    if (!entry || entry.operation !== "PUT" || entry.length === 0) return null;
    return JSON.parse(decoder.decode(entry.value)) as TaskRecord;
  }

  /**
   * Compare-and-set update: `change` sees the current record and returns the next one, or null to
   * leave it alone. Retries on a concurrent write, so two workers cannot both move the same task.
   */
  async update(id: string, change: (current: TaskRecord) => TaskRecord | null): Promise<TaskRecord | null> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const entry = await this.kv.get(id);
      if (!entry || entry.operation !== "PUT" || entry.length === 0) return null;
      const current = JSON.parse(decoder.decode(entry.value)) as TaskRecord;
      const next = change(current);
      if (next === null) return current;
      next.updatedAt = new Date().toISOString();
      // Bookkeeping writes (the callback's record) keep the stamp, so the final poll body and the
      // callback agree; they only push the real expiry a little later than the one announced.
      if (next.state !== current.state || next.expiresAt === undefined) this.stamp(next);
      try {
        await this.kv.update(id, encoder.encode(JSON.stringify(next)), entry.revision);
        return next;
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
      }
    }
    throw new Error(`task ${id}: too many concurrent updates`);
  }
}

export function isWrongLastSequence(err: unknown): boolean {
  return err instanceof Error && /wrong last sequence/i.test(err.message);
}
