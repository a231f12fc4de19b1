/**
 * `make run`: nats-server with JetStream under var/, the API and the workers, all on loopback.
 * Prints one line with the URL when ready (and the demo account's key when one was never shown);
 * Ctrl-C, closing the terminal (SIGHUP) or SIGTERM stops everything, workers first so no task
 * is left half-done. Taken ports are found before anything is started or created.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { loadConfig } from "../config/load.js";
import { createLogger } from "../log/logger.js";
import { startNatsServer, type NatsServerProcess } from "../infra/nats-server.js";
import { takenPortMessage, type WantedPort } from "../infra/port-check.js";
import { REPO_ROOT, spawnService, type ServiceProcess } from "../infra/service-process.js";
import { announceDemoAccount } from "./dev-demo-account.js";

const varDir = process.env.VAR_DIR ?? join(REPO_ROOT, "var");
const logDir = join(varDir, "log");
const natsPort = Number(process.env.NATS_PORT ?? 4222);
const workerCount = Math.max(1, Number(process.env.WORKERS ?? 2));
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? "127.0.0.1";
/** Benchmarks only: nats-server's monitoring endpoints (/connz, /jsz) on this port; off by default. */
const natsMonitorPort = Number(process.env.NATS_MONITOR_PORT ?? 0);

// A closed terminal makes writes to it fail; that must not stop the clean-up below.
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});
const say = (line: string) => process.stdout.write(line + "\n");

let nats: NatsServerProcess | null = null;
/** Every process started, from the moment it is spawned (before it is ready), in start order. */
const spawned: { role: "nats" | "api" | "worker"; child: ChildProcess }[] = [];
const services: ServiceProcess[] = [];
let stopping = false;

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.filter(alive).map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}

/** Stops what has been started so far: workers, then the API, then nats-server. */
async function shutdown(reason: string, exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (reason) say(`\n${reason}: stopping workers, API and nats-server...`);
  for (const role of ["worker", "api", "nats"] as const) await stopAll(spawned.filter((s) => s.role === role).map((s) => s.child));
  if (reason) say("stopped");
  process.exit(exitCode);
}
// Registered before anything starts, so a signal at any moment stops what exists by then.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(signal, 0));
// Should this process die any other way, take the services with it rather than orphan them.
process.on("exit", () => {
  for (const { child } of spawned) if (alive(child)) child.kill("SIGKILL");
});

/** Startup failed: one line that says why (never a stack trace), then stop what was started. */
async function fail(message: string): Promise<never> {
  // A start that fails because a signal is stopping everything needs no message: shutdown() exits.
  if (!stopping) {
    process.stderr.write(`make run: ${message}\n`);
    void shutdown("", 1);
  }
  return new Promise<never>(() => {});
}

const wanted: WantedPort[] = [
  { port, variable: "PORT", role: "the API" },
  { port: natsPort, variable: "NATS_PORT", role: "nats-server" },
  ...Array.from({ length: workerCount }, (_, i) => ({
    port: port + 100 + i,
    variable: "PORT",
    role: `worker ${i + 1}'s metrics, PORT+${100 + i}`,
  })),
];
const taken = await takenPortMessage(wanted, host);
if (taken) await fail(taken);

mkdirSync(logDir, { recursive: true });
const onSpawn = (role: "nats" | "api" | "worker") => (child: ChildProcess) => void spawned.push({ role, child });
nats = await startNatsServer({
  storeDir: join(varDir, "nats"),
  port: natsPort,
  ownProcessGroup: true,
  onSpawn: onSpawn("nats"),
  ...(natsMonitorPort > 0 ? { monitorPort: natsMonitorPort } : {}),
}).catch((err: Error) =>
  fail(
    /address already in use/i.test(err.message)
      ? `port ${natsPort} is in use (nats-server); set NATS_PORT=... to use another`
      : firstLine(err.message),
  ),
);
const env = { ...process.env, NATS_URL: nats.url, PORT: String(port) };
const config = loadConfig(env);
const log = createLogger({ service: "vrp-dev" }, "error", (line) => process.stderr.write(line + "\n"));

const api: ServiceProcess = await spawnService("api", env, join(logDir, "api.log"), {
  ownProcessGroup: true,
  onSpawn: onSpawn("api"),
}).catch((err: Error) =>
  fail(
    /EADDRINUSE/.test(err.message)
      ? `port ${port} is in use (the API); set PORT=... to use another`
      : `the API did not start (see ${join(logDir, "api.log")}): ${firstLine(err.message)}`,
  ),
);
services.push(api);
for (let i = 0; i < workerCount; i++) {
  const worker = await spawnService(
    "worker",
    { ...env, WORKER_METRICS_PORT: String(port + 100 + i) },
    join(logDir, `worker-${i + 1}.log`),
    { ownProcessGroup: true, onSpawn: onSpawn("worker") },
  ).catch((err: Error) => fail(`worker ${i + 1} did not start (see ${join(logDir, `worker-${i + 1}.log`)}): ${firstLine(err.message)}`));
  services.push(worker);
}
// Only now, with every service listening, is the demo account created and its key printed.
await announceDemoAccount(config, varDir, nats.url, log, say).catch((err: Error) =>
  fail(`could not set up the demo account: ${firstLine(err.message)}`),
);

const shownLogDir = relative(REPO_ROOT, logDir).startsWith("..") ? logDir : relative(REPO_ROOT, logDir);
say(
  `Metrics: ${api.url}/metrics (API), ${services
    .slice(1)
    .map((w) => w.url)
    .join(", ")} (workers); logs in ${shownLogDir}/`,
);
say(`Route playground: ${api.url}/playground`);
say(`VRP solve service ready at ${api.url} (API reference: ${api.url}/docs; Ctrl-C to stop)`);

for (const service of services) {
  void service.exited().then((code) => {
    if (!stopping) {
      process.stderr.write(`a service process exited unexpectedly (code ${code}); see ${logDir}/. Stopping.\n`);
      void shutdown("exit", 1);
    }
  });
}

function firstLine(text: string): string {
  return text.split("\n")[0]!;
}
