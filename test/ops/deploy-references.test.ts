import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Registry } from "prom-client";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { createFairShareMetrics } from "../../src/metrics/fair-share-metrics.js";
import { createApiMetrics, createWorkerMetrics } from "../../src/metrics/registry.js";

/** Every metric name the API and a worker define, with its label names (histograms add `le`). */
async function definedMetrics(): Promise<Map<string, Set<string>>> {
  const api = createApiMetrics({ queueDepth: async () => 0, inProgress: async () => 0, natsConnected: () => true, waitingPolls: () => 0 });
  const worker = createWorkerMetrics(() => true);
  createFairShareMetrics(worker.registry, async () => [], [{ name: "pro", waitTargetSeconds: 30 }]);
  const defined = new Map<string, Set<string>>();
  for (const registry of [api.registry, worker.registry] as Registry[]) {
    for (const metric of await registry.getMetricsAsJSON()) {
      const labels = new Set<string>((registry.getSingleMetric(metric.name) as unknown as { labelNames?: string[] })?.labelNames ?? []);
      if (String(metric.type) === "histogram") {
        for (const suffix of ["_bucket", "_count", "_sum"])
          defined.set(metric.name + suffix, new Set([...labels, ...(suffix === "_bucket" ? ["le"] : [])]));
      }
      defined.set(metric.name, labels);
    }
  }
  return defined;
}

/** Labels Prometheus attaches to every scraped series from the scrape config, not the service. */
const TARGET_LABELS = new Set(["job", "instance"]);

/**
 * Metric selectors in PromQL text, the service's own (`vrp_*`) and the standard process and
 * Node.js ones (`process_*`, `nodejs_*`): the metric name and the label names of its `{...}` matcher.
 */
function selectors(promql: string): { name: string; labels: string[] }[] {
  return [...promql.matchAll(/\b((?:vrp|process|nodejs)_[a-zA-Z0-9_]+)(\{([^}]*)\})?/g)].map((m) => ({
    name: m[1]!,
    labels: [...(m[3] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)].map((l) => l[1]!),
  }));
}

function expectKnown(defined: Map<string, Set<string>>, text: string, where: string): number {
  let checked = 0;
  for (const { name, labels } of selectors(text)) {
    expect(defined.has(name), `${where}: ${name} is not a metric the service defines`).to.equal(true);
    for (const label of labels)
      expect(TARGET_LABELS.has(label) || defined.get(name)!.has(label), `${where}: ${name} has no label '${label}'`).to.equal(true);
    checked++;
  }
  return checked;
}

describe("deploy/ references only metrics the service defines", () => {
  it("alert rules use only defined metric names and labels", async () => {
    const defined = await definedMetrics();
    const rules = readFileSync(join(REPO_ROOT, "deploy/alert-rules.yml"), "utf8");
    // Every expr (one-line or block) and the annotation texts that name metrics.
    expect(expectKnown(defined, rules, "deploy/alert-rules.yml")).to.be.greaterThan(7);
    for (const needed of [
      "vrp_queue_depth",
      "vrp_tasks_completed_total",
      "vrp_callbacks_total",
      "vrp_http_request_duration_seconds_bucket",
      "vrp_nats_connected",
    ]) {
      expect(rules, needed).to.include(needed);
    }
  });

  it("the Grafana dashboard uses only defined metric names and labels", async () => {
    const defined = await definedMetrics();
    const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, "deploy/grafana/vrp-dashboard.json"), "utf8")) as {
      panels: { targets?: { expr: string }[] }[];
    };
    let checked = 0;
    for (const panel of dashboard.panels)
      for (const target of panel.targets ?? []) checked += expectKnown(defined, target.expr, `dashboard "${target.expr}"`);
    expect(checked).to.be.greaterThan(10);
  });

  it("process metrics have their standard names, the same in the API and a worker, and deploy/ uses them by scrape job", async () => {
    const defined = await definedMetrics();
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_start_time_seconds",
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(defined.has(name), name).to.equal(true);
    }
    expect(
      [...defined.keys()].filter((n) => /^vrp_(api|worker)_/.test(n)),
      "prefixed process metrics",
    ).to.deep.equal([]);
    const deploy =
      readFileSync(join(REPO_ROOT, "deploy/alert-rules.yml"), "utf8") +
      readFileSync(join(REPO_ROOT, "deploy/grafana/vrp-dashboard.json"), "utf8");
    for (const query of [
      'process_resident_memory_bytes{job=\\"vrp-api\\"}',
      'process_resident_memory_bytes{job=\\"vrp-worker\\"}',
      'nodejs_eventloop_lag_p99_seconds{job=~"vrp-api|vrp-worker"}',
    ]) {
      expect(deploy, query).to.include(query);
    }
    const scrape = readFileSync(join(REPO_ROOT, "deploy/prometheus.yml"), "utf8");
    expect(scrape)
      .to.match(/job_name: vrp-api\n/)
      .and.match(/job_name: vrp-worker\n/);
  });

  it("the checker itself catches an unknown metric and an unknown label", async () => {
    const defined = await definedMetrics();
    expect(() => expectKnown(defined, "rate(vrp_callback_total[5m])", "t")).to.throw(/not a metric/);
    expect(() => expectKnown(defined, 'rate(vrp_callbacks_total{result="x"}[5m])', "t")).to.throw(/no label 'result'/);
    expect(() => expectKnown(defined, "vrp_api_process_resident_memory_bytes", "t")).to.throw(/not a metric/);
    expect(() => expectKnown(defined, 'process_resident_memory_bytes{service="api"}', "t")).to.throw(/no label 'service'/);
  });
});
