import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { loadConfig } from "../../src/config/load.js";
import { freePort } from "../../src/infra/free-port.js";
import { startNatsServer, type NatsServerProcess } from "../../src/infra/nats-server.js";
import { spawnService, type ServiceProcess } from "../../src/infra/service-process.js";
import { connectNats } from "../../src/queue/connection.js";
import { AccountStore } from "../../src/store/accounts.js";
import { quietLog } from "../helpers/nats.js";
import { sampleValue, scrape } from "../helpers/metrics.js";

const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));
const LOAD_TASKS = Number(process.env.SOAK_TASKS ?? 5000);
const FAULT_TASKS = Number(process.env.SOAK_FAULT_TASKS ?? 2000);
const CONCURRENCY = 16;
/** A client gives up on one submission after this long of 503s (the failover takes seconds). */
const CLIENT_PATIENCE_MS = 120_000;

const BODY = JSON.stringify({
  node_num: 4,
  vehicle_num: 1,
  distance_matrix: [
    [0, 3, 4, 5],
    [3, 0, 2, 4],
    [4, 2, 0, 3],
    [5, 4, 3, 0],
  ],
  start_nodes: [0],
  end_nodes: [0],
  node_demands: [0, 1, 2, 1],
  vehicles_capacity: [10],
  time_limit_seconds: 1,
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface LoadReport {
  accepted: string[];
  /** Final answer per submission (after retries), by HTTP status. */
  statuses: Map<number, number>;
  /** 503 answers that were retried, as a partner's client does on Retry-After. */
  retried503: number;
  latencies: number[];
  seconds: number;
}

/**
 * Submits `tasks` small requests from CONCURRENCY lanes spread over the API instances. With
 * `retryUnavailable`, a 503 is retried after its Retry-After, as the spec's clients should.
 */
async function submitLoad(
  apis: readonly ServiceProcess[],
  headers: Record<string, string>,
  tasks: number,
  opts: { retryUnavailable: boolean; onSubmission?: (index: number) => void },
): Promise<LoadReport> {
  const report: LoadReport = { accepted: [], statuses: new Map(), retried503: 0, latencies: [], seconds: 0 };
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, lane) => {
      while (next < tasks) {
        const i = next++;
        opts.onSubmission?.(i);
        const giveUpAt = Date.now() + CLIENT_PATIENCE_MS;
        for (let attempt = 0; ; attempt++) {
          const t0 = performance.now();
          const res = await fetch(`${apis[(i + lane + attempt) % apis.length]!.url}/api/v1/solve`, { method: "POST", headers, body: BODY });
          report.latencies.push(performance.now() - t0);
          const json = (await res.json()) as { request_id: string; success: boolean };
          if (res.status === 503 && opts.retryUnavailable && Date.now() < giveUpAt) {
            const retryAfter = Number(res.headers.get("retry-after"));
            expect(retryAfter, "503 without a Retry-After").to.be.greaterThan(0);
            report.retried503++;
            // Honour the header, capped so the run stays short; the other API instance may answer.
            await new Promise((r) => setTimeout(r, Math.min(retryAfter, 1) * 1000));
            continue;
          }
          report.statuses.set(res.status, (report.statuses.get(res.status) ?? 0) + 1);
          if (res.status === 200) report.accepted.push(json.request_id);
          else expect(json.success).to.equal(false);
          break;
        }
      }
    }),
  );
  report.seconds = (Date.now() - started) / 1000;
  report.latencies.sort((a, b) => a - b);
  return report;
}

/** Polls until every accepted task is solved or the deadline passes; returns the unsolved ids. */
async function awaitSolved(api: ServiceProcess, headers: Record<string, string>, ids: readonly string[]): Promise<Set<string>> {
  const deadline = Date.now() + 300_000;
  const pending = new Set(ids);
  while (pending.size > 0 && Date.now() < deadline) {
    for (const id of [...pending].slice(0, 200)) {
      const res = await fetch(`${api.url}/api/v1/solve/result/${id}`, { headers });
      if (res.status !== 200) continue;
      const json = (await res.json()) as { success: boolean; result: { status?: string } | null };
      if (json.success && json.result && json.result.status === "solved") pending.delete(id);
      else expect(json.success, JSON.stringify(json)).to.equal(true);
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
  return pending;
}

function summary(label: string, r: LoadReport, unsolved: number): string {
  return (
    `      ${label}: ${r.accepted.length} accepted in ${r.seconds.toFixed(1)} s (${(r.accepted.length / r.seconds).toFixed(0)}/s), ` +
    `final statuses ${JSON.stringify(Object.fromEntries(r.statuses))}, 503s retried ${r.retried503}, ` +
    `p50 ${percentile(r.latencies, 50).toFixed(1)} ms, p99 ${percentile(r.latencies, 99).toFixed(1)} ms, unsolved ${unsolved}`
  );
}

/**
 * Three nats-server nodes on loopback (JetStream, replicas 3), two API instances, three workers.
 * First a bounded load run with no fault; then a second run during which one NATS node is
 * killed. Loopback only; both runs stop by themselves after their submissions.
 */
describe("soak: three-node NATS cluster under load", function () {
  const dir = mkdtempSync(join(tmpdir(), "vrp-soak-"));
  const nodes: NatsServerProcess[] = [];
  const services: ServiceProcess[] = [];
  const workers: ServiceProcess[] = [];
  let apis: ServiceProcess[] = [];
  let headers: Record<string, string> = {};

  before(async () => {
    const clusterPorts = [await freePort(), await freePort(), await freePort()];
    const clientPorts = [await freePort(), await freePort(), await freePort()];
    const routes = clusterPorts.map((p) => `nats://127.0.0.1:${p}`);
    nodes.push(
      ...(await Promise.all(
        [0, 1, 2].map((i) =>
          startNatsServer({
            storeDir: join(dir, `n${i}`),
            port: clientPorts[i],
            cluster: { name: "vrp", serverName: `n${i}`, port: clusterPorts[i]!, routes },
          }),
        ),
      )),
    );
    // JetStream in a cluster answers only once a meta leader is elected.
    const probe = await connect({ servers: nodes.map((n) => n.url) });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await jetstreamManager(probe)
        .then((m) => m.getAccountInfo())
        .then(
          () => true,
          () => false,
        );
      if (ok) break;
      expect(Date.now()).to.be.lessThan(deadline);
      await new Promise((r) => setTimeout(r, 500));
    }
    await probe.close();

    const servers = nodes.map((n) => n.url).join(",");
    const env = {
      ...process.env,
      NATS_URL: servers,
      NATS_REPLICAS: "3",
      PLANS_FILE,
      LOG_LEVEL: "warn",
      WORKER_ACK_WAIT_MS: "5000",
      BUSY_QUEUE_THRESHOLD: "100000",
    };
    const conn = await connectNats(loadConfig(env), "soak", quietLog);
    const accounts = new AccountStore(conn.accounts, conn.apiKeys);
    await accounts.createAccount("loader", "fuzz");
    const { key } = await accounts.createKey("loader");
    await conn.close();
    headers = { "content-type": "application/json", "x-user-name": "loader", "x-api-key": key };
    for (let i = 0; i < 2; i++) services.push(await spawnService("api", { ...env, PORT: String(await freePort()) }));
    apis = services.slice();
    for (let i = 0; i < 3; i++) workers.push(await spawnService("worker", env));
    services.push(...workers);
  });

  after(async () => {
    for (const s of services) s.signal("SIGKILL");
    await Promise.all(services.map((s) => s.exited()));
    for (const n of nodes) await n.kill().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  /** The API's own account of an unexpected status makes it easier to chase. */
  function unhandledErrors(): string {
    return apis
      .flatMap((a) =>
        a
          .output()
          .split("\n")
          .filter((l) => l.includes('"unhandled error"')),
      )
      .slice(0, 3)
      .join("\n");
  }

  it(
    `load: ${LOAD_TASKS} tasks through two API instances, every rejection a 429, ` + `every accepted task solved, worker memory flat`,
    async () => {
      const rssOf = () => Promise.all(workers.map(async (w) => sampleValue(await scrape(w.url), "process_resident_memory_bytes")));
      const rssStart = await rssOf();
      const report = await submitLoad(apis, headers, LOAD_TASKS, { retryUnavailable: false });
      const unsolved = await awaitSolved(apis[0]!, headers, report.accepted);
      const rssEnd = await rssOf();
      const mb = (x: number) => (x / 1048576).toFixed(0);
      console.log(
        `${summary("load", report, unsolved.size)}, worker RSS start ${rssStart.map(mb).join("/")} MB, end ${rssEnd.map(mb).join("/")} MB`,
      );
      const unhandled = unhandledErrors();
      if (unhandled) console.log(unhandled);
      expect(unsolved.size, "accepted tasks not solved").to.equal(0);
      for (const status of report.statuses.keys()) expect(status, unhandled).to.be.oneOf([200, 429]);
      expect(report.accepted.length).to.be.greaterThan(0);
      // A coarse bound: RSS keeps heap space V8 once grew into; test/worker/memory.test.ts checks the
      // heap after garbage collection, which is what a leak would move.
      for (let i = 0; i < workers.length; i++) expect(rssEnd[i]!, "worker RSS growth").to.be.lessThan(rssStart[i]! * 2 + 64 * 1048576);
    },
  );

  it(
    `fault: one NATS node killed during ${FAULT_TASKS} submissions; every 503 ` +
      `carries Retry-After, retried submissions are accepted, none lost`,
    async () => {
      let killed = false;
      const report = await submitLoad(apis, headers, FAULT_TASKS, {
        retryUnavailable: true,
        onSubmission: (i) => {
          if (!killed && i >= FAULT_TASKS / 4) {
            killed = true;
            void nodes[2]!.kill();
          }
        },
      });
      const unsolved = await awaitSolved(apis[0]!, headers, report.accepted);
      console.log(summary("fault", report, unsolved.size));
      const unhandled = unhandledErrors();
      if (unhandled) console.log(unhandled);
      expect(killed).to.equal(true);
      expect(unsolved.size, "accepted tasks not solved").to.equal(0);
      for (const status of report.statuses.keys()) expect(status, unhandled).to.be.oneOf([200, 429]);
    },
  );
});
