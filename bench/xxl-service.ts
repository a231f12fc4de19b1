/**
 * One XXL instance end to end through the real service (not part of `make test`: a 30,000-customer
 * solve takes minutes): starts nats-server, the API and one worker on free loopback ports, creates
 * an account on the `large` plan, submits the request, polls until it is solved, checks the answer
 * (every customer once, loads within capacity, cost recomputed from the positions) and prints the
 * submit latency, the time to the result, the gap and the worker process's peak RSS:
 * `npm run bench:xxl-service [-- --only Flanders2 --time 120]`, or `-- --customers N` for a uniform
 * random instance of N customers (the worker memory table).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/load.js";
import { freePort } from "../src/infra/free-port.js";
import { startNatsServer } from "../src/infra/nats-server.js";
import { spawnService, type ServiceProcess } from "../src/infra/service-process.js";
import { createLogger } from "../src/log/logger.js";
import { connectNats } from "../src/queue/connection.js";
import { AccountStore } from "../src/store/accounts.js";

const { values } = parseArgs({
  options: { only: { type: "string", default: "Flanders2" }, time: { type: "string", default: "120" }, customers: { type: "string" } },
});
const root = fileURLToPath(new URL("../", import.meta.url));
const benchDir = process.env.BENCH_DIR ?? resolve(root, "../shared/benchmarks");
interface PositionsRequest {
  node_positions: [number, number][];
  node_demands: number[];
  vehicles_capacity: number[];
  node_num: number;
}

/** --customers N: a uniform random instance instead (no best known; for the memory table). */
function randomRequest(customers: number): PositionsRequest & Record<string, unknown> {
  let s = customers;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = customers + 1;
  const positions = Array.from({ length: n }, (_, i): [number, number] =>
    i === 0 ? [5000, 5000] : [Math.round(rand() * 10000), Math.round(rand() * 10000)],
  );
  const vehicles = Math.ceil(customers / 16) + 10;
  return {
    name: `random-${customers}`,
    node_num: n,
    vehicle_num: vehicles,
    node_positions: positions,
    distance_matrix: [],
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: positions.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 9))),
    vehicles_capacity: Array(vehicles).fill(100),
  };
}

const entry = values.customers
  ? { name: `random-${values.customers}`, bks: Number.NaN, request: "" }
  : (JSON.parse(readFileSync(join(benchDir, "manifest.json"), "utf8")) as { name: string; bks: number; request: string }[]).find(
      (e) => e.name === values.only,
    )!;
const request = values.customers
  ? randomRequest(Number(values.customers))
  : (JSON.parse(readFileSync(join(benchDir, entry.request), "utf8")) as PositionsRequest);

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

/** Independent check: every customer once, capacity, and the cost recomputed from the positions. */
function check(routes: Record<string, number[]>): number {
  const seen = new Uint8Array(request.node_num);
  let cost = 0;
  Object.values(routes).forEach((route, v) => {
    let load = 0;
    for (let k = 1; k < route.length; k++) {
      const [a, b] = [request.node_positions[route[k - 1]!]!, request.node_positions[route[k]!]!];
      cost += Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (k < route.length - 1) {
        if (seen[route[k]!]) throw new Error(`customer ${route[k]} visited twice`);
        seen[route[k]!] = 1;
        load += request.node_demands[route[k]!]!;
      }
    }
    if (load > request.vehicles_capacity[v]!) throw new Error(`route ${v} over capacity`);
  });
  for (let c = 1; c < request.node_num; c++) if (!seen[c]) throw new Error(`customer ${c} not visited`);
  return cost;
}

const storeDir = mkdtempSync(join(tmpdir(), "vrp-xxl-"));
const nats = await startNatsServer({ storeDir: join(storeDir, "nats") });
const env = { ...process.env, NATS_URL: nats.url, PORT: String(await freePort()), LOG_LEVEL: "warn" };
const services: ServiceProcess[] = [];
try {
  services.push(await spawnService("api", env));
  const worker = await spawnService("worker", env);
  services.push(worker);
  const conn = await connectNats(
    loadConfig(env),
    "bench-setup",
    createLogger({ service: "bench" }, "error", () => undefined),
  );
  const accounts = new AccountStore(conn.accounts, conn.apiKeys);
  await accounts.createAccount("xxl", "large");
  const { key } = await accounts.createKey("xxl");
  await conn.close();
  const headers = { "Content-Type": "application/json", "X-User-Name": "xxl", "X-Api-Key": key };
  const base = services[0]!.url;
  const rssBefore = peakRssMb(worker.child.pid!);

  const body = JSON.stringify({ ...request, time_limit_seconds: Number(values.time) });
  const t0 = performance.now();
  const submit = await fetch(`${base}/api/v1/solve`, { method: "POST", headers, body });
  const submitMs = performance.now() - t0;
  const ack = (await submit.json()) as { request_id: string };
  if (submit.status !== 200) throw new Error(`submit answered ${submit.status}: ${JSON.stringify(ack)}`);
  let final: {
    success: boolean;
    result: { status?: string; total_cost?: number; routes?: Record<string, number[]>; strategy?: string } | null;
    error?: string;
  };
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const poll = await fetch(`${base}/api/v1/solve/result/${ack.request_id}`, { headers });
    final = (await poll.json()) as typeof final;
    if (!final.success || final.result?.status !== "processing") break;
  }
  const seconds = (performance.now() - t0) / 1000;
  if (!final.success || !final.result?.routes) throw new Error(`not solved: ${JSON.stringify(final).slice(0, 400)}`);
  const cost = check(final.result.routes);
  console.log(
    JSON.stringify({
      instance: entry.name,
      customers: request.node_num - 1,
      body_bytes: body.length,
      submit_ms: Math.round(submitMs),
      time_limit_s: Number(values.time),
      result_after_s: Number(seconds.toFixed(1)),
      strategy: final.result.strategy,
      total_cost: final.result.total_cost,
      checked_cost: Number(cost.toFixed(3)),
      gap_pct: Number.isNaN(entry.bks) ? null : Number(((100 * (cost - entry.bks)) / entry.bks).toFixed(2)),
      worker_peak_rss_mb: peakRssMb(worker.child.pid!),
      worker_rss_after_start_mb: rssBefore,
    }),
  );
} finally {
  for (const s of services) s.signal("SIGTERM");
  await Promise.all(services.map((s) => s.exited()));
  await nats.kill();
  rmSync(storeDir, { recursive: true, force: true });
}
