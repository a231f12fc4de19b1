import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import type { Nats } from "../queue/connection.js";
import { ensureFlow, listFlows, ownerOfKey, strandedFlows } from "../queue/flows.js";
import { TaskStore } from "../queue/task-store.js";
import type { AccountStore } from "../store/accounts.js";
import { sweepKeptMessages } from "./kept-messages.js";

const RESCUE_INTERVAL_MS = 30_000;

/**
 * Makes a consumer again for every account whose tasks wait in the stream without one (the
 * server removes a consumer nobody pulled from for an hour: every worker down that long). The
 * API makes it only on the account's next submit, which may never come.
 */
export async function rescueStrandedFlows(config: Readonly<Config>, nats: Nats, accounts: AccountStore, log: Logger): Promise<number> {
  const known = new Set((await listFlows(nats.jsm)).map((f) => f.key));
  const stranded = await strandedFlows(nats.jsm, known);
  for (const key of stranded) {
    const owner = ownerOfKey(key);
    const account = owner === null ? null : await accounts.getAccount(owner).catch(() => null);
    const plans = config.plans.plans;
    const plan = (account && plans.get(account.plan)) ?? plans.get(config.plans.defaultPlan)!;
    await ensureFlow(nats.jsm, key, plan, config.worker.ackWaitMs);
    log.warn("consumer made again for an account's waiting tasks", { flow: key, plan: plan.name });
  }
  return stranded.length;
}

/**
 * Runs the rescue at start and then periodically, until stopped, each time followed by a sweep
 * of acknowledged messages the stream kept (kept-messages.ts): both find tasks' messages no
 * consumer will deliver.
 */
export function keepFlowsConsumed(config: Readonly<Config>, nats: Nats, accounts: AccountStore, log: Logger): { stop(): void } {
  const store = new TaskStore(nats.tasks);
  const run = () =>
    void rescueStrandedFlows(config, nats, accounts, log)
      .catch((err: unknown) => log.warn("flow rescue failed", { err }))
      .then(() => sweepKeptMessages(nats.jsm, store, log))
      .catch((err: unknown) => log.warn("sweep of kept work messages failed", { err }));
  run();
  const timer = setInterval(run, RESCUE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
