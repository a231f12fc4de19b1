import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.js";
import { startNatsServer, type NatsServerProcess } from "../../src/infra/nats-server.js";
import { freePort } from "../../src/infra/free-port.js";
import { spawnService, type ServiceProcess } from "../../src/infra/service-process.js";
import { createLogger } from "../../src/log/logger.js";
import { connectNats } from "../../src/queue/connection.js";
import { AccountStore } from "../../src/store/accounts.js";
import type { TaskRecord } from "../../src/queue/task-store.js";
import { taskReader } from "../../src/queue/task-queue.js";

export interface Stack {
  nats: NatsServerProcess;
  api: ServiceProcess;
  /** Every API instance (the first is `api`). */
  apis: ServiceProcess[];
  workers: ServiceProcess[];
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  storeDir: string;
  startWorker(extraEnv?: NodeJS.ProcessEnv): Promise<ServiceProcess>;
  /** Creates an account on `plan` and one key for it. */
  account(user: string, plan?: string): Promise<{ user: string; key: string; headers: Record<string, string> }>;
  /**
   * The task as the API reads it: its stored record, or, for a task that so far exists only as its
   * committed message, the first record its `queued` event carries.
   */
  task(id: string): Promise<TaskRecord | null>;
  stop(): Promise<void>;
}

const quietLog = createLogger({ service: "test" }, "error", () => undefined);

/**
 * A real nats-server on a free port, the API and `workers` worker processes, exactly as in
 * production, torn down by `stop()` (call it in `after`, which mocha runs also when tests fail).
 */
export async function startStack(
  options: { workers?: number; apis?: number; env?: NodeJS.ProcessEnv; natsMonitor?: boolean } = {},
): Promise<Stack> {
  const storeDir = mkdtempSync(join(tmpdir(), "vrp-test-"));
  const nats = await startNatsServer({
    storeDir: join(storeDir, "nats"),
    ...(options.natsMonitor ? { monitorPort: await freePort() } : {}),
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_URL: nats.url,
    PORT: String(await freePort()),
    LOG_LEVEL: "info",
    CALLBACK_ALLOW_LOOPBACK: "true",
    SELF_CHECK_RESPONSES: "true",
    WORKER_ACK_WAIT_MS: "4000",
    WORKER_SHUTDOWN_GRACE_MS: "3000",
    ...options.env,
  };
  const started: ServiceProcess[] = [];
  let stack: Stack | null = null;
  const stopAll = async () => {
    // Every response any API instance gave during the suite was checked against the document.
    const mismatches = started
      .flatMap((p) => p.output().split("\n"))
      .filter((line) => line.includes("response does not match the OpenAPI document"));
    for (const p of started) p.signal("SIGKILL");
    await Promise.all(started.map((p) => p.exited()));
    // A test may have replaced the server (the NATS outage test restarts it): stop that one too,
    // or it outlives the suite.
    await Promise.all([...new Set([nats, stack?.nats ?? nats])].map((n) => n.kill().catch(() => undefined)));
    rmSync(storeDir, { recursive: true, force: true });
    if (mismatches.length > 0) throw new Error(`responses that do not match the OpenAPI document:\n${mismatches.slice(0, 5).join("\n")}`);
  };
  try {
    const config = loadConfig(env);
    // The streams and buckets are made here, before any service starts, so the API instances and
    // workers can start side by side (each finds them made) instead of one after the other.
    await (await connectNats(config, "test-setup", quietLog)).close();
    const apiCount = options.apis ?? 1;
    const settled = await Promise.allSettled([
      // The first instance listens on env.PORT; the others on a port the kernel picks (their ready line names it).
      ...Array.from({ length: apiCount }, (_, i) => spawnService("api", i === 0 ? env : { ...env, PORT: "0" })),
      ...Array.from({ length: options.workers ?? 1 }, () => spawnService("worker", env)),
    ]);
    for (const s of settled) if (s.status === "fulfilled") started.push(s.value);
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    const apis = started.slice(0, apiCount);
    const api = apis[0]!;
    const workers: ServiceProcess[] = started.slice(apiCount);
    const startWorker = async (extraEnv: NodeJS.ProcessEnv = {}) => {
      const w = await spawnService("worker", { ...env, ...extraEnv });
      started.push(w);
      workers.push(w);
      return w;
    };
    stack = {
      nats,
      api,
      apis,
      workers,
      baseUrl: api.url,
      env,
      storeDir,
      startWorker,
      account: async (user, plan = "pro") => {
        const conn = await connectNats(config, "test-setup", quietLog);
        try {
          const accounts = new AccountStore(conn.accounts, conn.apiKeys);
          if (!(await accounts.getAccount(user))) await accounts.createAccount(user, plan);
          const { key } = await accounts.createKey(user);
          return { user, key, headers: { "X-User-Name": user, "X-Api-Key": key } };
        } finally {
          await conn.close();
        }
      },
      task: async (id) => {
        const conn = await connectNats(config, "test-inspect", quietLog);
        try {
          return await taskReader(conn).get(id);
        } finally {
          await conn.close();
        }
      },
      stop: stopAll,
    };
    return stack;
  } catch (err) {
    await stopAll();
    throw err;
  }
}
