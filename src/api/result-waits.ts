import type { NatsConnection, Subscription } from "@nats-io/nats-core";
import { validationError } from "../errors/api-error.js";
import { NAMES } from "../queue/names.js";

/** The longest wait a poll may ask for: below the idle timeouts of common proxies and balancers. */
export const MAX_WAIT_SECONDS = 30;

/**
 * A subscription can miss a write (a rejected compare-and-set still reaches subscribers, and an
 * interest not yet known to every node of a cluster misses one), so a waiting poll also reads the
 * record again this often.
 */
export const RECHECK_MS = 1_000;

/** The poll's `wait_seconds` query parameter: absent is 0; an integer from 0 to MAX_WAIT_SECONDS, else a 422. */
export function waitSeconds(raw: string | string[] | undefined): number {
  if (raw === undefined) return 0;
  const value = typeof raw === "string" && /^[0-9]{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 0 && value <= MAX_WAIT_SECONDS)) {
    throw validationError([
      { loc: ["query", "wait_seconds"], msg: `wait_seconds must be an integer from 0 to ${MAX_WAIT_SECONDS}`, type: "value_error" },
    ]);
  }
  return value;
}

/** One poll's wait: resolves `next` when the task's record was written, at a recheck, or when it is released. */
export interface ResultWait {
  /** Resolves at the record's next write, after at most `maxMs`, or at once once released. */
  next(maxMs: number): Promise<void>;
  readonly released: boolean;
  /** Ends the wait (client gone, answer sent, API stopping); `next` then resolves at once. */
  release(): void;
}

/**
 * Long polls of one API instance: each waiting poll holds a core NATS subscription on its task's
 * record subject in the task bucket, so it learns of a write the moment the store takes it, and
 * reads the record again to see what was stored. At most `capacity` polls wait at once; a poll
 * beyond that answers at once, as without a wait.
 */
export class ResultWaits {
  private readonly open = new Set<ResultWait>();
  /** Set by releaseAll: a poll that arrives while the API drains answers at once. */
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly capacity: number,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * Starts waiting on task `id`'s record; null when the instance already holds its capacity or is stopping. The
   * subscription is sent before any read the caller makes next on the same connection, so a write
   * stored after that read wakes the wait.
   */
  begin(id: string): ResultWait | null {
    if (this.closed || this.open.size >= this.capacity) return null;
    let wake: (() => void) | null = null;
    let written = false;
    let released = false;
    const subscription: Subscription = this.nc.subscribe(`$KV.${NAMES.taskBucket}.${id}`, {
      callback: () => {
        written = true;
        wake?.();
      },
    });
    const wait: ResultWait = {
      get released() {
        return released;
      },
      next: (maxMs) => {
        if (released || written) {
          written = false;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const timer = setTimeout(done, maxMs);
          function done() {
            clearTimeout(timer);
            wake = null;
            written = false;
            resolve();
          }
          wake = done;
        });
      },
      release: () => {
        if (released) return;
        released = true;
        this.open.delete(wait);
        subscription.unsubscribe();
        wake?.();
      },
    };
    this.open.add(wait);
    return wait;
  }

  /** Ends every wait and starts no more (the API is stopping): each poll answers with the record as it stands. */
  releaseAll(): void {
    this.closed = true;
    for (const wait of [...this.open]) wait.release();
  }
}

/**
 * Reads the record again at each wake-up until `finished` holds, the record is gone, `seconds`
 * have passed or the wait is released; resolves with the last read. The first read comes right
 * after the subscription, so a write between the caller's own read and the subscription is seen.
 */
export async function readUntil<T>(
  wait: ResultWait,
  seconds: number,
  read: () => Promise<T | null>,
  finished: (value: T) => boolean,
): Promise<T | null> {
  const deadline = performance.now() + seconds * 1000;
  let value = await read();
  while (value !== null && !finished(value) && !wait.released) {
    const left = deadline - performance.now();
    if (left <= 0) break;
    await wait.next(Math.min(left, RECHECK_MS));
    value = await read();
  }
  return value;
}
