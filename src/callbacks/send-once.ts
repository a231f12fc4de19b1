import { randomUUID } from "node:crypto";
import { taskEnvelope } from "../api/task-view.js";
import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import type { TaskRecord, TaskStore } from "../queue/task-store.js";
import type { AccountStore } from "../store/accounts.js";
import { deliverCallback, type CallbackOutcome } from "./deliver.js";

export interface SendOnceDeps {
  store: TaskStore;
  accounts: AccountStore;
  config: Readonly<Config>;
  log: Logger;
}

/** Beyond the callback's own timeout: a "sending" claim this old belongs to a worker that died. */
const STALE_CLAIM_MARGIN_MS = 15_000;
/** How long the outcome's write is retried (NATS failing over) before the delivery is handed back. */
const RECORD_RETRIES_MS = [250, 500, 1000, 2000, 4000, 8000, 8000];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One callback per task. "sending" is recorded with compare-and-set before the POST, with a token
 * of this attempt, so a redelivery, or a worker taking a task the API already cancelled, sees it
 * and does not send again; "done" after it. When the claim's write answers an error
 * (its answer lost in a failover), the record is read back to learn whether the claim is ours,
 * rather than leaving the callback unsent; a claim held by another attempt makes this one throw
 * (the caller hands the task back and comes again) until that claim is "done", or is stale
 * (its worker died before recording the outcome: sent again then, with the same webhook-id, so
 * the partner can tell the repeat). Resolves with the outcome, or null when nothing was sent by
 * this call. Throws when the task's record is gone: no record, no callback.
 */
export async function sendCallbackOnce(task: TaskRecord, deps: SendOnceDeps): Promise<CallbackOutcome | null> {
  if (!task.callbackUrl) return null;
  const { store, config, accounts, log } = deps;
  // Looked up before the claim: the window between "sending" and "done" is the POST alone.
  const account = task.channel === "direct" ? await accounts.getAccount(task.owner) : null;
  const token = randomUUID();
  const staleAfterMs = config.callbacks.timeoutMs + STALE_CLAIM_MARGIN_MS;
  const ours = (t: TaskRecord) => t.callback?.state === "sending" && t.callback.by === token;
  let current: TaskRecord | null;
  try {
    current = await store.update(task.id, (t) => {
      const held = t.callback;
      const free = held === undefined || (held.state === "sending" && Date.now() - Date.parse(held.at) > staleAfterMs);
      return free ? { ...t, callback: { state: "sending", at: new Date().toISOString(), by: token } } : null;
    });
  } catch (err) {
    current = await readBack(store, task.id, err);
  }
  if (!current) throw new Error(`task ${task.id}: record not found; callback not sent`);
  if (!ours(current)) {
    if (current.callback?.state === "done") return null;
    throw new Error(`task ${task.id}: its callback is being sent by another attempt`);
  }
  const body = JSON.stringify(taskEnvelope(task, null));
  const outcome = await deliverCallback(task.callbackUrl, body, {
    allowLoopback: config.callbacks.allowLoopback,
    trustedNetworks: config.callbacks.trustedNetworks,
    secret: account?.webhookSecret ?? null,
    timeoutMs: config.callbacks.timeoutMs,
    // The same webhook-id on every attempt for this task (Standard Webhooks' idempotency key).
    messageId: `msg_${task.id.replace(/-/g, "")}`,
  });
  log.info("callback sent", { outcome: outcome.outcome, status: "status" in outcome ? outcome.status : undefined });
  const done = (t: TaskRecord): TaskRecord => ({
    ...t,
    callback: {
      state: "done",
      outcome: outcome.outcome,
      ...("status" in outcome ? { httpStatus: outcome.status } : {}),
      ...("reason" in outcome ? { reason: outcome.reason } : {}),
      at: new Date().toISOString(),
    },
  });
  // Sent: the outcome must be recorded, or a later attempt would take the claim for stale.
  for (let attempt = 0; ; attempt++) {
    try {
      await store.update(task.id, done);
      return outcome;
    } catch (err) {
      if (attempt >= RECORD_RETRIES_MS.length) throw err;
      await sleep(RECORD_RETRIES_MS[attempt]!);
    }
  }
}

/** The record after a claim write whose answer was lost: read until NATS answers again. */
async function readBack(store: TaskStore, id: string, cause: unknown): Promise<TaskRecord | null> {
  for (const wait of RECORD_RETRIES_MS) {
    await sleep(wait);
    try {
      return await store.get(id);
    } catch {
      /* still failing over */
    }
  }
  throw cause;
}
