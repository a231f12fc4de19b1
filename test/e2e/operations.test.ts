import { expect } from "chai";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { sampleValue, scrape } from "../helpers/metrics.js";
import { startPrometheus } from "../helpers/prometheus.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";

function promtool(args: string[], input?: string): { status: number; output: string } {
  const r = spawnSync("promtool", args, { input, encoding: "utf8", cwd: REPO_ROOT });
  return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

describe("operations: metrics, health, Prometheus", function () {
  this.timeout(120_000);
  let stack: Stack;
  let headers: Record<string, string>;

  before(async () => {
    stack = await startStack({ workers: 0 });
    headers = (await stack.account("ops", "pro")).headers;
  });
  after(async () => {
    await stack?.stop();
  });

  it("serves /healthz and /readyz as documented", async () => {
    const health = await fetch(`${stack.baseUrl}/healthz`);
    expect(health.status).to.equal(200);
    await expectMatchesSpec("getHealth", 200, await health.json());
    const ready = await fetch(`${stack.baseUrl}/readyz`);
    expect(ready.status).to.equal(200);
    const body = await ready.json();
    await expectMatchesSpec("getReadiness", 200, body);
    expect(body).to.deep.equal({ status: "ready", checks: { nats: true, streams: true } });
  });

  it("exposes queue depth to a real Prometheus, and the metrics move as tasks flow", async () => {
    const client = apiClient(stack.baseUrl, headers);
    const before = await scrape(`${stack.baseUrl}/metrics`);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { data } = await client.POST("/api/v1/solve", {
        body: { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 40 }), time_limit_seconds: 1 } as never,
      });
      ids.push(data!.request_id);
    }
    await client.POST("/api/v1/solve", { body: { node_num: 0 } as never });
    const after = await scrape(`${stack.baseUrl}/metrics`);
    expect(sampleValue(after, "vrp_queue_depth")).to.equal(3);
    expect(sampleValue(after, "vrp_tasks", { state: "queued" })).to.equal(3);
    expect(sampleValue(after, "vrp_tasks", { state: "solving" })).to.equal(0);
    expect(
      sampleValue(after, "vrp_submissions_total", { outcome: "accepted", code: "none" }) -
        sampleValue(before, "vrp_submissions_total", { outcome: "accepted", code: "none" }),
    ).to.equal(3);
    expect(sampleValue(after, "vrp_submissions_total", { outcome: "rejected", code: "validation_failed" })).to.equal(1);
    expect(
      sampleValue(after, "vrp_http_request_duration_seconds_count", { method: "POST", route: "/api/v1/solve", status: "200" }),
    ).to.be.at.least(3);

    const prometheus = await startPrometheus([new URL(stack.baseUrl).host]);
    try {
      let depth: string | undefined;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        depth = (await prometheus.query("vrp_queue_depth"))[0]?.value[1];
        if (depth !== undefined) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(depth).to.equal("3");
    } finally {
      await prometheus.stop();
    }

    const worker = await stack.startWorker();
    for (const id of ids) await pollUntil(client, id, isFinished);
    const workerText = await scrape(worker.url);
    expect(sampleValue(workerText, "vrp_tasks_completed_total", { outcome: "solved" })).to.equal(3);
    // Five customers on two vehicles: the default selection's exhaustive search (strategies/exact).
    expect(sampleValue(workerText, "vrp_solve_duration_seconds_count", { strategy: "exact", outcome: "solved" })).to.equal(3);
    expect(sampleValue(workerText, "vrp_task_queued_seconds_count")).to.equal(3);
    expect(sampleValue(workerText, "vrp_tasks_in_progress")).to.equal(0);
    expect(sampleValue(workerText, "vrp_nats_connected")).to.equal(1);
    // The API caches the depth for up to 250 ms (src/queue/task-queue.ts): let the last poll's value age out.
    await new Promise((r) => setTimeout(r, 300));
    const drained = await scrape(`${stack.baseUrl}/metrics`);
    expect(sampleValue(drained, "vrp_queue_depth")).to.equal(0);
    expect(sampleValue(drained, "vrp_tasks", { state: "queued" })).to.equal(0);
    expect(
      sampleValue(drained, "vrp_http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/v1/solve/result/{request_id}",
        status: "200",
      }),
    ).to.be.greaterThan(0);
  });

  it("passes promtool check metrics on real scrapes of the API and a worker", async () => {
    for (const url of [`${stack.baseUrl}/metrics`, stack.workers[0]!.url]) {
      const result = promtool(["check", "metrics"], await scrape(url));
      expect(result.status, `${url}: ${result.output}`).to.equal(0);
    }
  });

  it("exposes the standard process and Node.js metrics unprefixed on the API and on a worker", async () => {
    for (const url of [`${stack.baseUrl}/metrics`, stack.workers[0]!.url]) {
      const text = await scrape(url);
      for (const name of [
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "nodejs_eventloop_lag_seconds",
        "nodejs_eventloop_lag_p99_seconds",
      ]) {
        expect(text, `${name} on ${url}`).to.match(new RegExp(`^${name}(\\{[^}]*\\})? \\d`, "m"));
      }
      expect(text, url).to.not.match(/^vrp_(api|worker)_/m);
    }
  });

  it("fires the event-loop lag alert on the standard metric, per scrape job (promtool test rules)", () => {
    const dir = mkdtempSync(join(tmpdir(), "vrp-rules-"));
    try {
      const rules = join(REPO_ROOT, "deploy/alert-rules.yml");
      writeFileSync(
        join(dir, "test.yml"),
        [
          `rule_files: ["${rules}"]`,
          "evaluation_interval: 1m",
          "tests:",
          "  - interval: 1m",
          "    input_series:",
          '      - series: \'nodejs_eventloop_lag_p99_seconds{job="vrp-worker",instance="w1"}\'',
          "        values: '0.9x15'",
          '      - series: \'nodejs_eventloop_lag_p99_seconds{job="vrp-api",instance="a1"}\'',
          "        values: '0.01x15'",
          "    alert_rule_test:",
          "      - eval_time: 10m",
          "        alertname: VrpEventLoopLagHigh",
          "        exp_alerts:",
          "          - exp_labels: { severity: warning, job: vrp-worker, instance: w1 }",
          "            exp_annotations:",
          '              summary: "Event loop lag p99 above 0.5 s on vrp-worker w1"',
          '              description: "A blocked main thread delays every request (API) or heartbeats (worker, risking redelivery); ' +
            'check CPU (process_cpu_seconds_total) and memory (process_resident_memory_bytes)."',
        ].join("\n") + "\n",
      );
      const result = promtool(["test", "rules", join(dir, "test.yml")]);
      expect(result.status, result.output).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fires the plan wait alert for the plan whose p95 wait is over its target, not for the other (promtool test rules)", () => {
    const dir = mkdtempSync(join(tmpdir(), "vrp-rules-"));
    try {
      const rules = join(REPO_ROOT, "deploy/alert-rules.yml");
      // Per minute, every task of "pro" waits 40-60 s (its target: 30 s), every task of "enterprise" under 5 s (target 30 s).
      const bucket = (plan: string, le: string, perMinute: number) =>
        `      - series: 'vrp_plan_wait_seconds_bucket{plan="${plan}",le="${le}",job="vrp-worker",instance="w1"}'\n` +
        `        values: '0+${perMinute}x30'`;
      writeFileSync(
        join(dir, "test.yml"),
        [
          `rule_files: ["${rules}"]`,
          "evaluation_interval: 1m",
          "tests:",
          "  - interval: 1m",
          "    input_series:",
          ...["5", "30"].map((le) => bucket("pro", le, 0)),
          ...["60", "+Inf"].map((le) => bucket("pro", le, 10)),
          ...["5", "30", "60", "+Inf"].map((le) => bucket("enterprise", le, 10)),
          ...["pro", "enterprise"].map(
            (plan) =>
              `      - series: 'vrp_plan_wait_target_seconds{plan="${plan}",job="vrp-worker",instance="w1"}'\n        values: '30x30'`,
          ),
          "    alert_rule_test:",
          "      - eval_time: 25m",
          "        alertname: VrpPlanWaitAboveTarget",
          "        exp_alerts:",
          "          - exp_labels: { severity: warning, plan: pro }",
          "            exp_annotations:",
          '              summary: "p95 wait of plan pro is 58.5s, above its target"',
          '              description: "Tasks of this plan wait longer than wait_target_seconds before a worker starts them: add workers, ' +
            "or check the plans' weights and max_solving (vrp_plan_tasks shows who is queued and solving).\"",
        ].join("\n") + "\n",
      );
      const result = promtool(["test", "rules", join(dir, "test.yml")]);
      expect(result.status, result.output).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ships alert rules that pass promtool check rules and a scrape config that passes check config", () => {
    const rules = promtool(["check", "rules", "deploy/alert-rules.yml"]);
    expect(rules.status, rules.output).to.equal(0);
    expect(rules.output).to.match(/SUCCESS: 10 rules found/);
    const config = promtool(["check", "config", "deploy/prometheus.yml"]);
    expect(config.status, config.output).to.equal(0);
  });

  it("ships a Grafana dashboard whose queries use only metrics the service exposes", async () => {
    const dashboard = JSON.parse(execFileSync("cat", ["deploy/grafana/vrp-dashboard.json"], { cwd: REPO_ROOT, encoding: "utf8" })) as {
      panels: { targets: { expr: string }[] }[];
    };
    const exposed = (await scrape(`${stack.baseUrl}/metrics`)) + (await scrape(stack.workers[0]!.url));
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        for (const name of target.expr.match(/\b(vrp|process|nodejs)_[a-z0-9_]+/g) ?? []) {
          const base = name.replace(/_(bucket|count|sum)$/, "");
          expect(exposed.includes(`# TYPE ${base} `) || exposed.includes(`# TYPE ${name} `), `${name} in "${target.expr}"`).to.equal(true);
        }
      }
    }
  });
});
