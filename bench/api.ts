/**
 * `npm run bench:api`: in one run, the submit and poll endpoints against a bare Koa hello-world,
 * each driven by autocannon (10 connections, 10 s) on loopback; prints req/s, latencies and the
 * ratio to bare Koa. The full submit path is measured: auth, rate counter, validation, KV and
 * object-store writes, JetStream publish.
 */
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config/load.js";
import { freePort } from "../src/infra/free-port.js";
import { startNatsServer } from "../src/infra/nats-server.js";
import { REPO_ROOT, spawnService } from "../src/infra/service-process.js";
import { createLogger } from "../src/log/logger.js";
import { connectNats } from "../src/queue/connection.js";
import { AccountStore } from "../src/store/accounts.js";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const PLANS_FILE = fileURLToPath(new URL("../test/fixtures/plans.json", import.meta.url));

async function run(title: string, opts: autocannon.Options): Promise<autocannon.Result> {
  const result = await autocannon({ connections: 10, duration: DURATION, ...opts });
  console.log(`${title.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}`);
  return result;
}

const dir = mkdtempSync(join(tmpdir(), "vrp-bench-api-"));
const nats = await startNatsServer({ storeDir: join(dir, "nats") });
const env = { ...process.env, NATS_URL: nats.url, PORT: String(await freePort()), PLANS_FILE, BUSY_QUEUE_THRESHOLD: "100000000", LOG_LEVEL: "warn" };
const api = await spawnService("api", env);
const bare = spawn(process.execPath, ["--import", "tsx", "bench/bare-koa.ts"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
const bareUrl = await new Promise<string>((resolve) => bare.stdout!.on("data", (c: Buffer) => /READY (\S+)/.test(c.toString()) && resolve(/READY (\S+)/.exec(c.toString())![1]!)));
try {
  const conn = await connectNats(loadConfig(env), "bench", createLogger({}, "error", () => undefined));
  const accounts = new AccountStore(conn.accounts, conn.apiKeys);
  await accounts.createAccount("bench", "fuzz");
  const { key } = await accounts.createKey("bench");
  await conn.close();
  const headers = { "content-type": "application/json", "x-user-name": "bench", "x-api-key": key };
  const body = JSON.stringify({ node_num: 4, vehicle_num: 1, distance_matrix: [[0, 1, 2, 3], [1, 0, 1, 2], [2, 1, 0, 1], [3, 2, 1, 0]], start_nodes: [0], end_nodes: [0], node_demands: [0, 1, 1, 1], vehicles_capacity: [10], time_limit_seconds: 1 });
  const first = (await (await fetch(`${api.url}/api/v1/solve`, { method: "POST", headers, body })).json()) as { request_id: string };

  console.log(`loopback, 10 connections, ${DURATION} s each, 2 cores shared by server and load generator`);
  const koa = await run("bare Koa hello-world", { url: bareUrl });
  const submit = await run("POST /api/v1/solve", { url: `${api.url}/api/v1/solve`, method: "POST", headers, body });
  const poll = await run("GET /api/v1/solve/result/{id}", { url: `${api.url}/api/v1/solve/result/${first.request_id}`, headers });
  console.log(`submit / bare Koa = ${(submit.requests.average / koa.requests.average).toFixed(2)}   poll / bare Koa = ${(poll.requests.average / koa.requests.average).toFixed(2)}`);
} finally {
  bare.kill("SIGKILL");
  api.signal("SIGKILL");
  await api.exited();
  await nats.kill();
  rmSync(dir, { recursive: true, force: true });
}
