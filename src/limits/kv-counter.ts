import type { KV } from "@nats-io/kv";
import { isWrongLastSequence } from "../queue/task-store.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type CounterResult = { ok: true; value: number } | { ok: false; value: number };

interface Pending {
  delta: number;
  limit: number;
  resolve(result: CounterResult): void;
  reject(err: unknown): void;
}

/** What this process last wrote or read for a key; `revision` null means the key never existed. */
interface Known {
  value: number;
  revision: number | null;
}

/** Known revisions are only a shortcut (a wrong one costs a re-read), so the map is simply emptied when it grows. */
const MAX_KNOWN_KEYS = 10_000;
const MAX_ATTEMPTS = 500;

/**
 * A counter in NATS KV changed only by compare-and-set, so it stays exact under concurrency and
 * across API instances: `add` succeeds only if the new value stays within [0, limit].
 *
 * Two things keep it cheap under load. Concurrent `add`s on one key in this process are applied
 * as one batch with a single compare-and-set (in arrival order, each checked against its own
 * limit), so they do not collide with each other. And the revision this process last wrote is
 * remembered, so the write goes out without a read first; if another instance wrote in between,
 * the compare-and-set fails, and the batch is re-read and applied again.
 */
export class KvCounter {
  /** Per key: the adds waiting for the batch after the one in flight. Present while a batch runs. */
  private readonly waiting = new Map<string, Pending[]>();
  private readonly known = new Map<string, Known>();

  constructor(private readonly kv: KV) {}

  /** The value this process last wrote or read for `key`, if it remembers one (no round trip). */
  lastKnown(key: string): number | null {
    return this.known.get(key)?.value ?? null;
  }

  async read(key: string): Promise<number> {
    return (await this.fetch(key)).value;
  }

  add(key: string, delta: number, limit: number): Promise<CounterResult> {
    return new Promise<CounterResult>((resolve, reject) => {
      const pending: Pending = { delta, limit, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(pending);
        return;
      }
      this.waiting.set(key, [pending]);
      void this.drain(key);
    });
  }

  /** Applies the waiting adds batch by batch until none are left. */
  private async drain(key: string): Promise<void> {
    for (;;) {
      const batch = this.waiting.get(key);
      if (!batch || batch.length === 0) {
        this.waiting.delete(key);
        return;
      }
      this.waiting.set(key, []);
      try {
        const results = await this.apply(key, batch);
        batch.forEach((p, i) => p.resolve(results[i]!));
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
  }

  private async apply(key: string, batch: Pending[]): Promise<CounterResult[]> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const remembered = this.known.get(key);
      const base = remembered ?? (await this.fetch(key));
      let value = base.value;
      let accepted = 0;
      const results = batch.map((p): CounterResult => {
        const next = value + p.delta;
        if (next > p.limit || next < 0) return { ok: false, value };
        value = next;
        accepted++;
        return { ok: true, value };
      });
      // A refusal must rest on a fresh read: another instance may have given something back.
      if (remembered && accepted < batch.length) {
        this.known.delete(key);
        continue;
      }
      if (accepted === 0) return results;
      try {
        const bytes = encoder.encode(String(value));
        // A deleted or purged key still has a revision to compare against; only a never-seen key is created.
        const revision = base.revision === null ? await this.kv.create(key, bytes) : await this.kv.update(key, bytes, base.revision);
        this.remember(key, { value, revision });
        return results;
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
        this.known.delete(key);
        // Lost the race to another instance: read again at once, with a short random pause once
        // the contention persists, so concurrent writers spread out instead of colliding again.
        if (attempt > 2) await new Promise((r) => setTimeout(r, Math.random() * Math.min(10, attempt)));
      }
    }
    throw new Error(`counter ${key}: too much contention`);
  }

  private async fetch(key: string): Promise<Known> {
    const entry = await this.kv.get(key);
    if (!entry) return { value: 0, revision: null };
    const value = entry.operation === "PUT" && entry.length > 0 ? Number(decoder.decode(entry.value)) : 0;
    return { value, revision: entry.revision };
  }

  private remember(key: string, known: Known): void {
    if (this.known.size >= MAX_KNOWN_KEYS) this.known.clear();
    this.known.set(key, known);
  }
}
