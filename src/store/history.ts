import type { KV } from "@nats-io/kv";
import type { ObjectStore } from "@nats-io/obj";
import { isKeyExists, isWrongLastSequence, type TaskRecord, type TaskState } from "../queue/task-store.js";
import { HistoryDownloads, isStored, type KeptDownload } from "./history-downloads.js";

export type { KeptDownload };

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

/**
 * A finished task whose kept download is at most this size keeps the entry its submit wrote: the
 * listing reads the state and cost from that download (small enough to read with the entry), so
 * a small task's entry is written once. Larger ones have their entry updated.
 */
const STATE_FROM_DOWNLOAD_LIMIT = 16 * 1024;

/** Entries a listing reads at once. */
const LIST_READS_AT_ONCE = 16;

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
  private readonly downloads: HistoryDownloads;

  constructor(
    private readonly kv: KV,
    blobs: ObjectStore,
    /** Where small final bodies are kept (HistoryDownloads). */
    smallBlobs: KV,
  ) {
    this.downloads = new HistoryDownloads(blobs, smallBlobs);
  }

  /**
   * Writes a new task's entry, with `create`: the worker may have written the finished entry
   * first (TaskRunner's bookkeeping repairs a missing one), and that must not be overwritten.
   * Resolves true when this write stored it.
   */
  async record(task: TaskRecord): Promise<boolean> {
    return this.createEntry(entryKey(task.owner, task.submittedAt, task.id), entryOf(task));
  }

  /**
   * Removes the entry of a submit that was given up before its task could run (written ahead of
   * its commit): the task never existed, so neither does its line in the history.
   */
  async forget(task: TaskRecord): Promise<void> {
    if (task.channel !== "direct") return;
    await this.kv.purge(entryKey(task.owner, task.submittedAt, task.id));
  }

  /** As forget, for a task known by its owner and id only (a pending admission settled by a repeat). */
  async forgetAbandoned(owner: string, id: string): Promise<void> {
    const keys: string[] = [];
    for await (const k of await this.kv.keys(`h.${ownerHex(owner)}.*.${id}`)) keys.push(k);
    await Promise.all(keys.map((k) => this.kv.purge(k)));
  }

  /**
   * Writes an entry only where its key has never held one; false when one exists. A put that
   * expects no earlier revision, rather than the client's `create`, which reads the key back
   * after every refusal: a task that finishes before its submit's entry is written (the worker
   * then writes it) cost that read on the submit's side. An entry key is deleted only for a task
   * that never ran (forget), so a key's deletion marker, which `create` would write over, is
   * never one this write should pass.
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
   *
   * `entryWritten`: the submit stored the entry before committing the task (the task message
   * says so). A small download is then kept with one write and the entry is left as it is: the
   * listing reads the final state from that download, the entry needs no repair, and a deletion
   * needs no check, since the download is written only where its key never held a value and a
   * deletion purges that key (markDeleted, then removeFinalBody) before or after it.
   */
  async finish(task: TaskRecord, finalBody: unknown, requestJson: string | null = null, entryWritten = false): Promise<void> {
    if (task.channel !== "direct") return;
    const kept = await this.downloads.keep(task.id, finalBody, requestJson, entryWritten);
    if (entryWritten && kept.inKv && kept.bytes <= STATE_FROM_DOWNLOAD_LIMIT) return;
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
      if (mayBeFinishedElsewhere(entry) && kept.bytes <= STATE_FROM_DOWNLOAD_LIMIT) return;
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

  /**
   * The entry as the caller sees it: one whose task finished without updating it (a small
   * download, STATE_FROM_DOWNLOAD_LIMIT) takes its state and cost from that download.
   */
  private async withFinalState(entry: HistoryEntry): Promise<HistoryEntry> {
    if (!mayBeFinishedElsewhere(entry)) return entry;
    const final = finalStateOf(await this.downloads.smallResult(entry.request_id, STATE_FROM_DOWNLOAD_LIMIT));
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
  removeFinalBody(id: string): Promise<void> {
    return this.downloads.remove(id);
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
  keptDownload(id: string): Promise<KeptDownload | null> {
    return this.downloads.kept(id);
  }

  finalBody(id: string): Promise<unknown | null> {
    return this.downloads.finalBody(id);
  }
}
