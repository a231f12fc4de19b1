import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * prom-client's default process metrics under their standard names (`process_cpu_seconds_total`,
 * `process_resident_memory_bytes`, `nodejs_eventloop_lag_seconds`, ...), which standard dashboards
 * and alerts expect; the API and the workers are told apart by their scrape job (`vrp-api`,
 * `vrp-worker` in deploy/prometheus.yml), as for any other exporter. Minus the three gauges
 * prom-client names `*_total`, which Prometheus conventions (and `promtool check metrics`)
 * reserve for counters.
 */
function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) {
    registry.removeSingleMetric(name);
  }
}

/** Every metric of the API process, defined once. */
export function createApiMetrics(sources: {
  queueDepth(): Promise<number>;
  inProgress(): Promise<number>;
  natsConnected(): boolean;
  waitingPolls(): number;
}) {
  const registry = new Registry();
  collectProcessMetrics(registry);
  const httpDuration = new Histogram({
    name: "vrp_http_request_duration_seconds",
    help: "HTTP request duration by method, route template and status code.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const submissions = new Counter({
    name: "vrp_submissions_total",
    help: "Solve submissions by outcome (accepted or rejected) and error code (none when accepted).",
    labelNames: ["outcome", "code"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "vrp_queue_depth",
    help: "Tasks accepted and not yet picked up by a worker.",
    registers: [registry],
    async collect() {
      this.set(await sources.queueDepth().catch(() => Number.NaN));
    },
  });
  new Gauge({
    name: "vrp_tasks",
    help: "Tasks currently in the pipeline by state (queued or solving).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const [queued, solving] = await Promise.all([
        sources.queueDepth().catch(() => Number.NaN),
        sources.inProgress().catch(() => Number.NaN),
      ]);
      this.set({ state: "queued" }, queued);
      this.set({ state: "solving" }, solving);
    },
  });
  new Gauge({
    name: "vrp_waiting_polls",
    help: "Polls this API instance holds until their task finishes (wait_seconds).",
    registers: [registry],
    collect() {
      this.set(sources.waitingPolls());
    },
  });
  natsConnectedGauge(registry, sources.natsConnected);
  return { registry, httpDuration, submissions };
}
export type ApiMetrics = ReturnType<typeof createApiMetrics>;

function natsConnectedGauge(registry: Registry, connected: () => boolean): void {
  new Gauge({
    name: "vrp_nats_connected",
    help: "1 while this process is connected to NATS, 0 otherwise.",
    registers: [registry],
    collect() {
      this.set(connected() ? 1 : 0);
    },
  });
}

/** Every metric of a worker process, defined once. */
export function createWorkerMetrics(natsConnected: () => boolean) {
  const registry = new Registry();
  collectProcessMetrics(registry);
  natsConnectedGauge(registry, natsConnected);
  return {
    registry,
    solveDuration: new Histogram({
      name: "vrp_solve_duration_seconds",
      help: "Time spent solving a task, by strategy and outcome (solved, failed).",
      labelNames: ["strategy", "outcome"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    queuedDuration: new Histogram({
      name: "vrp_task_queued_seconds",
      help: "Time from submission until a worker started the task.",
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800],
      registers: [registry],
    }),
    inProgress: new Gauge({ name: "vrp_tasks_in_progress", help: "Tasks this worker is solving now.", registers: [registry] }),
    completed: new Counter({
      name: "vrp_tasks_completed_total",
      help: "Tasks finished by this worker, by outcome (solved, failed).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    callbacks: new Counter({
      name: "vrp_callbacks_total",
      help: "Completion callbacks by outcome (delivered, http_error, timeout, refused, error).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    redeliveries: new Counter({
      name: "vrp_task_redeliveries_total",
      help: "Tasks received again after an earlier delivery was not acknowledged (worker crash or timeout).",
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: "vrp_tasks_dead_lettered_total",
      help: "Tasks failed on purpose after reaching the maximum number of deliveries.",
      registers: [registry],
    }),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
