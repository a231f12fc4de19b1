import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { READY_MESSAGE } from "../log/logger.js";
import { REPO_ROOT } from "./repo-root.js";

export { REPO_ROOT };

/** Where `make build` (tsconfig.build.json) puts the compiled entry points. */
export const BUILT_BIN_DIR = join(REPO_ROOT, "dist/src/bin");

/** The url of the first complete ready line in a process's output, if it has printed one. */
function readyUrl(output: string): string | null {
  for (const line of output.split("\n")) {
    if (!line.includes(`"msg":"${READY_MESSAGE}"`)) continue;
    try {
      const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
      if (entry.msg === READY_MESSAGE && typeof entry.url === "string") return entry.url;
    } catch {
      // not yet a complete line
    }
  }
  return null;
}

/** How much of a process's latest output is kept for diagnostics. */
const OUTPUT_TAIL_CHARS = 200_000;

/**
 * The last `limit` characters of a stream of chunks: bounded, so a long run does not grow the
 * parent's memory without end. Chunks are only appended (copied together once they reach twice
 * the limit), so the cost per byte stays the same however chatty the process is; copying the
 * whole tail on every chunk made `make run`'s supervisor one of the busiest processes under load.
 */
export class OutputTail {
  private chunks: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  push(text: string): void {
    this.chunks.push(text);
    this.length += text.length;
    if (this.length > 2 * this.limit) this.compact();
  }

  text(): string {
    this.compact();
    return this.chunks[0] ?? "";
  }

  private compact(): void {
    if (this.chunks.length <= 1 && this.length <= this.limit) return;
    const joined = this.chunks.join("").slice(-this.limit);
    this.chunks = [joined];
    this.length = joined.length;
  }
}

export interface ServiceProcess {
  /** The `url` of the process's ready line: the API's base URL or a worker's metrics URL. */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (JSON log lines), for test diagnostics. */
  output(): string;
  signal(sig: NodeJS.Signals): void;
  exited(): Promise<number | null>;
}

/**
 * Starts the compiled `dist/src/bin/<entry>.js` (the production build, see `make build`) as a
 * separate process of the same Node that runs the caller (process.execPath: the project's
 * Node 24 under make), directly rather than through a wrapper, so the PID is the process that
 * does the work and signals reach it; resolves when it logs its ready line (`{"msg":"ready","url":...}`, a JSON log line like all others).
 */
export async function spawnService(
  entry: "api" | "worker",
  env: NodeJS.ProcessEnv,
  logFile?: string,
  options: {
    ownProcessGroup?: boolean;
    nodeArgs?: string[];
    onSpawn?: (child: ChildProcess) => void;
    /** How long to wait for the ready line (30 s); a process not ready by then is killed. */
    readyTimeoutMs?: number;
  } = {},
): Promise<ServiceProcess> {
  // In its own process group a child does not receive the terminal's Ctrl-C directly, so the
  // parent can stop the services in order (workers first, while NATS is still up).
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(BUILT_BIN_DIR, `${entry}.js`)], {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.ownProcessGroup ?? false,
  });
  options.onSpawn?.(child);
  const tail = new OutputTail(OUTPUT_TAIL_CHARS);
  const log = logFile ? createWriteStream(logFile, { flags: "a" }) : null;
  const collect = (chunk: Buffer) => {
    tail.push(chunk.toString());
    log?.write(chunk);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exitPromise = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      // Not left running untracked: the caller gets no handle to stop it.
      child.kill("SIGKILL");
      reject(new Error(`${entry} did not become ready within ${readyTimeoutMs / 1000} s:\n${tail.text()}`));
    }, readyTimeoutMs);
    const onData = () => {
      const url = readyUrl(tail.text());
      if (url !== null) {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        resolve(url);
      }
    };
    child.stdout!.on("data", onData);
    void exitPromise.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with code ${code} before it was ready:\n${tail.text()}`));
    });
  });
  return {
    url,
    child,
    output: () => tail.text(),
    signal: (sig) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    },
    exited: () => exitPromise,
  };
}
