import type { CounterResult, KvCounter } from "./kv-counter.js";

/** Largest block of units one API instance takes at once. */
const MAX_BLOCK = 32;
/** Blocks stop this many block sizes before the limit: the last stretch is counted one by one. */
const HEADROOM_BLOCKS = 4;
/** A block's unused units go back to the counter after this long without a take. */
const IDLE_RETURN_MS = 1_000;

/**
 * Takes of one key by this instance within IDLE_RETURN_MS after which the key counts as busy,
 * whatever the caller says: at that pace a block is taken from again before it would be given back,
 * so it costs one write where taking the units one by one costs one each (a fresh account's burst).
 */
const RECENT_TAKES_BUSY = 4;
/** Keys whose recent takes are remembered before the stale ones are dropped. */
const MAX_RECENT_KEYS = 1_000;

/** The block size for a limit: none (1) for limits too small for blocks to pay. */
export function blockSize(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / 64)));
}

interface Lease {
  unused: number;
  /** The block being taken for this key, while its compare-and-set is out. */
  pending: Promise<void> | null;
  lastTake: number;
}

/** This instance's takes of a key since `since` (a window of IDLE_RETURN_MS). */
interface RecentTakes {
  since: number;
  takes: number;
}

/** One take's outcome; `used` is the counter's value less the units this instance holds unused. */
export type TakeResult = CounterResult & { used: number };

/**
 * Units of KV counters taken in blocks: once a key is busy, this API instance reserves a block of
 * units with one compare-and-set and hands them out without a round trip, giving back what it has
 * not used after a second without a take (and when it stops). The counter always holds every
 * unit handed out or reserved, and it never passes its limit, so no account gets more than its
 * limit however many instances take blocks; near the limit (HEADROOM_BLOCKS) units are counted one
 * by one again. A block lost with its instance (a crash) stays counted: the account may get up to
 * a block fewer in that window, never more. Until a block is given back, reading the counter shows
 * its unused units as used.
 */
export class LeasedCounter {
  private readonly leases = new Map<string, Lease>();
  private readonly recent = new Map<string, RecentTakes>();
  /** Runs while any block is held. */
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly counter: KvCounter,
    private readonly now: () => number = Date.now,
  ) {}

  /** The counter's value as this process last saw it, or null (no round trip). */
  lastKnown(key: string): number | null {
    return this.counter.lastKnown(key);
  }

  /** Units this instance holds unused for `key`. */
  unused(key: string): number {
    return this.leases.get(key)?.unused ?? 0;
  }

  /**
   * Takes one unit of `key` within `limit`: from this instance's block if it holds one, else in a
   * new block when the key is taken often (`busy`, or this instance's own recent takes) and the
   * limit is far, else one by one.
   */
  async take(key: string, limit: number, busy: boolean): Promise<TakeResult> {
    const size = blockSize(limit);
    const often = this.takenOften(key) || busy;
    for (;;) {
      const lease = this.leases.get(key);
      if (lease && lease.unused > 0) {
        lease.unused--;
        lease.lastTake = this.now();
        return { ok: true, value: this.counter.lastKnown(key) ?? 0, used: this.used(key) };
      }
      if (lease?.pending) {
        await lease.pending;
        continue;
      }
      const known = this.counter.lastKnown(key);
      if (!often || size < 2 || known === null || known + size * (1 + HEADROOM_BLOCKS) > limit) {
        const single = await this.counter.add(key, 1, limit);
        return { ...single, used: single.value - this.unused(key) };
      }
      await this.reserveBlock(key, size, limit - size * HEADROOM_BLOCKS);
    }
  }

  /** Counts a take of `key`; true once this instance has taken it RECENT_TAKES_BUSY times in the current window. */
  private takenOften(key: string): boolean {
    const now = this.now();
    let recent = this.recent.get(key);
    if (!recent || now - recent.since > IDLE_RETURN_MS) {
      if (!recent && this.recent.size >= MAX_RECENT_KEYS) {
        for (const [k, r] of this.recent) if (now - r.since > IDLE_RETURN_MS) this.recent.delete(k);
      }
      recent = { since: now, takes: 0 };
      this.recent.set(key, recent);
    }
    recent.takes++;
    return recent.takes > RECENT_TAKES_BUSY;
  }

  /** Gives back every unused unit (the API instance stops). */
  async close(): Promise<void> {
    await this.returnIdle(0);
  }

  private used(key: string): number {
    return (this.counter.lastKnown(key) ?? 0) - this.unused(key);
  }

  /** One compare-and-set for `size` units; a refusal (the limit is near) leaves no block. */
  private async reserveBlock(key: string, size: number, blockLimit: number): Promise<void> {
    const lease: Lease = this.leases.get(key) ?? { unused: 0, pending: null, lastTake: this.now() };
    this.leases.set(key, lease);
    if (!this.sweeper) {
      this.sweeper = setInterval(() => void this.returnIdle(IDLE_RETURN_MS), IDLE_RETURN_MS / 2);
      this.sweeper.unref();
    }
    lease.pending = (async () => {
      try {
        const result = await this.counter.add(key, size, blockLimit);
        if (result.ok) lease.unused += size;
      } finally {
        lease.pending = null;
      }
    })();
    await lease.pending;
    // Refused: the next round counts this take one by one (the counter's value is fresh now).
    if (lease.unused === 0 && !lease.pending) this.leases.delete(key);
  }

  /** Gives back the unused units of blocks not taken from for `idleMs`. */
  private async returnIdle(idleMs: number): Promise<void> {
    const now = this.now();
    const returns: Promise<unknown>[] = [];
    for (const [key, lease] of this.leases) {
      if (lease.pending || now - lease.lastTake < idleMs) continue;
      this.leases.delete(key);
      // Given back failing (NATS unreachable) leaves the units counted: fewer for the account, never more.
      if (lease.unused > 0) returns.push(this.counter.add(key, -lease.unused, Number.MAX_SAFE_INTEGER).catch(() => undefined));
    }
    if (this.leases.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
    await Promise.all(returns);
  }
}
