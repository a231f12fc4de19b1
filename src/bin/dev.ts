/**
 * `make run`: nats-server with JetStream under var/, the API and the workers, all on loopback.
 * Prints one line with the URL when ready (and, on a fresh store, the demo account's key once);
 * Ctrl-C stops everything, workers first so no task is left half-done.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config/load.js";
import { createLogger } from "../log/logger.js";
import { connectNats } from "../queue/connection.js";
import { AccountStore } from "../store/accounts.js";
import { startNatsServer } from "../infra/nats-server.js";
import { REPO_ROOT, spawnService, type ServiceProcess } from "../infra/service-process.js";

/** Room for real trials: 2,000 nodes and 200 vehicles (decisions.md). */
const DEMO_PLAN = "pro";
const varDir = join(REPO_ROOT, "var");
const logDir = join(varDir, "log");
mkdirSync(logDir, { recursive: true });
const natsPort = Number(process.env.NATS_PORT ?? 4222);
const workerCount = Math.max(1, Number(process.env.WORKERS ?? 2));
const port = Number(process.env.PORT ?? 8080);

const nats = await startNatsServer({ storeDir: join(varDir, "nats"), port: natsPort, ownProcessGroup: true });
const env = { ...process.env, NATS_URL: nats.url, PORT: String(port) };
const config = loadConfig(env);
const log = createLogger({ service: "vrp-dev" }, "error", (line) => process.stderr.write(line + "\n"));

const demoKey = await ensureDemoAccount();
const children: ServiceProcess[] = [];
const api = await spawnService("api", env, join(logDir, "api.log"), { ownProcessGroup: true });
children.push(api);
for (let i = 0; i < workerCount; i++) {
  children.push(await spawnService("worker", { ...env, WORKER_METRICS_PORT: String(port + 100 + i) }, join(logDir, `worker-${i + 1}.log`), { ownProcessGroup: true }));
}

if (demoKey) {
  process.stdout.write(`Created account 'demo' (plan '${DEMO_PLAN}'). Its API key is shown only this once:\n  X-User-Name: demo\n  X-Api-Key: ${demoKey}\n`);
}
process.stdout.write(`Metrics: ${api.url}/metrics (API), ${children.slice(1).map((w) => w.url).join(", ")} (workers); logs in var/log/\n`);
process.stdout.write(`Route playground: ${api.url}/playground\n`);
process.stdout.write(`VRP solve service ready at ${api.url} (OpenAPI: openapi/solve-api.openapi.json; Ctrl-C to stop)\n`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: stopping workers, API and nats-server...\n`);
  const workers = children.slice(1);
  for (const w of workers) w.signal("SIGTERM");
  await Promise.all(workers.map((w) => w.exited()));
  api.signal("SIGTERM");
  await api.exited();
  await nats.stop();
  process.stdout.write("stopped\n");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
// Should this process die any other way, take the services with it rather than orphan them.
process.on("exit", () => {
  for (const child of children) child.signal("SIGKILL");
  nats.process.kill("SIGKILL");
});
process.on("SIGTERM", () => void shutdown("SIGTERM"));
for (const child of children) {
  void child.exited().then((code) => {
    if (!stopping) {
      process.stderr.write(`a service process exited unexpectedly (code ${code}); see var/log/. Stopping.\n`);
      void shutdown("exit");
    }
  });
}


/** On the first start with an empty store: the demo account and one key, printed once. */
async function ensureDemoAccount(): Promise<string | null> {
  const conn = await connectNats(config, "vrp-dev", log);
  try {
    const accounts = new AccountStore(conn.accounts, conn.apiKeys);
    if ((await accounts.listAccounts()).length > 0) return null;
    await accounts.createAccount("demo", DEMO_PLAN);
    return (await accounts.createKey("demo")).key;
  } finally {
    await conn.close();
  }
}
