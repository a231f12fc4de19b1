import type { Plan } from "../config/plans.js";
import { ApiError } from "../errors/api-error.js";
import { LeasedCounter } from "./counter-lease.js";
import type { KvCounter } from "./kv-counter.js";

export interface Clock {
  now(): Date;
}
export const SYSTEM_CLOCK: Clock = { now: () => new Date() };

export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

function ownerKey(owner: string): string {
  return Buffer.from(owner, "utf8").toString("hex");
}

function minuteWindow(now: Date): { id: string; resetSeconds: number } {
  const minute = Math.floor(now.getTime() / 60_000);
  return { id: String(minute), resetSeconds: Math.max(1, Math.ceil(((minute + 1) * 60_000 - now.getTime()) / 1000)) };
}

function monthWindow(now: Date): { id: string; resetSeconds: number } {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const id = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
  return { id, resetSeconds: Math.max(1, Math.ceil((next - now.getTime()) / 1000)) };
}

/**
 * Reservations that may be in flight at once from all API instances before their submits'
 * earlier checks settle: below this much room the quota is reserved only after those checks.
 */
const SPECULATION_HEADROOM = 10_000;

/**
 * Submits in the current minute (as this process last saw the account's rate counter) from which
 * an account is busy: its rate and quota are then taken in blocks (counter-lease.ts), as they
 * are when this instance sees the account submit several times within a second. Otherwise each
 * submit is counted on its own, so a block is never reserved for an account that would leave most
 * of it idle (and usage read from the counters is exact for it).
 */
const BUSY_SUBMITS_PER_MINUTE = 32;

/**
 * Per-minute rate and monthly quota, both fixed windows in UTC, both counted with CAS counters in
 * NATS KV so that any number of API instances agree on them. A busy account's units are taken in
 * blocks per API instance (counter-lease.ts): no round trip per submit, and still no more than
 * the limit across all instances.
 */
export class Admission {
  private readonly leased: LeasedCounter;

  constructor(
    private readonly counter: KvCounter,
    private readonly clock: Clock,
    /** The blocks' clock (how recent a take is, when a block is idle): wall time but in tests. */
    leaseNow: () => number = Date.now,
  ) {
    this.leased = new LeasedCounter(counter, leaseNow);
  }

  private busy(owner: string): boolean {
    const minute = this.counter.lastKnown(`rate.${ownerKey(owner)}.${minuteWindow(this.clock.now()).id}`);
    return minute !== null && minute >= BUSY_SUBMITS_PER_MINUTE;
  }

  /** Counts one submit against the per-minute rate; throws 429 rate_limit_exceeded when over. */
  async consumeRate(owner: string, plan: Plan): Promise<RateState> {
    const window = minuteWindow(this.clock.now());
    const result = await this.leased.take(`rate.${ownerKey(owner)}.${window.id}`, plan.submitsPerMinute, this.busy(owner));
    const state = {
      limit: plan.submitsPerMinute,
      remaining: Math.max(0, plan.submitsPerMinute - result.used),
      resetSeconds: window.resetSeconds,
    };
    if (!result.ok) {
      throw new ApiError(
        "rate_limit_exceeded",
        `Rate limit exceeded: at most ${plan.submitsPerMinute} submissions per minute on ` +
          `plan '${plan.name}'. Retry in ${window.resetSeconds} s`,
        { retryAfterSeconds: window.resetSeconds, headers: rateLimitHeaders(state) },
      );
    }
    return state;
  }

  /** Reserves one task of the monthly quota; throws 429 monthly_quota_exceeded when used up. */
  async reserveQuota(owner: string, plan: Plan): Promise<void> {
    const window = monthWindow(this.clock.now());
    const result = await this.leased.take(`quota.${ownerKey(owner)}.${window.id}`, plan.monthlyQuota, this.busy(owner));
    if (!result.ok) throw quotaExceeded(plan, window.resetSeconds);
  }

  /**
   * Whether the quota is, as far as this process last saw, so far from used up that reserving
   * one more before the earlier checks are done (and giving it back if they refuse) cannot make
   * another submit's reservation fail: the submit then reserves alongside the rate counter, one
   * round trip instead of two. False when this process has not seen the counter yet.
   */
  quotaHasRoom(owner: string, plan: Plan): boolean {
    const key = `quota.${ownerKey(owner)}.${monthWindow(this.clock.now()).id}`;
    if (this.leased.unused(key) > 0) return true;
    const known = this.counter.lastKnown(key);
    return known !== null && known + SPECULATION_HEADROOM <= plan.monthlyQuota;
  }

  /**
   * Whether the per-minute rate counter is, as far as this process last saw, far enough below
   * the plan's limit (by a tenth of it, at least 10) that this submit is very likely to pass it:
   * the submit may then send its admission's writes before the counter's answer (a
   * refusal undoes them). False when this process has not seen this minute's counter yet, so a
   * client over its rate keeps being refused before anything is written.
   */
  rateHasRoom(owner: string, plan: Plan): boolean {
    const key = `rate.${ownerKey(owner)}.${minuteWindow(this.clock.now()).id}`;
    if (this.leased.unused(key) > 0) return true;
    const known = this.counter.lastKnown(key);
    return known !== null && known + Math.max(10, plan.submitsPerMinute / 10) <= plan.submitsPerMinute;
  }

  /** The refusal reserveQuota would give now, without reserving anything (validate-only requests). */
  async quotaRefusal(owner: string, plan: Plan): Promise<ApiError | null> {
    const window = monthWindow(this.clock.now());
    const key = `quota.${ownerKey(owner)}.${window.id}`;
    if (this.leased.unused(key) > 0) return null;
    const used = await this.counter.read(key);
    return used + 1 > plan.monthlyQuota ? quotaExceeded(plan, window.resetSeconds) : null;
  }

  /** Gives back a reservation when the task was not accepted after all (busy queue, publish failure). */
  async releaseQuota(owner: string): Promise<void> {
    const window = monthWindow(this.clock.now());
    await this.counter.add(`quota.${ownerKey(owner)}.${window.id}`, -1, Number.MAX_SAFE_INTEGER);
  }

  /** Gives back the units this instance holds in blocks (the API stops). */
  async close(): Promise<void> {
    await this.leased.close();
  }

  /**
   * The counters as stored. For a busy account they include the units API instances hold in
   * blocks and have not used yet (given back within about a second of the account going quiet).
   */
  async usage(owner: string): Promise<{ minute: number; month: number }> {
    const now = this.clock.now();
    const [minute, month] = await Promise.all([
      this.counter.read(`rate.${ownerKey(owner)}.${minuteWindow(now).id}`),
      this.counter.read(`quota.${ownerKey(owner)}.${monthWindow(now).id}`),
    ]);
    return { minute, month };
  }
}

function quotaExceeded(plan: Plan, resetSeconds: number): ApiError {
  return new ApiError(
    "monthly_quota_exceeded",
    `Monthly quota of ${plan.monthlyQuota} tasks exceeded on plan '${plan.name}'. Please upgrade your plan or wait until the next month`,
    { retryAfterSeconds: resetSeconds },
  );
}

/** The IETF RateLimit / RateLimit-Policy header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(state: RateState): Record<string, string> {
  return {
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
    "RateLimit-Policy": `"default";q=${state.limit};w=60`,
  };
}
