import { KvWatchInclude, type KV, type KvEntry } from "@nats-io/kv";

/** The one read a cached store needs; a plain KV bucket satisfies it too. */
export interface KvReader {
  get(key: string): Promise<KvEntry | null>;
}

export interface WatchedKvCacheOptions {
  /**
   * An entry older than this is read again from the bucket even though the watch should have kept
   * it current: a bound on staleness should the watch ever stall silently.
   */
  maxStalenessMs: number;
  /** Bound on memory; the oldest entries are dropped first (a dropped entry is just a miss). */
  maxEntries: number;
  now?: () => number;
}

const WATCH_RETRY_MS = 1000;

interface Cached {
  entry: KvEntry;
  at: number;
}

/**
 * A read-through cache over a KV bucket, kept current by a watch on the bucket, so that a read
 * costs no round trip while a change (a revoked key, a disabled account) reaches every process
 * within milliseconds. Misses always go to the bucket: a key created a moment ago is found at
 * once, and nobody can fill the cache with keys that do not exist.
 */
export class WatchedKvCache implements KvReader {
  private readonly entries = new Map<string, Cached>();
  private watcher: Awaited<ReturnType<KV["watch"]>> | null = null;
  private live = false;
  private stopped = false;
  /** Counts watches; a read that began under an earlier one is not cached (it may predate the new watch). */
  private generation = 0;
  private readonly now: () => number;

  private constructor(
    private readonly kv: KV,
    private readonly options: WatchedKvCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Starts the watch before the first read, so no change can fall between a read and the watch. */
  static async start(kv: KV, options: WatchedKvCacheOptions): Promise<WatchedKvCache> {
    const cache = new WatchedKvCache(kv, options);
    const first = await kv.watch({ include: KvWatchInclude.UpdatesOnly });
    void cache.follow(first);
    return cache;
  }

  /**
   * Applies the watch's updates for as long as it runs. Should it ever end without being stopped,
   * the cache is emptied and bypassed (updates may have been missed) until a new watch is up.
   */
  private async follow(first: WatchedKvCache["watcher"]): Promise<void> {
    let watcher = first;
    while (!this.stopped) {
      if (watcher) {
        this.watcher = watcher;
        this.generation++;
        this.live = true;
        try {
          for await (const e of watcher) this.remember(e);
        } catch {
          /* the watch failed: start another below */
        }
      }
      this.live = false;
      this.entries.clear();
      watcher = null;
      if (this.stopped) return;
      await new Promise((r) => setTimeout(r, WATCH_RETRY_MS).unref());
      if (this.stopped) return;
      watcher = await this.kv.watch({ include: KvWatchInclude.UpdatesOnly }).catch(() => null);
      if (this.stopped) watcher?.stop();
    }
  }

  async get(key: string): Promise<KvEntry | null> {
    if (this.live) {
      const hit = this.entries.get(key);
      if (hit && this.now() - hit.at < this.options.maxStalenessMs) return hit.entry;
    }
    const generation = this.generation;
    const entry = await this.kv.get(key);
    if (entry && this.live && generation === this.generation) this.remember(entry);
    return entry;
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.stop();
  }

  /** Keeps the newer of what is cached and what arrived: a slow read must not undo a watched change. */
  private remember(entry: KvEntry): void {
    const current = this.entries.get(entry.key);
    if (current && current.entry.revision > entry.revision) return;
    if (current) this.entries.delete(entry.key);
    else if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(entry.key, { entry, at: this.now() });
  }
}
