import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { loadConfig } from "../../src/config/load.js";
import { freePort } from "../../src/infra/free-port.js";
import { startNatsServer, type NatsServerProcess } from "../../src/infra/nats-server.js";
import { spawnService, type ServiceProcess } from "../../src/infra/service-process.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { AccountStore } from "../../src/store/accounts.js";
import { quietLog } from "../helpers/nats.js";
import type { NetworkLab } from "./netns.js";

/**
 * A process restarted while the cluster still settles after a fault waits for JetStream (its
 * set-up is retried for a minute, see connectNats) before it says it is ready; on the shared
 * machine that took over 30 s once, so the suite waits up to two minutes.
 */
const READY_TIMEOUT_MS = 120_000;
const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));

interface NodeSpec {
  name: string;
  /** Its address: 127.0.0.1, or its own namespace's address when the cluster has a network. */
  host: string;
  port: number;
  clusterPort: number;
}

/**
 * The fault suite's system: three nats-server nodes (JetStream, replicas 3) on loopback, two API
 * instances and three workers, each a real process that can be stopped, frozen or killed, and
 * restarted on the same ports and store directories.
 */
export class FaultCluster {
  readonly dir = mkdtempSync(join(tmpdir(), "vrp-faults-"));
  /** Every service process's log, kept after the run for a failure's post-mortem. */
  readonly logDir = mkdtempSync(join(tmpdir(), "vrp-faults-logs-"));
  private spawned = 0;
  nodes: (NatsServerProcess | null)[] = [];
  apis: (ServiceProcess | null)[] = [];
  workers: (ServiceProcess | null)[] = [];
  env: NodeJS.ProcessEnv = {};
  headers: Record<string, string> = {};
  private specs: NodeSpec[] = [];
  private inspector: Nats | null = null;
  private probe: NatsConnection | null = null;

  /**
   * `network`: run each node in its own network namespace (NetworkLab, created here), so that a
   * node can be cut off the network (`cutNode`); without it every node listens on 127.0.0.1.
   */
  constructor(private readonly network: NetworkLab | null = null) {}

  async start(extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
    this.network?.create();
    for (let i = 0; i < 3; i++)
      this.specs.push({
        name: `n${i}`,
        host: this.network?.address(i) ?? "127.0.0.1",
        port: await freePort(),
        clusterPort: await freePort(),
      });
    this.nodes = await Promise.all(this.specs.map((_, i) => this.startNode(i)));
    await this.awaitJetStream();
    this.env = {
      ...process.env,
      NATS_URL: this.specs.map((s) => `nats://${s.host}:${s.port}`).join(","),
      NATS_REPLICAS: "3",
      PLANS_FILE,
      LOG_LEVEL: "warn",
      CALLBACK_ALLOW_LOOPBACK: "1",
      WORKER_ACK_WAIT_MS: "5000",
      BUSY_QUEUE_THRESHOLD: "100000",
      ...extraEnv,
    };
    this.inspector = await connectNats(loadConfig(this.env), "faults-inspector", quietLog);
    const accounts = new AccountStore(this.inspector.accounts, this.inspector.apiKeys);
    await accounts.createAccount("faults", "fuzz");
    const { key } = await accounts.createKey("faults");
    this.headers = { "content-type": "application/json", "x-user-name": "faults", "x-api-key": key };
    for (let i = 0; i < 2; i++) this.apis.push(await this.spawnApi());
    for (let i = 0; i < 3; i++) this.workers.push(await this.spawnWorker());
  }

  get nats(): Nats {
    return this.inspector!;
  }

  private startNode(i: number): Promise<NatsServerProcess> {
    const spec = this.specs[i]!;
    const routes = this.specs.map((s) => `nats://${s.host}:${s.clusterPort}`);
    return startNatsServer({
      storeDir: join(this.dir, spec.name),
      host: spec.host,
      port: spec.port,
      ...(this.network ? { netns: this.network.namespace(i) } : {}),
      cluster: { name: "vrp", serverName: spec.name, port: spec.clusterPort, routes },
    });
  }

  private async spawnApi(): Promise<ServiceProcess> {
    return spawnService("api", { ...this.env, PORT: String(await freePort()) }, join(this.logDir, `api-${this.spawned++}.log`), {
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
  }

  private spawnWorker(): Promise<ServiceProcess> {
    return spawnService("worker", this.env, join(this.logDir, `worker-${this.spawned++}.log`), { readyTimeoutMs: READY_TIMEOUT_MS });
  }

  /** Waits until the cluster's JetStream answers with all three peers (a meta leader is elected). */
  async awaitJetStream(timeoutMs = 60_000): Promise<void> {
    this.probe ??= await connect({
      servers: this.specs.map((s) => `nats://${s.host}:${s.port}`),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // A replicated stream can be placed only once all three peers are known to the meta leader.
      const ok = await jetstreamManager(this.probe, { timeout: 4000 })
        .then(async (m) => {
          await m.streams.add({ name: "FAULTS_PROBE", subjects: ["faults.probe"], num_replicas: 3 });
          await m.streams.delete("FAULTS_PROBE");
        })
        .then(
          () => true,
          () => false,
        );
      if (ok) return;
      if (Date.now() > deadline) throw new Error("JetStream did not come back");
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** The index of the node leading a stream (a KV bucket is the stream `KV_<bucket>`). */
  async leaderOf(stream: string): Promise<number> {
    const jsm = await jetstreamManager(this.probe!, { timeout: 4000 });
    for (let attempt = 0; attempt < 20; attempt++) {
      const info = await jsm.streams.info(stream).catch(() => null);
      const leader = info?.cluster?.leader;
      const index = this.specs.findIndex((s) => s.name === leader);
      if (index >= 0) return index;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`no leader for ${stream}`);
  }

  signalNode(i: number, signal: NodeJS.Signals): void {
    this.nodes[i]!.process.kill(signal);
  }

  /** Cuts node i off the network (its process keeps running); needs the cluster's network. */
  cutNode(i: number): void {
    this.network!.cut(i);
  }

  healNode(i: number): void {
    this.network!.heal(i);
  }

  async killNode(i: number): Promise<void> {
    await this.nodes[i]?.kill();
    this.nodes[i] = null;
  }

  async stopNode(i: number): Promise<void> {
    await this.nodes[i]?.stop();
    this.nodes[i] = null;
  }

  async restartNode(i: number): Promise<void> {
    this.nodes[i] = await this.startNode(i);
  }

  killApi(i: number): void {
    this.apis[i]!.signal("SIGKILL");
    this.apis[i] = null;
  }

  async restartApi(i: number): Promise<void> {
    this.apis[i] = await this.spawnApi();
  }

  killWorker(i: number): void {
    this.workers[i]?.signal("SIGKILL");
    this.workers[i] = null;
  }

  async restartWorker(i: number): Promise<void> {
    this.workers[i] = await this.spawnWorker();
  }

  /** Base URLs of the API instances now running. */
  apiUrls(): string[] {
    return this.apis.filter((a): a is ServiceProcess => a !== null).map((a) => a.url);
  }

  /** Log lines of every service process that mention an unhandled error (for failure messages). */
  unhandledErrors(): string {
    return [...this.apis, ...this.workers]
      .filter((p): p is ServiceProcess => p !== null)
      .flatMap((p) =>
        p
          .output()
          .split("\n")
          .filter((l) => l.includes('"unhandled error"')),
      )
      .slice(0, 5)
      .join("\n");
  }

  async stop(): Promise<void> {
    for (const p of [...this.apis, ...this.workers]) p?.signal("SIGKILL");
    await Promise.all([...this.apis, ...this.workers].map((p) => p?.exited()));
    await this.inspector?.close().catch(() => undefined);
    await this.probe?.close().catch(() => undefined);
    for (let i = 0; i < this.nodes.length; i++) {
      this.nodes[i]?.process.kill("SIGCONT");
      await this.nodes[i]?.kill().catch(() => undefined);
    }
    this.network?.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
