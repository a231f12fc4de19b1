import type { KV } from "@nats-io/kv";
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
  result?: SolvedResultObject;
  error?: string;
  code?: "no_feasible_solution" | "task_failed" | "cancelled";
  /** Set once the caller asked to cancel (issue 13); a worker that takes the task stops at once. */
  cancelRequested?: boolean;
  diagnostics?: string[];
  callback?: CallbackRecord;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class TaskStore {
  constructor(private readonly kv: KV) {}

  /**
   * Writes a new task's first record. A plain put, not KV `create`: the id is a fresh UUIDv4
   * (122 random bits), so the insert-if-absent check could never fail, and it costs the server a
   * per-key sequence lookup on every submit.
   */
  async create(task: TaskRecord): Promise<void> {
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
