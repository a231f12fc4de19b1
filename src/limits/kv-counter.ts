import type { KV } from "@nats-io/kv";
import { isWrongLastSequence } from "../queue/task-store.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type CounterResult = { ok: true; value: number } | { ok: false; value: number };

/**
 * A counter in NATS KV changed only by compare-and-set, so it stays exact under concurrency and
 * across API instances: `add` succeeds only if the new value stays within [0, limit].
 */
export class KvCounter {
  constructor(private readonly kv: KV) {}

  async read(key: string): Promise<number> {
    const entry = await this.kv.get(key);
    if (!entry || entry.operation !== "PUT" || entry.length === 0) return 0;
    return Number(decoder.decode(entry.value));
  }

  async add(key: string, delta: number, limit: number): Promise<CounterResult> {
    for (let attempt = 0; attempt < 500; attempt++) {
      const entry = await this.kv.get(key);
      const current = entry !== null && entry.operation === "PUT" && entry.length > 0 ? Number(decoder.decode(entry.value)) : 0;
      const next = current + delta;
      if (next > limit || next < 0) return { ok: false, value: current };
      try {
        // A deleted or purged key still has a revision to compare against; only a never-seen key is created.
        if (entry) await this.kv.update(key, encoder.encode(String(next)), entry.revision);
        else await this.kv.create(key, encoder.encode(String(next)));
        return { ok: true, value: next };
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
        // Lost the race to another submit: read again at once, with a short random pause once
        // the contention persists, so concurrent writers spread out instead of colliding again.
        if (attempt > 2) await new Promise((r) => setTimeout(r, Math.random() * Math.min(10, attempt)));
      }
    }
    throw new Error(`counter ${key}: too much contention`);
  }
}
