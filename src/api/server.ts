import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { checkCallbackUrl } from "../callbacks/target-guard.js";
import type { Config } from "../config/load.js";
import { Admission, SYSTEM_CLOCK, type Clock } from "../limits/admission.js";
import { KvCounter } from "../limits/kv-counter.js";
import type { Logger } from "../log/logger.js";
import { createApiMetrics } from "../metrics/registry.js";
import { connectNats } from "../queue/connection.js";
import { IdempotencyStore } from "../store/idempotency.js";
import { NAMES } from "../queue/names.js";
import { announceAdmitted } from "../queue/admission-notice.js";
import { ProgressStore } from "../queue/progress-store.js";
import { TaskEvents } from "../queue/task-events.js";
import { TaskQueue } from "../queue/task-queue.js";
import { AccountStore } from "../store/accounts.js";
import { HistoryStore } from "../store/history.js";
import { createApiApp } from "./app.js";
import type { ApiServices } from "./context.js";
import { loadStrategyModules } from "../../strategies/registry.js";
import { EventStreamRegistry } from "./event-stream.js";
import { ResultWaits } from "./result-waits.js";

export interface RunningApi {
  url: string;
  server: Server;
  /** Graceful stop: readiness false, then refuse new connections, finish requests in flight, then close NATS. */
  stop(): Promise<void>;
}

/** Wires config, NATS, stores and the Koa app, and listens. Used by the api entry point and tests. */
export async function startApi(config: Readonly<Config>, log: Logger, options: { clock?: Clock } = {}): Promise<RunningApi> {
  // Before anything else: a strategy module that cannot be loaded stops the API at start.
  const plugins = await loadStrategyModules(config.strategyModules);
  if (plugins.length > 0) log.info("strategy modules loaded", { strategies: plugins.map((s) => s.name) });
  const nats = await connectNats(config, "vrp-api", log);
  const queue = new TaskQueue(nats, config.worker.ackWaitMs);
  const accounts = await AccountStore.cached(nats.accounts, nats.apiKeys);
  const resultWaits = new ResultWaits(nats.nc, config.resultWaitCapacity);
  const services: ApiServices = {
    config,
    log,
    queue,
    accounts: accounts.store,
    admission: new Admission(new KvCounter(nats.counters), options.clock ?? SYSTEM_CLOCK),
    history: new HistoryStore(nats.history, nats.requests, nats.requestBodies),
    idempotency: new IdempotencyStore(nats.idempotency),
    metrics: createApiMetrics({
      queueDepth: () => queue.queueDepth(),
      inProgress: () => queue.inProgress(),
      natsConnected: nats.isConnected,
      waitingPolls: () => resultWaits.size,
    }),
    natsConnected: nats.isConnected,
    events: new TaskEvents(nats.js, nats.jsm, nats.eventsDirect),
    progress: new ProgressStore(nats.progress),
    eventStreams: new EventStreamRegistry(),
    resultWaits,
    signalCancel: (taskId) => nats.nc.publish(`${NAMES.cancelSubjectPrefix}.${taskId}`),
    announceAdmitted: (record, revision, body) => announceAdmitted(nats.nc, record, revision, body),
    checkCallbackUrl: (url) =>
      checkCallbackUrl(url, { allowLoopback: config.callbacks.allowLoopback, trustedNetworks: config.callbacks.trustedNetworks }),
  };
  const readiness = async () => {
    const natsUp = nats.isConnected();
    const streams =
      natsUp &&
      (await nats.jsm.streams.info(NAMES.taskStream).then(
        () => true,
        () => false,
      ));
    return { nats: natsUp, streams };
  };
  const { app, beginShutdown } = await createApiApp(services, readiness);
  const server = createServer(app.callback());
  // Large bodies on a slow link must not be cut off by Node's default request timeout.
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  log.info("api listening", { url });
  let stopping: Promise<void> | null = null;
  return {
    url,
    server,
    stop: () => {
      stopping ??= (async () => {
        beginShutdown();
        log.info("draining: readiness is false", { delayMs: config.apiDrain.delayMs, timeoutMs: config.apiDrain.timeoutMs });
        if (config.apiDrain.delayMs > 0) await new Promise((r) => setTimeout(r, config.apiDrain.delayMs));
        // Event streams never end by themselves; without this the server would wait on them.
        await services.eventStreams.closeAll();
        // Waiting polls answer with the task as it stands rather than hold the drain.
        services.resultWaits.releaseAll();
        await closeServer(server, config.apiDrain.timeoutMs, log);
        await services.admission.close().catch((err: unknown) => log.warn("quota blocks not given back", { err }));
        accounts.stop();
        await nats.close();
        log.info("api stopped");
      })();
      return stopping;
    },
  };
}

/**
 * Stops accepting connections and waits for the open requests; connections still busy after
 * `timeoutMs` are closed, so a stuck client cannot hold the process past its stop deadline.
 */
async function closeServer(server: Server, timeoutMs: number, log: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    timer = setTimeout(() => {
      log.warn("requests still open when the drain timeout ran out; closing their connections", { timeoutMs });
      server.closeAllConnections();
    }, timeoutMs);
  });
  clearTimeout(timer);
}
