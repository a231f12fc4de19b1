import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./free-port.js";

export interface NatsServerOptions {
  storeDir: string;
  port?: number;
  /** The address it listens on (clients and cluster routes); 127.0.0.1 unless set. */
  host?: string;
  /**
   * Runs it inside this network namespace (`ip netns exec`, root only): the fault suite cuts a
   * node off the network this way. `ip netns exec` execs the server, so the PID is the server's.
   */
  netns?: string;
  /** For a cluster: this node's name, its cluster port and the other nodes' cluster URLs. */
  cluster?: { name: string; serverName: string; port: number; routes: string[] };
  /** Start it in its own process group, so a terminal's Ctrl-C reaches only the parent. */
  ownProcessGroup?: boolean;
  /** Called with the process as soon as it is spawned (before it is ready), e.g. to stop it on a signal. */
  onSpawn?: (child: ChildProcess) => void;
  /** Also serve the HTTP monitoring endpoints (/varz, /connz) on this port (benchmarks count messages). */
  monitorPort?: number;
}

export interface NatsServerProcess {
  url: string;
  port: number;
  /** The monitoring base URL (http://host:port) when started with `monitorPort`. */
  monitorUrl: string | null;
  process: ChildProcess;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit (a crash, for fault tests). */
  kill(): Promise<void>;
}

/**
 * Starts a real nats-server with JetStream and file storage under `storeDir`, and resolves once
 * it accepts clients. Messages up to 8 MiB are allowed so results of very large problems fit in
 * one KV value; request bodies go to the object store, which chunks them anyway.
 */
export async function startNatsServer(options: NatsServerOptions): Promise<NatsServerProcess> {
  const port = options.port ?? (await freePort());
  const host = options.host ?? "127.0.0.1";
  mkdirSync(options.storeDir, { recursive: true });
  const lines = [`listen: "${host}:${port}"`, `max_payload: 8MB`, `jetstream { store_dir: "${options.storeDir.replace(/\\/g, "/")}" }`];
  if (options.monitorPort) lines.push(`http: "${host}:${options.monitorPort}"`);
  if (options.cluster) {
    lines.push(`server_name: "${options.cluster.serverName}"`);
    lines.push(
      `cluster { name: "${options.cluster.name}", listen: ` +
        `"${host}:${options.cluster.port}", routes: ` +
        `[${options.cluster.routes.map((r) => `"${r}"`).join(", ")}] }`,
    );
  }
  const configPath = join(options.storeDir, "nats-server.conf");
  writeFileSync(configPath, lines.join("\n") + "\n");
  const [command, ...args] = options.netns
    ? ["ip", "netns", "exec", options.netns, "nats-server", "-c", configPath]
    : ["nats-server", "-c", configPath];
  const child = spawn(command!, args, { stdio: ["ignore", "pipe", "pipe"], detached: options.ownProcessGroup ?? false });
  options.onSpawn?.(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nats-server did not start within 15 s:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Server is ready")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`could not start nats-server (is it installed? run 'make deps'): ${err.message}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with code ${code}:\n${output}`));
    });
  });
  // Keep draining its output so a chatty server never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  const waitExit = () =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
    );
  return {
    url: `nats://${host}:${port}`,
    port,
    monitorUrl: options.monitorPort ? `http://${host}:${options.monitorPort}` : null,
    process: child,
    stop: async () => {
      child.kill("SIGTERM");
      await waitExit();
    },
    kill: async () => {
      child.kill("SIGKILL");
      await waitExit();
    },
  };
}
