import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import { createFairShareMetrics } from "../metrics/fair-share-metrics.js";
import { createWorkerMetrics } from "../metrics/registry.js";
import { connectNats } from "../queue/connection.js";
import { listFlows } from "../queue/flows.js";
import { ProgressStore } from "../queue/progress-store.js";
import { TaskEvents } from "../queue/task-events.js";
import { TaskQueue } from "../queue/task-queue.js";
import { AccountStore } from "../store/accounts.js";
import { HistoryStore } from "../store/history.js";
import { ConsumeLoop } from "./consume.js";
import { FairPicker } from "./fair-picker.js";
import { keepFlowsConsumed } from "./flow-rescue.js";
import { SolverThreadRunner } from "./solver-thread-runner.js";
import { TaskRunner } from "./task-runner.js";
import { InlineSolver } from "./inline-solve.js";
import type { SelectionRule } from "../../strategies/select.js";
import { loadStrategyModules } from "../../strategies/registry.js";
import { createHelpMetrics } from "../metrics/help-metrics.js";
import { ensureHelpStream } from "../queue/help-items.js";
import { HelpCoordinator } from "./help-coordinator.js";
import { HelpingSource } from "./help-loop.js";

export interface RunningWorker {
  metricsUrl: string;
  stop(): Promise<void>;
}

/** One worker process: a pull loop, a solver thread, and a metrics endpoint of its own. */
export async function startWorker(config: Readonly<Config>, log: Logger): Promise<RunningWorker> {
  // The solver threads load the modules again (each thread has its own registry); loading them
  // here first makes a broken module stop the worker at start instead of failing every task.
  const plugins = await loadStrategyModules(config.strategyModules);
  if (plugins.length > 0) log.info("strategy modules loaded", { strategies: plugins.map((s) => s.name) });
  // A worker ignores its own core notices (a freed place, its help announcements, its help
  // items): without echo the server does not send them back, one delivery less per task ended.
  const nats = await connectNats(config, `vrp-worker-${process.pid}`, log, { noEcho: true });
  const queue = new TaskQueue(nats, config.worker.ackWaitMs);
  const metrics = createWorkerMetrics(nats.isConnected);
  const solver = new SolverThreadRunner(
    { strategyModules: config.strategyModules, strategySelection: config.worker.strategySelection },
    config.worker.solverMaxHeapMb,
  );
  solver.warmUp();
  const fairShareMetrics = createFairShareMetrics(metrics.registry, () => listFlows(nats.jsm), config.plans.plans.values());
  const accounts = new AccountStore(nats.accounts, nats.apiKeys);
  // Cooperative solves: this worker offers items of its large tasks and helps others' when idle.
  await ensureHelpStream(nats.jsm, config.natsReplicas);
  const workerId = randomUUID();
  const helpMetrics = createHelpMetrics(metrics.registry, async () => (await metrics.inProgress.get()).values[0]?.value ?? 0);
  const help = new HelpCoordinator(nats, helpMetrics, log, workerId);
  const runner = new TaskRunner({
    config,
    log,
    nats,
    queue,
    accounts,
    history: new HistoryStore(nats.history, nats.requests, nats.requestBodies),
    metrics,
    solver,
    inline: new InlineSolver(config.worker.strategySelection as SelectionRule[] | null),
    events: new TaskEvents(nats.js, nats.jsm, nats.eventsDirect),
    progress: new ProgressStore(nats.progress),
    help,
  });
  const picker = new FairPicker(nats, log, ({ message, flow }) => {
    if (message.info.deliveryCount === 1) {
      fairShareMetrics.planWait.observe({ plan: flow.plan }, Math.max(0, Date.now() - message.info.timestampNanos / 1e6) / 1000);
    }
  });
  const rescue = keepFlowsConsumed(config, nats, accounts, log);
  const source = new HelpingSource(picker, nats, solver, helpMetrics, log, workerId);
  const loop = new ConsumeLoop(source, runner, log);
  loop.start();

  let stopping = false;
  // The worker's own port serves the scrape and the probes of a container platform: alive while
  // the process answers, ready while it is connected to NATS and not draining.
  const metricsServer: Server = createServer((req, res) => {
    if (req.url === "/healthz" || req.url === "/readyz") {
      const ok = req.url === "/healthz" || (!stopping && nats.isConnected());
      res.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify({ status: ok ? "ok" : "not_ready" }) + "\n");
      return;
    }
    if (req.url !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => metricsServer.listen(config.worker.metricsPort, config.host, resolve));
  const metricsUrl = `http://${config.host}:${(metricsServer.address() as AddressInfo).port}/metrics`;
  log.info("worker started", { metrics: metricsUrl });

  return {
    metricsUrl,
    stop: async () => {
      stopping = true;
      rescue.stop();
      source.stop();
      picker.stop();
      await loop.stop(config.worker.shutdownGraceMs);
      help.stop();
      await solver.kill();
      metricsServer.close();
      await nats.close();
      log.info("worker stopped");
    },
  };
}
