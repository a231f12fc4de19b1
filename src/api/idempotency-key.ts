import type { Context as KoaContext } from "koa";
import { ApiError, validationError, type ValidationIssue } from "../errors/api-error.js";
import type { RequestState } from "./context.js";
import { acceptedAck, type Envelope } from "./envelope.js";
import type { TaskStore } from "../queue/task-store.js";
import type { Claim, IdempotencyStore } from "../store/idempotency.js";
import { bodyFingerprint } from "../store/idempotency.js";

const HEADER = "idempotency-key";
const MAX_KEY_LENGTH = 255;

/**
 * The Idempotency-Key header: absent (null), a key, or a validation issue. The IETF draft makes
 * it a structured-field string (`"..."`); a bare value is accepted too, as most clients send one.
 */
export function readIdempotencyKey(headers: KoaContext["headers"]): { key: string | null; issue: ValidationIssue | null } {
  const raw = headers[HEADER];
  if (raw === undefined) return { key: null, issue: null };
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, "$1") : value;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
    const issue = {
      loc: ["header", "Idempotency-Key"],
      msg: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters, e.g. a UUID`,
      type: "value_error",
    };
    return { key: null, issue };
  }
  return { key, issue: null };
}

/**
 * Settles another submit's pending admission: a tombstone makes sure it can never
 * complete; if the task was admitted first, its acknowledgement is rebuilt from its record.
 * `forget` removes what that submit wrote ahead of its commit for a task that now never runs
 * (its history entry).
 */
export async function settleAdmission(
  tasks: TaskStore,
  id: string,
  forget: ((id: string) => Promise<void>) | null = null,
): Promise<{ admitted: true; ack: unknown } | { admitted: false }> {
  if (await tasks.abandon(id)) {
    await forget?.(id).catch(() => undefined);
    return { admitted: false };
  }
  // The tombstone lost, so the record is there: read it back (a stale "missing" is asked again).
  const found = await tasks.readTaken(id);
  if (found.kind !== "live") return { admitted: false };
  return { admitted: true, ack: acceptedAck(found.record) };
}

/**
 * Claims the key for this submit. Returns the claim to complete or release, or null when no key
 * was given; answers a repeat itself (`true`: the response is set) or throws its 409 / 422.
 */
export async function claimIdempotencyKey(
  ctx: KoaContext,
  deps: { idempotency: IdempotencyStore; tasks: TaskStore; forget?: (id: string) => Promise<void> },
  owner: string,
  key: string | null,
  body: unknown,
): Promise<Claim | null | true> {
  if (key === null) return null;
  const requestId = (ctx.state as RequestState).httpRequestId;
  const outcome = await deps.idempotency.claim(owner, key, bodyFingerprint(body), {
    requestId,
    settle: (id) => settleAdmission(deps.tasks, id, deps.forget ?? null),
  });
  switch (outcome.kind) {
    case "claimed":
      return outcome.claim;
    case "mismatch":
      throw validationError([
        {
          loc: ["header", "Idempotency-Key"],
          msg: "This Idempotency-Key was already used with a different request body in the last 24 hours. Use a new key for a new request",
          type: "idempotency_key_reused",
        },
      ]);
    case "in_use":
      throw new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is still being admitted. Retry shortly");
    case "replay": {
      const ack = { ...(outcome.ack as Envelope) };
      // The acknowledgement as first answered; only its expiry is brought up to date.
      const task = await deps.tasks.get(ack.request_id);
      if (task?.expiresAt) ack.expires_at = task.expiresAt;
      (ctx.state as RequestState).log.info("idempotent replay", { task_id: ack.request_id });
      ctx.set("Idempotent-Replayed", "true");
      ctx.status = 200;
      ctx.body = ack;
      return true;
    }
  }
}
