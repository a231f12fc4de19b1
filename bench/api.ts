/**
 * `npm run bench:api`: in one run, the submit and poll endpoints against a bare Koa hello-world,
 * each driven by autocannon (10 connections, 10 s) on loopback; prints req/s, latencies and the
 * ratio to bare Koa. The full submit path is measured: auth, rate counter, validation, quota
 * counter, KV writes, JetStream publish, history entry.
 *
 * A last row drives the same JetStream operations a submit makes (two compare-and-set counter
 * writes one after the other, then body, task record and history entry together, then the
 * publish) straight from this process, with no HTTP at all: the ceiling that NATS alone puts on
 * submit throughput on this machine.
 *
 * Submit runs twice: all connections on one account (the headline: a partner has one account, so
 * its rate and quota counters are shared), and one account per connection.
 *
 * For fairness the CPU time each process used during each run is printed too: the load generator
 * (this process), the server under test, and nats-server all share the machine's cores, so a
 * server can only be as fast as the cores left to it.
 *
 * BENCH_SECONDS changes the duration; API_NODE_ARGS (space-separated) are passed to the API's
 * node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (the API is then stopped with SIGTERM so the
 * profile is written).
 */
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config/load.js";
import { freePort } from "../src/infra/free-port.js";
import { startNatsServer } from "../src/infra/nats-server.js";
import { REPO_ROOT, spawnService } from "../src/infra/service-process.js";
import { createLogger } from "../src/log/logger.js";
import { connectNats, type Nats } from "../src/queue/connection.js";
import { NAMES } from "../src/queue/names.js";
import { AccountStore } from "../src/store/accounts.js";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const PLANS_FILE = fileURLToPath(new URL("../test/fixtures/plans.json", import.meta.url));
const CLOCK_TICKS = 100;

/** User + system CPU seconds of a process so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

async function run(title: string, opts: autocannon.Options, pids: Record<string, number>): Promise<autocannon.Result> {
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  const cpu = Object.entries(pids)
    .map(([k, pid]) => `${k} ${Math.round(((cpuSeconds(pid) - before[k]!) / DURATION) * 100)}%`)
    .join(", ");
  console.log(
    `${title.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s  ` +
      `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ` +
      `${result.non2xx}  [cpu: ${cpu}]`,
  );
  return result;
}

const apiNodeArgs = (process.env.API_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
/** The submit's JetStream operations in a loop per connection, without HTTP; returns ops per second. */
async function natsOnlySubmits(conn: Nats): Promise<number> {
  const value = new TextEncoder().encode("x".repeat(300));
  const deadline = Date.now() + DURATION * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      // Each loop has counters of its own, as the API's batching keeps them uncontended.
      let rate = await conn.counters.put(`floor.rate.${c}`, value);
      let quota = await conn.counters.put(`floor.quota.${c}`, value);
      for (let i = 0; Date.now() < deadline; i++) {
        const id = `floor-${c}-${i}`;
        rate = await conn.counters.update(`floor.rate.${c}`, value, rate);
        quota = await conn.counters.update(`floor.quota.${c}`, value, quota);
        await Promise.all([conn.requestBodies.put(id, value), conn.tasks.put(id, value), conn.history.put(`floor.${id}`, value)]);
        await conn.js.publish(NAMES.taskSubject, value, { msgID: id });
        done++;
      }
    }),
  );
  return done / DURATION;
}

const profiling = apiNodeArgs.length > 0;
const dir = mkdtempSync(join(tmpdir(), "vrp-bench-api-"));
const nats = await startNatsServer({ storeDir: join(dir, "nats") });
const env = {
  ...process.env,
  NATS_URL: nats.url,
  PORT: String(await freePort()),
  PLANS_FILE,
  BUSY_QUEUE_THRESHOLD: "100000000",
  LOG_LEVEL: "warn",
};
const api = await spawnService("api", env, undefined, { nodeArgs: apiNodeArgs });
const bare = spawn(process.execPath, ["--import", "tsx", "bench/bare-koa.ts"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
const bareUrl = await new Promise<string>((resolve) =>
  bare.stdout!.on("data", (c: Buffer) => /READY (\S+)/.test(c.toString()) && resolve(/READY (\S+)/.exec(c.toString())![1]!)),
);
try {
  const conn = await connectNats(
    loadConfig(env),
    "bench",
    createLogger({}, "error", () => undefined),
  );
  const accounts = new AccountStore(conn.accounts, conn.apiKeys);
  const credentials: { user: string; key: string }[] = [];
  for (let i = 0; i <= CONNECTIONS; i++) {
    const user = i === 0 ? "bench" : `bench${i}`;
    await accounts.createAccount(user, "fuzz");
    credentials.push({ user, key: (await accounts.createKey(user)).key });
  }
  const headersOf = (c: { user: string; key: string }) => ({
    "content-type": "application/json",
    "x-user-name": c.user,
    "x-api-key": c.key,
  });
  const headers = headersOf(credentials[0]!);
  const body = JSON.stringify({
    node_num: 4,
    vehicle_num: 1,
    distance_matrix: [
      [0, 1, 2, 3],
      [1, 0, 1, 2],
      [2, 1, 0, 1],
      [3, 2, 1, 0],
    ],
    start_nodes: [0],
    end_nodes: [0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [10],
    time_limit_seconds: 1,
  });
  const first = (await (await fetch(`${api.url}/api/v1/solve`, { method: "POST", headers, body })).json()) as { request_id: string };

  const natsPid = nats.process.pid!;
  const apiPids = { loadgen: process.pid, api: api.child.pid!, nats: natsPid };
  console.log(`loopback, ${CONNECTIONS} connections, ${DURATION} s each, 2 cores shared by server, nats-server and load generator`);
  const koa = await run("bare Koa hello-world", { url: bareUrl }, { loadgen: process.pid, koa: bare.pid! });
  // The service's own HTTP stack without NATS: request context, envelope, routing, the 401 path.
  await run(
    "POST /api/v1/solve, no key (401)",
    { url: `${api.url}/api/v1/solve`, method: "POST", headers: { "content-type": "application/json" }, body },
    apiPids,
  );
  const submit = await run("POST /api/v1/solve (1 account)", { url: `${api.url}/api/v1/solve`, method: "POST", headers, body }, apiPids);
  let next = 1;
  const spread = await run(
    `POST /api/v1/solve (${CONNECTIONS} accounts)`,
    {
      url: `${api.url}/api/v1/solve`,
      method: "POST",
      headers,
      body,
      // One account per connection: no two connections share a rate or quota counter.
      setupClient: (client) => client.setHeaders(headersOf(credentials[next++ % credentials.length]!)),
    },
    apiPids,
  );
  const poll = await run("GET /api/v1/solve/result/{id}", { url: `${api.url}/api/v1/solve/result/${first.request_id}`, headers }, apiPids);
  const before = { loadgen: cpuSeconds(process.pid), nats: cpuSeconds(natsPid) };
  const floor = await natsOnlySubmits(conn);
  console.log(
    `${"NATS only: a submit's 6 JS ops".padEnd(34)} ${floor.toFixed(0).padStart(7)} ` +
      `/s      (no HTTP)  [cpu: loadgen ` +
      `${Math.round(((cpuSeconds(process.pid) - before.loadgen) / DURATION) * 100)}%, ` +
      `nats ${Math.round(((cpuSeconds(natsPid) - before.nats) / DURATION) * 100)}%]`,
  );
  await conn.close();
  const ratio = (r: autocannon.Result) => (r.requests.average / koa.requests.average).toFixed(2);
  console.log(
    `submit / bare Koa = ${ratio(submit)} (1 account), ${ratio(spread)} (${CONNECTIONS} accounts)   poll / bare Koa = ${ratio(poll)}`,
  );
} finally {
  bare.kill("SIGKILL");
  // A CPU profile is written only on a normal exit.
  api.signal(profiling ? "SIGTERM" : "SIGKILL");
  await api.exited();
  await nats.kill();
  rmSync(dir, { recursive: true, force: true });
}
