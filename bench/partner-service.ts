import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.js";
import { freePort } from "../src/infra/free-port.js";
import { portIsFree } from "../src/infra/port-check.js";
import { REPO_ROOT } from "../src/infra/service-process.js";
import { createLogger } from "../src/log/logger.js";
import { connectNats } from "../src/queue/connection.js";
import { AccountStore } from "../src/store/accounts.js";

/** The service as `make run` starts it (dist/src/bin/dev.js), in a temporary VAR_DIR. */
export interface PartnerService {
  baseUrl: string;
  natsUrl: string;
  /** nats-server's monitoring endpoints (NATS_MONITOR_PORT), for counting messages and stored writes. */
  monitorUrl: string;
  /** PIDs by role, found from the supervisor's descendants and their command lines. */
  pids: { supervisor: number; api: number; workers: number[]; nats: number };
  /** Creates an account on `plan` (from the plans file the service runs with) and one key. */
  account(user: string, plan: string): Promise<Record<string, string>>;
  /** SIGTERM to the supervisor, which stops workers, API and nats-server in order (CPU profiles are written then). */
  stop(): Promise<void>;
}

const quietLog = createLogger({ service: "bench" }, "error", () => undefined);

/** A free port whose +100 and +101 (the workers' metrics ports under make run) are free too. */
async function freeServicePort(workers: number): Promise<number> {
  for (;;) {
    const port = await freePort();
    let free = port + 100 + workers < 65535;
    for (let i = 0; free && i < workers; i++) free = await portIsFree(port + 100 + i);
    if (free) return port;
  }
}

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)) {
    if (entry) found.push(Number(entry));
  }
  return found;
}

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
}

/**
 * Starts `node dist/src/bin/dev.js` exactly as `make run` does (its defaults: LOG_LEVEL info, logs
 * to files, 2 workers), with `env` added (e.g. PLANS_FILE, PIPELINE_PROFILE_FILE, NODE_OPTIONS).
 */
export async function startPartnerService(workers: number, env: NodeJS.ProcessEnv): Promise<PartnerService> {
  const varDir = mkdtempSync(join(tmpdir(), "vrp-partner-"));
  const port = await freeServicePort(workers);
  const natsPort = await freePort();
  const monitorPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, "dist/src/bin/dev.js")], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...env,
      VAR_DIR: varDir,
      PORT: String(port),
      NATS_PORT: String(natsPort),
      NATS_MONITOR_PORT: String(monitorPort),
      WORKERS: String(workers),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`make run's service not ready within 60 s:\n${out}`)), 60_000);
    const check = () => {
      const ready = /VRP solve service ready at (\S+)/.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout!.on("data", check);
    void exited.then(() => reject(new Error(`make run's service exited:\n${out}`)));
  });
  const supervisor = child.pid!;
  const direct = childrenOf(supervisor);
  const roleOf = (pid: number) => commandLine(pid);
  const natsPid = direct.find((p) => roleOf(p).includes("nats-server"))!;
  const apiPid = direct.find((p) => roleOf(p).includes("bin/api.js"))!;
  const workerPids = direct.filter((p) => roleOf(p).includes("bin/worker.js"));
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const config = loadConfig({ ...process.env, ...env, NATS_URL: natsUrl });
  return {
    baseUrl,
    natsUrl,
    monitorUrl: `http://127.0.0.1:${monitorPort}`,
    pids: { supervisor, api: apiPid, workers: workerPids, nats: natsPid },
    account: async (user, plan) => {
      const conn = await connectNats(config, "bench-setup", quietLog);
      try {
        const accounts = new AccountStore(conn.accounts, conn.apiKeys);
        if (!(await accounts.getAccount(user))) await accounts.createAccount(user, plan);
        const { key } = await accounts.createKey(user);
        return { "X-User-Name": user, "X-Api-Key": key };
      } finally {
        await conn.close();
      }
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      rmSync(varDir, { recursive: true, force: true });
    },
  };
}
