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

/**
 * At most one callback per task: "sending" is recorded with compare-and-set before the POST, so
 * a redelivery after a crash, or a worker taking a task the API already cancelled, sees it and
 * does not send again. Resolves with the outcome, or null when nothing was sent by this call.
 */
export async function sendCallbackOnce(task: TaskRecord, deps: SendOnceDeps): Promise<CallbackOutcome | null> {
  if (!task.callbackUrl) return null;
  const { store, config, accounts, log } = deps;
  let claimedNow = false;
  const current = await store.update(task.id, (t) => {
    claimedNow = t.callback === undefined;
    return claimedNow ? { ...t, callback: { state: "sending", at: new Date().toISOString() } } : null;
  });
  // Issue 24: no record, no callback; the caller hands the task back rather than treating it as sent.
  if (!current) throw new Error(`task ${task.id}: record not found; callback not sent`);
  if (!claimedNow) return null;
  const account = task.channel === "direct" ? await accounts.getAccount(task.owner) : null;
  const body = JSON.stringify(taskEnvelope(task, null));
  const outcome = await deliverCallback(task.callbackUrl, body, {
    allowLoopback: config.callbacks.allowLoopback,
    secret: account?.webhookSecret ?? null,
    timeoutMs: config.callbacks.timeoutMs,
  });
  log.info("callback sent", { outcome: outcome.outcome, status: "status" in outcome ? outcome.status : undefined });
  await store.update(task.id, (t) => ({
    ...t,
    callback: {
      state: "done",
      outcome: outcome.outcome,
      ...("status" in outcome ? { httpStatus: outcome.status } : {}),
      ...("reason" in outcome ? { reason: outcome.reason } : {}),
      at: new Date().toISOString(),
    },
  }));
  return outcome;
}
