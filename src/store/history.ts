import type { KV, KvEntry } from "@nats-io/kv";
import type { ObjectStore } from "@nats-io/obj";
import { isKeyExists, isWrongLastSequence, type TaskRecord, type TaskState } from "../queue/task-store.js";

/** One line of an account's planning history; outlives the task record (its own retention). */
export interface HistoryEntry {
  request_id: string;
  name: string | null;
  submitted_at: string;
  /** "deleted": the result and request were removed on the caller's request; the entry stays. */
  state: TaskState | "deleted";
  node_num: number;
  vehicle_num: number;
  objective: "min_total_distance" | "min_total_cost" | "min_vehicles";
  total_cost: number | null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const MAX_MS = 9_999_999_999_999;
/** The shape of an entry key, which a cursor encodes: `h.<owner hex>.<inverted time>.<task id>`. */
const CURSOR_KEY = /^h\.[0-9a-f]+\.\d{13}\.[0-9a-f-]{36}$/;

function ownerHex(owner: string): string {
  return Buffer.from(owner, "utf8").toString("hex");
}

/** Inverted submission time first, so sorting keys ascending lists the newest task first. */
function entryKey(owner: string, submittedAt: string, id: string): string {
  const inverted = String(MAX_MS - Date.parse(submittedAt)).padStart(13, "0");
  return `h.${ownerHex(owner)}.${inverted}.${id}`;
}

function entryOf(task: TaskRecord): HistoryEntry {
  return {
    request_id: task.id,
    name: task.name,
    submitted_at: task.submittedAt,
    state: task.state,
    node_num: task.nodeNum,
    vehicle_num: task.vehicleNum,
    objective: task.objective,
    total_cost: null,
  };
}

function resultObjectName(id: string): string {
  return `${id}.result`;
}

/** The download's request and final body in one value (a request that came inside the task message). */
function downloadName(id: string): string {
  return `${id}.download`;
}

/** What the history keeps of a finished task for its download; `request` undefined when kept apart (the request-body bucket). */
export interface KeptDownload {
  request?: unknown;
  result: unknown;
}

/**
 * Final bodies up to this size are kept as one KV value (one write, one read); larger ones in the
 * object store, which chunks them (an existence read, then chunk and metadata writes).
 */
const INLINE_FINAL_BODY_LIMIT = 768 * 1024;

/**
 * A finished task whose kept download is at most this size keeps the entry its submit wrote: the
 * listing reads the state and cost from that download (small enough to read with the entry), so
 * a small task's entry is written once. Larger ones have their entry updated.
 */
const STATE_FROM_DOWNLOAD_LIMIT = 16 * 1024;

/** Entries a listing reads at once. */
const LIST_READS_AT_ONCE = 16;

/** Whether a read found a value (not a deletion, not nothing). */
function isStored(e: KvEntry | null): e is KvEntry {
  return e !== null && e.operation === "PUT" && e.length > 0;
}

/** Whether an entry's stored state may be behind its task's (the final state is then read from the kept download). */
function mayBeFinishedElsewhere(entry: HistoryEntry): boolean {
  return entry.state === "queued" || entry.state === "solving";
}

/** The state and cost a final poll body (taskEnvelope) shows, or null when it is not a final body. */
function finalStateOf(body: unknown): Pick<HistoryEntry, "state" | "total_cost"> | null {
  if (typeof body !== "object" || body === null) return null;
  const { success, result } = body as { success?: unknown; result?: { status?: unknown; total_cost?: unknown } | null };
  if (success === false) return { state: "failed", total_cost: null };
  if (success !== true || (result && result.status === "processing")) return null;
  return { state: "solved", total_cost: typeof result?.total_cost === "number" ? result.total_cost : null };
}

export class HistoryStore {
  constructor(
    private readonly kv: KV,
    private readonly blobs: ObjectStore,
    /**
     * Where small final bodies are kept (the request-body bucket, whose retention is the
     * history's): two NATS messages and two dependent round trips less per task than
     * the object store. Bodies kept in the object store before (or too large) are still found there.
     */
    private readonly smallBlobs: KV,
  ) {}

  /**
   * Writes a new task's entry, with `create`: the worker may have written the finished entry
   * first (TaskRunner's bookkeeping repairs a missing one), and that must not be overwritten.
   */
  async record(task: TaskRecord): Promise<void> {
    await this.createEntry(entryKey(task.owner, task.submittedAt, task.id), entryOf(task));
  }

  /**
   * Writes an entry only where its key has never held one; false when one exists. A put that
   * expects no earlier revision, rather than the client's `create`, which reads the key back
   * after every refusal: a task that finishes before its submit's entry is written (the worker
   * then writes it) cost that read on the submit's side. An entry key is never deleted (a
   * deletion is a state), so a key's deletion marker, which `create` would write over, never occurs.
   */
  private async createEntry(key: string, entry: HistoryEntry): Promise<boolean> {
    try {
      await this.kv.put(key, encoder.encode(JSON.stringify(entry)), { previousSeq: 0 });
      return true;
    } catch (err) {
      if (isKeyExists(err)) return false;
      throw err;
    }
  }

  /**
   * Updates state and cost, and keeps the final poll body so the download outlives the result TTL.
   * `requestJson`: the request as received, when no submit stored it (it came inside the task
   * message); kept with the final body in the same write, so reopening a task costs no extra write.
   */
  async finish(task: TaskRecord, finalBody: unknown, requestJson: string | null = null): Promise<void> {
    if (task.channel !== "direct") return;
    const keptBytes = await this.keepDownload(task.id, finalBody, requestJson);
    const key = entryKey(task.owner, task.submittedAt, task.id);
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await this.kv.get(key);
      if (!isStored(current)) {
        // Repair: an entry lost in a failover is written again from the task, so the
        // history lists every task. `create`, so a concurrent writer is not overwritten.
        if (await this.createEntry(key, { ...entryOf(task), total_cost: task.result?.total_cost ?? null })) return;
        continue;
      }
      const entry = JSON.parse(decoder.decode(current.value)) as HistoryEntry;
      if (entry.state === task.state && entry.total_cost === (task.result?.total_cost ?? null)) return;
      // Deleted meanwhile (markDeleted runs before removeFinalBody): take the copy back out.
      if (entry.state === "deleted") return this.removeFinalBody(task.id);
      // The listing reads this entry's final state from the download just kept.
      if (mayBeFinishedElsewhere(entry) && keptBytes <= STATE_FROM_DOWNLOAD_LIMIT) return;
      const next: HistoryEntry = { ...entry, state: task.state, total_cost: task.result?.total_cost ?? null };
      try {
        await this.kv.update(key, encoder.encode(JSON.stringify(next)), current.revision);
        return;
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
      }
    }
    throw new Error(`history entry of ${task.id}: too many concurrent updates`);
  }

  /** Keeps the download; resolves with the size of the value that holds the final body. */
  private async keepDownload(id: string, finalBody: unknown, requestJson: string | null): Promise<number> {
    const resultJson = JSON.stringify(finalBody);
    if (requestJson !== null) {
      // Both are JSON texts already: joined as text rather than parsed and serialised again.
      const both = encoder.encode(`{"request":${requestJson},"result":${resultJson}}`);
      if (both.length <= INLINE_FINAL_BODY_LIMIT) {
        await this.smallBlobs.put(downloadName(id), both);
        return both.length;
      }
      await this.smallBlobs.put(id, encoder.encode(requestJson));
    }
    const bytes = encoder.encode(resultJson);
    if (bytes.length <= INLINE_FINAL_BODY_LIMIT) await this.smallBlobs.put(resultObjectName(id), bytes);
    else await this.blobs.putBlob({ name: resultObjectName(id) }, bytes);
    return bytes.length;
  }

  /**
   * The entry as the caller sees it: one whose task finished without updating it (a small
   * download, STATE_FROM_DOWNLOAD_LIMIT) takes its state and cost from that download.
   */
  private async withFinalState(entry: HistoryEntry): Promise<HistoryEntry> {
    if (!mayBeFinishedElsewhere(entry)) return entry;
    const small = (e: KvEntry | null): e is KvEntry => isStored(e) && e.length <= STATE_FROM_DOWNLOAD_LIMIT;
    // The request and result kept together, or (without the request) the result alone.
    const both = await this.smallBlobs.get(downloadName(entry.request_id));
    let body: unknown = null;
    if (isStored(both)) {
      if (small(both)) body = (JSON.parse(decoder.decode(both.value)) as KeptDownload).result;
    } else {
      const result = await this.smallBlobs.get(resultObjectName(entry.request_id));
      if (small(result)) body = JSON.parse(decoder.decode(result.value)) as unknown;
    }
    const final = finalStateOf(body);
    return final ? { ...entry, ...final } : entry;
  }

  async setState(task: TaskRecord): Promise<void> {
    if (task.channel !== "direct") return;
    const key = entryKey(task.owner, task.submittedAt, task.id);
    const current = await this.kv.get(key);
    if (!isStored(current)) return;
    const entry = JSON.parse(decoder.decode(current.value)) as HistoryEntry;
    if (entry.state === "deleted") return;
    await this.kv.update(key, encoder.encode(JSON.stringify({ ...entry, state: task.state })), current.revision).catch(() => undefined);
  }

  /** Whether `cursor` is a `next_cursor` this store handed out for `owner`'s history. */
  isCursorOf(owner: string, cursor: string): boolean {
    const key = Buffer.from(cursor, "base64url").toString("utf8");
    return CURSOR_KEY.test(key) && key.startsWith(`h.${ownerHex(owner)}.`) && Buffer.from(key, "utf8").toString("base64url") === cursor;
  }

  /**
   * Marks the entry of a deleted result (data removal); the entry itself stays. Call before
   * removeFinalBody, so a worker finishing at the same moment sees the mark and removes its copy.
   */
  async markDeleted(task: TaskRecord): Promise<void> {
    if (task.channel !== "direct") return;
    const key = entryKey(task.owner, task.submittedAt, task.id);
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await this.kv.get(key);
      if (!isStored(current)) return;
      const entry = JSON.parse(decoder.decode(current.value)) as HistoryEntry;
      try {
        await this.kv.update(key, encoder.encode(JSON.stringify({ ...entry, state: "deleted" })), current.revision);
        return;
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
      }
    }
    throw new Error(`history entry of ${task.id}: too many concurrent updates`);
  }

  /** Removes the copy of the final poll body (and a request kept with it) for the download, wherever it was kept. */
  async removeFinalBody(id: string): Promise<void> {
    await Promise.all([
      this.smallBlobs.purge(resultObjectName(id)),
      this.smallBlobs.purge(downloadName(id)),
      this.blobs.delete(resultObjectName(id)).catch((err: unknown) => {
        if (!/not found/i.test(err instanceof Error ? err.message : String(err))) throw err;
      }),
    ]);
  }

  /** Newest first; the cursor is opaque to callers (the last key of the previous page). */
  async list(owner: string, limit: number, cursor: string | null): Promise<{ items: HistoryEntry[]; nextCursor: string | null }> {
    const prefix = `h.${ownerHex(owner)}.`;
    const keys: string[] = [];
    for await (const k of await this.kv.keys(`${prefix}>`)) keys.push(k);
    keys.sort();
    const after = cursor === null ? null : Buffer.from(cursor, "base64url").toString("utf8");
    const start = after === null ? 0 : keys.findIndex((k) => k > after);
    const page = start < 0 ? [] : keys.slice(start, start + limit);
    const items: HistoryEntry[] = [];
    // A few entries at a time: each may take a second read (its final state from the download).
    for (let i = 0; i < page.length; i += LIST_READS_AT_ONCE) {
      const read = await Promise.all(
        page.slice(i, i + LIST_READS_AT_ONCE).map(async (k) => {
          const e = await this.kv.get(k);
          return isStored(e) ? this.withFinalState(JSON.parse(decoder.decode(e.value)) as HistoryEntry) : null;
        }),
      );
      for (const entry of read) if (entry) items.push(entry);
    }
    const last = page[page.length - 1];
    const more = start >= 0 && start + limit < keys.length;
    return { items, nextCursor: more && last ? Buffer.from(last, "utf8").toString("base64url") : null };
  }

  async find(owner: string, id: string): Promise<HistoryEntry | null> {
    for await (const k of await this.kv.keys(`h.${ownerHex(owner)}.*.${id}`)) {
      const e = await this.kv.get(k);
      if (isStored(e)) return this.withFinalState(JSON.parse(decoder.decode(e.value)) as HistoryEntry);
    }
    return null;
  }

  /** The final body kept for the download, with the request when it was kept alongside; null when none is kept. */
  async keptDownload(id: string): Promise<KeptDownload | null> {
    const both = await this.smallBlobs.get(downloadName(id));
    if (isStored(both)) return JSON.parse(decoder.decode(both.value)) as KeptDownload;
    const result = await this.finalBody(id);
    return result === null ? null : { result };
  }

  async finalBody(id: string): Promise<unknown | null> {
    const small = await this.smallBlobs.get(resultObjectName(id));
    if (isStored(small)) return JSON.parse(decoder.decode(small.value)) as unknown;
    const blob = await this.blobs.getBlob(resultObjectName(id));
    return blob ? (JSON.parse(decoder.decode(blob)) as unknown) : null;
  }
}
