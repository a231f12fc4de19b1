import type { FlowMark } from "./flow-snapshot.js";
import type { KV } from "@nats-io/kv";
import type { Infeasibility } from "../problem/diagnostics.js";
import type { SolvedResultObject } from "../problem/solve-request.js";

export type TaskState = "queued" | "solving" | "solved" | "failed";
export type Channel = "direct" | "marketplace";

export interface CallbackRecord {
  /** "sending" is written before the POST, so a redelivered task never sends a second callback. */
  state: "sending" | "done";
  /** The sending attempt's token: a claim whose write answered an error is recognised as ours. */
  by?: string;
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
  objective: "min_total_distance" | "min_total_cost" | "min_vehicles";
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
  /** Where the task stood in its account's flow when admitted (for the poll's queue_depth); none on the legacy subject. */
  flowMark?: FlowMark;
  /**
   * When the result expires: the last change of state plus the bucket's TTL (set by TaskStore).
   * Later bookkeeping writes re-arm the TTL without moving this, so it is never later than the real expiry.
   */
  expiresAt?: string;
  result?: SolvedResultObject;
  error?: string;
  code?: "no_feasible_solution" | "strategy_declined" | "task_failed" | "cancelled";
  /** Set once the caller asked to cancel; a worker that takes the task stops at once. */
  cancelRequested?: boolean;
  diagnostics?: string[];
  infeasibilities?: Infeasibility[];
  callback?: CallbackRecord;
}

/** Solved or failed: the task's state will not change again. */
export function isFinished(task: TaskRecord | null): task is TaskRecord {
  return task !== null && (task.state === "solved" || task.state === "failed");
}

/** What a given-up admission leaves under the task's key, so that it can never be admitted later. */
interface Tombstone {
  abandoned: true;
  at: string;
}

export type StoredTask = { kind: "live"; record: TaskRecord; revision: number } | { kind: "abandoned" } | { kind: "missing" };

/** The admission lost against a tombstone: the submit must answer an error, and no task exists. */
export class AdmissionAbandoned extends Error {
  constructor(id: string) {
    super(`task ${id}: its admission was given up before it completed`);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * After a `create` answered "exists", the entry is read back to see whose it is. Right after a
 * leader change that read can still answer "missing" for the entry the create just ran into
 * (seen in the fault suite with the task bucket's leader killed: a submit took the missing
 * answer for its own tombstone, answered 503, and its record was left `queued` with its message
 * dropped). So a missing answer is asked again, for up to about 5 s, and never taken as a verdict.
 */
const TAKEN_READ_ATTEMPTS = 20;
const TAKEN_READ_PAUSE_MS = 250;

/** The key's entry could not be read back although a `create` found it taken: nothing is known. */
export class EntryUnsettled extends Error {
  constructor(id: string) {
    super(`task ${id}: its key is taken but no read finds the entry`);
  }
}

/** Finds the first record of a task that so far exists only as its committed message (TaskEvents.queuedRecord). */
export type QueuedRecordLookup = (id: string) => Promise<TaskRecord | null>;

/** A record known only from its committed message: not stored yet, so its first write is a `create`. */
export const NOT_STORED = 0;

export class TaskStore {
  /**
   * `ttlMs`: the bucket's TTL, to stamp each record with its expiry (0: leave it unstamped).
   * `queuedRecord`: where a task committed as a message alone is found before any record exists.
   */
  constructor(
    private readonly kv: KV,
    private readonly ttlMs = 0,
    private readonly queuedRecord: QueuedRecordLookup | null = null,
  ) {}

  /** Every write re-arms the bucket's TTL for the key: the expiry is counted from a write. */
  private stamp(task: TaskRecord): void {
    if (this.ttlMs > 0) task.expiresAt = new Date(Date.parse(task.updatedAt) + this.ttlMs).toISOString();
  }

  /** Stamps a new record's expiry as its first write would (a task committed as a message has none yet). */
  stampNew(task: TaskRecord): void {
    this.stamp(task);
  }

  /** Removes a record and its history at once (data removal), leaving no value behind. */
  async purge(id: string): Promise<void> {
    await this.kv.purge(id);
  }

  /**
   * Admits a task: writes its first record with KV `create` (insert if absent). This write is the
   * commit point of a submit: a worker runs only a task whose record exists, and whoever
   * gives up on an admission (the API on a failure, a worker after the admission deadline) writes
   * a tombstone under the same key with `create` too, so exactly one of "admitted" and "abandoned"
   * wins. Resolves with the record's revision; throws AdmissionAbandoned if the tombstone won.
   */
  async admit(task: TaskRecord): Promise<number> {
    this.stamp(task);
    try {
      return await this.kv.create(task.id, encoder.encode(JSON.stringify(task)));
    } catch (err) {
      // "exists": our own create landed before (its answer was lost) or a tombstone was first.
      if (!isKeyExists(err)) throw err;
      const found = await this.readTaken(task.id);
      if (found.kind === "live") return found.revision;
      throw new AdmissionAbandoned(task.id);
    }
  }

  /**
   * Marks an admission as given up so that it can never complete: true when the tombstone was
   * written or was there already, false when the task was admitted first.
   */
  async abandon(id: string): Promise<boolean> {
    try {
      await this.kv.create(id, encoder.encode(JSON.stringify({ abandoned: true, at: new Date().toISOString() } satisfies Tombstone)));
      return true;
    } catch (err) {
      if (!isKeyExists(err)) throw err;
      return (await this.readTaken(id)).kind !== "live";
    }
  }

  /** The entry a `create` found under `id`: a record or a tombstone, never "missing" (see TAKEN_READ_ATTEMPTS). */
  async readTaken(id: string): Promise<StoredTask> {
    for (let attempt = 0; attempt < TAKEN_READ_ATTEMPTS; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, TAKEN_READ_PAUSE_MS));
      const found = await this.read(id);
      if (found.kind !== "missing") return found;
    }
    throw new EntryUnsettled(id);
  }

  /** The record with its revision, a tombstone (admission given up), or nothing (not yet, or no more). */
  async read(id: string): Promise<StoredTask> {
    const entry = await this.kv.get(id);
    if (!entry || entry.operation !== "PUT" || entry.length === 0) return { kind: "missing" };
    const value = JSON.parse(decoder.decode(entry.value)) as TaskRecord | Tombstone;
    if ("abandoned" in value) return { kind: "abandoned" };
    return { kind: "live", record: value, revision: entry.revision };
  }

  /**
   * The task's record; null when there is none or its admission was given up (never a task). A
   * task committed as a message alone (task-message.ts) is found through its `queued` event.
   */
  async get(id: string): Promise<TaskRecord | null> {
    return (await this.readOrQueued(id))?.record ?? null;
  }

  /**
   * The stored record, else the first record of a task that exists only as its message (revision
   * NOT_STORED), else null. The record is read again when the event has no record: a worker may
   * have written it (and acknowledged the message) between the two reads.
   */
  async readOrQueued(id: string): Promise<{ record: TaskRecord; revision: number } | null> {
    const found = await this.read(id);
    if (found.kind === "live") return found;
    if (found.kind === "abandoned" || !this.queuedRecord) return null;
    const queued = await this.queuedRecord(id);
    if (queued) return { record: queued, revision: NOT_STORED };
    const again = await this.read(id);
    return again.kind === "live" ? again : null;
  }

  /**
   * Compare-and-set update: `change` sees the current record and returns the next one, or null to
   * leave it alone. Retries on a concurrent write, so two workers cannot both move the same task.
   */
  async update(id: string, change: (current: TaskRecord) => TaskRecord | null): Promise<TaskRecord | null> {
    return (await this.updateKnown(id, null, change))?.record ?? null;
  }

  /**
   * As `update`, starting from a record and revision the caller has just read or written, which
   * saves the read when nobody wrote in between (the worker's path: one round trip per change).
   * Resolves with the record now stored and its revision (unchanged when `change` said null), or
   * null when there is no live record.
   */
  async updateKnown(
    id: string,
    known: { record: TaskRecord; revision: number } | null,
    change: (current: TaskRecord) => TaskRecord | null,
  ): Promise<{ record: TaskRecord; revision: number } | null> {
    let current = known;
    for (let attempt = 0; attempt < 20; attempt++) {
      if (!current) {
        current = await this.readOrQueued(id);
        if (!current) return null;
      }
      const next = change(current.record);
      if (next === null) return current;
      next.updatedAt = new Date().toISOString();
      // Bookkeeping writes (the callback's record) keep the stamp, so the final poll body and the
      // callback agree; they only push the real expiry a little later than the one announced.
      if (next.state !== current.record.state || next.expiresAt === undefined) this.stamp(next);
      try {
        const bytes = encoder.encode(JSON.stringify(next));
        // The first write of a task committed as a message: whoever writes first wins, and a
        // tombstone written by a submit that gave up wins over every later write.
        const revision =
          current.revision === NOT_STORED ? await this.kv.create(id, bytes) : await this.kv.update(id, bytes, current.revision);
        return { record: next, revision };
      } catch (err) {
        const created = current.revision === NOT_STORED;
        if (!(created ? isKeyExists(err) : isWrongLastSequence(err))) throw err;
        current = null;
        if (created) {
          // The key was taken: read back what is there (a stale "missing" is asked again).
          const taken = await this.readTaken(id);
          if (taken.kind !== "live") return null;
          current = taken;
        }
      }
    }
    throw new Error(`task ${id}: too many concurrent updates`);
  }
}

export function isWrongLastSequence(err: unknown): boolean {
  return err instanceof Error && /wrong last sequence/i.test(err.message);
}

/** A KV `create` on a key that exists (the server's wording varies by version). */
export function isKeyExists(err: unknown): boolean {
  return isWrongLastSequence(err) || /exists/i.test(err instanceof Error ? err.message : String(err));
}
