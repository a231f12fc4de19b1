import type { KV, KvEntry } from "@nats-io/kv";
import type { ObjectStore } from "@nats-io/obj";
import { isKeyExists } from "../queue/task-store.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Final bodies up to this size are kept as one KV value (one write, one read); larger ones in the
 * object store, which chunks them (an existence read, then chunk and metadata writes).
 */
const INLINE_FINAL_BODY_LIMIT = 768 * 1024;

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

/** Where a download was kept: the size of the value holding the final body, and whether it is a KV value. */
export interface KeptPlace {
  bytes: number;
  inKv: boolean;
}

/** Whether a read found a value (not a deletion, not nothing). */
export function isStored(e: KvEntry | null): e is KvEntry {
  return e !== null && e.operation === "PUT" && e.length > 0;
}

/**
 * The history's copy of a finished task's request and final poll body, which outlives the task
 * record (the download reopens a task from the history).
 */
export class HistoryDownloads {
  constructor(
    private readonly blobs: ObjectStore,
    /**
     * Where small final bodies are kept (the request-body bucket, whose retention is the
     * history's): two NATS messages and two dependent round trips less per task than
     * the object store. Bodies kept in the object store before (or too large) are still found there.
     */
    private readonly smallBlobs: KV,
  ) {}

  /**
   * Keeps the download. `requestJson`: the request as received, when no submit stored it (it came
   * inside the task message); kept with the final body in the same write. With `firstOnly`, a
   * KV value is written only where its key never held one: a deletion of the result purges the
   * key, leaving a marker that refuses a copy arriving after it, and a repeated write (a
   * redelivery) is refused as a copy already kept. The object store has no such condition.
   */
  async keep(id: string, finalBody: unknown, requestJson: string | null, firstOnly = false): Promise<KeptPlace> {
    const resultJson = JSON.stringify(finalBody);
    if (requestJson !== null) {
      // Both are JSON texts already: joined as text rather than parsed and serialised again.
      const both = encoder.encode(`{"request":${requestJson},"result":${resultJson}}`);
      if (both.length <= INLINE_FINAL_BODY_LIMIT) {
        await this.put(downloadName(id), both, firstOnly);
        return { bytes: both.length, inKv: true };
      }
      await this.smallBlobs.put(id, encoder.encode(requestJson));
    }
    const bytes = encoder.encode(resultJson);
    if (bytes.length > INLINE_FINAL_BODY_LIMIT) {
      await this.blobs.putBlob({ name: resultObjectName(id) }, bytes);
      return { bytes: bytes.length, inKv: false };
    }
    await this.put(resultObjectName(id), bytes, firstOnly);
    return { bytes: bytes.length, inKv: true };
  }

  private async put(key: string, value: Uint8Array, firstOnly: boolean): Promise<void> {
    try {
      await this.smallBlobs.put(key, value, firstOnly ? { previousSeq: 0 } : undefined);
    } catch (err) {
      if (!firstOnly || !isKeyExists(err)) throw err;
    }
  }

  /** The final body kept for the download, when it is stored as a KV value of at most `maxBytes`; null otherwise. */
  async smallResult(id: string, maxBytes: number): Promise<unknown> {
    const small = (e: KvEntry | null): e is KvEntry => isStored(e) && e.length <= maxBytes;
    // The request and result kept together, or (without the request) the result alone.
    const both = await this.smallBlobs.get(downloadName(id));
    if (isStored(both)) return small(both) ? (JSON.parse(decoder.decode(both.value)) as KeptDownload).result : null;
    const result = await this.smallBlobs.get(resultObjectName(id));
    return small(result) ? (JSON.parse(decoder.decode(result.value)) as unknown) : null;
  }

  /** Removes the copy of the final poll body (and a request kept with it), wherever it was kept. */
  async remove(id: string): Promise<void> {
    await Promise.all([
      this.smallBlobs.purge(resultObjectName(id)),
      this.smallBlobs.purge(downloadName(id)),
      this.blobs.delete(resultObjectName(id)).catch((err: unknown) => {
        if (!/not found/i.test(err instanceof Error ? err.message : String(err))) throw err;
      }),
    ]);
  }

  /** The final body kept for the download, with the request when it was kept alongside; null when none is kept. */
  async kept(id: string): Promise<KeptDownload | null> {
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
