import { createHash } from "node:crypto";
import type { KV } from "@nats-io/kv";
import { isWrongLastSequence } from "../queue/task-store.js";

/**
 * One Idempotency-Key of one account: "pending" from the moment a submit claims it until its
 * task is accepted, then "done" with the acknowledgement to answer repeats with.
 */
interface ClaimRecord {
  state: "pending" | "done";
  fingerprint: string;
  claimedAt: string;
  ack?: unknown;
  /** The task id of the admission holding a pending claim, so a repeat can settle it. */
  requestId?: string;
}

/**
 * Settles a pending claim's admission for good: either the task was admitted (and this is its
 * acknowledgement), or it now never can be (TaskStore.abandon wrote its tombstone).
 */
export type SettleAdmission = (requestId: string) => Promise<{ admitted: true; ack: unknown } | { admitted: false }>;

export type ClaimOutcome = { kind: "claimed"; claim: Claim } | { kind: "replay"; ack: unknown } | { kind: "in_use" } | { kind: "mismatch" };

/** A held claim: exactly one of `complete` (task accepted) or `release` (submit refused). */
export interface Claim {
  complete(ack: unknown): Promise<void>;
  /** Never rejects: a release that fails (NATS unreachable) is retried in the background. */
  release(): Promise<void>;
}

/**
 * A pending claim older than this belongs to an API instance that died while admitting (admission
 * takes milliseconds): a repeat may take it over rather than see 409 for the key's whole life.
 */
const ABANDONED_AFTER_MS = 60_000;
/**
 * A pending claim older than this that names its task is settled by the repeat rather than
 * answered 409: admission takes milliseconds, so such a claim is left over from a submit that
 * answered an error and could not release it (NATS unreachable at that moment).
 */
const SETTLE_AFTER_MS = 2_000;
/** How long a failed release keeps being retried in the background. */
const RELEASE_RETRIES = 15;
const RELEASE_RETRY_MS = 2_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The body's fingerprint: SHA-256 of its JSON with object keys sorted, so whitespace and key order do not matter. */
export function bodyFingerprint(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Idempotency-Key claims (IETF draft "The Idempotency-Key HTTP Header Field") in a NATS KV bucket
 * whose TTL (24 h) is the keys' lifetime. The claim is a KV `create`, which only one writer can
 * win, so concurrent repeats on any number of API instances admit exactly one task.
 */
export class IdempotencyStore {
  constructor(
    private readonly kv: KV,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `admission`: the task id this submit will admit under the claim, and how to settle another
   * submit's pending admission; without it a pending claim is only taken over after a minute.
   */
  async claim(
    owner: string,
    idempotencyKey: string,
    fingerprint: string,
    admission?: { requestId: string; settle: SettleAdmission },
  ): Promise<ClaimOutcome> {
    const key = `i.${Buffer.from(owner, "utf8").toString("hex")}.${createHash("sha256").update(idempotencyKey).digest("hex")}`;
    const pending = (): Uint8Array =>
      encoder.encode(
        JSON.stringify({
          state: "pending",
          fingerprint,
          claimedAt: new Date(this.now()).toISOString(),
          ...(admission ? { requestId: admission.requestId } : {}),
        } satisfies ClaimRecord),
      );
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        return { kind: "claimed", claim: this.held(key, fingerprint, await this.kv.create(key, pending())) };
      } catch (err) {
        if (!isWrongLastSequence(err) && !/exists/i.test(String(err))) throw err;
      }
      const entry = await this.kv.get(key);
      // Released or expired between our create and this read: try to claim again.
      if (!entry || entry.operation !== "PUT" || entry.length === 0) continue;
      const record = JSON.parse(decoder.decode(entry.value)) as ClaimRecord;
      if (record.fingerprint !== fingerprint) return { kind: "mismatch" };
      if (record.state === "done") return { kind: "replay", ack: record.ack };
      const age = this.now() - Date.parse(record.claimedAt);
      if (admission && record.requestId && age >= SETTLE_AFTER_MS) {
        const settled = await admission.settle(record.requestId);
        if (settled.admitted) {
          // The first submit's task exists: answer its acknowledgement, and keep it for the next repeat.
          await this.held(key, fingerprint, entry.revision)
            .complete(settled.ack)
            .catch(() => undefined);
          return { kind: "replay", ack: settled.ack };
        }
      } else if (age < ABANDONED_AFTER_MS) {
        return { kind: "in_use" };
      }
      try {
        return { kind: "claimed", claim: this.held(key, fingerprint, await this.kv.update(key, pending(), entry.revision)) };
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
      }
    }
    return { kind: "in_use" };
  }

  private held(key: string, fingerprint: string, revision: number): Claim {
    return {
      complete: async (ack) => {
        const record: ClaimRecord = { state: "done", fingerprint, claimedAt: new Date(this.now()).toISOString(), ack };
        await this.kv.update(key, encoder.encode(JSON.stringify(record)), revision);
      },
      // Only our own claim is removed: one taken over meanwhile has another revision.
      release: async () => {
        const attempt = async (left: number): Promise<void> => {
          try {
            await this.kv.delete(key, { previousSeq: revision });
          } catch (err) {
            if (isWrongLastSequence(err) || left <= 0) return;
            setTimeout(() => void attempt(left - 1), RELEASE_RETRY_MS).unref();
          }
        };
        await attempt(RELEASE_RETRIES);
      },
    };
  }
}
