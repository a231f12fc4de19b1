import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
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

/** How often the log file is read for the ready line while a process with a log file starts. */
const READY_POLL_MS = 20;

/**
 * A log file's text written since it was opened here (the last OUTPUT_TAIL_CHARS), read on demand:
 * new bytes only, so polling it for the ready line costs little.
 */
class FileOutput {
  private readAt: number;
  private readonly tail = new OutputTail(OUTPUT_TAIL_CHARS);
  private readonly decoder = new StringDecoder("utf8");
  private closed = false;

  /** `fd`: opened for reading and appending; what the file held before is not this process's. */
  constructor(private readonly fd: number) {
    this.readAt = fstatSync(fd).size;
  }

  text(): string {
    if (!this.closed) this.readNew();
    return this.tail.text();
  }

  close(): void {
    if (this.closed) return;
    this.readNew();
    this.closed = true;
    closeSync(this.fd);
  }

  private readNew(): void {
    // Only the last OUTPUT_TAIL_CHARS bytes can matter: skip what a long run wrote before them.
    const size = fstatSync(this.fd).size;
    this.readAt = Math.max(this.readAt, size - OUTPUT_TAIL_CHARS);
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const n = readSync(this.fd, chunk, 0, chunk.length, this.readAt);
      if (n <= 0) break;
      this.readAt += n;
      this.tail.push(this.decoder.write(chunk.subarray(0, n)));
    }
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
  // With a log file the child writes its lines straight to it: copying every line through this
  // process cost CPU per task (make run's supervisor). The file is read back only for the ready
  // line and for diagnostics.
  const logFd = logFile ? openSync(logFile, "a+") : null;
  const logOutput = logFd !== null ? new FileOutput(logFd) : null;
  // In its own process group a child does not receive the terminal's Ctrl-C directly, so the
  // parent can stop the services in order (workers first, while NATS is still up).
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(BUILT_BIN_DIR, `${entry}.js`)], {
    cwd: REPO_ROOT,
    env,
    stdio: logFd !== null ? ["ignore", logFd, logFd] : ["ignore", "pipe", "pipe"],
    detached: options.ownProcessGroup ?? false,
  });
  options.onSpawn?.(child);
  const tail = new OutputTail(OUTPUT_TAIL_CHARS);
  const output = () => (logOutput ? logOutput.text() : tail.text());
  if (!logOutput) {
    const collect = (chunk: Buffer) => tail.push(chunk.toString());
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
  }
  const exitPromise = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      logOutput?.close();
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
    let poll: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      clearInterval(poll);
      // Not left running untracked: the caller gets no handle to stop it.
      child.kill("SIGKILL");
      reject(new Error(`${entry} did not become ready within ${readyTimeoutMs / 1000} s:\n${output()}`));
    }, readyTimeoutMs);
    const onData = () => {
      const url = readyUrl(output());
      if (url !== null) {
        clearTimeout(timer);
        clearInterval(poll);
        child.stdout?.off("data", onData);
        resolve(url);
      }
    };
    if (logOutput) poll = setInterval(onData, READY_POLL_MS);
    else child.stdout!.on("data", onData);
    void exitPromise.then((code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`${entry} exited with code ${code} before it was ready:\n${output()}`));
    });
  });
  return {
    url,
    child,
    output,
    signal: (sig) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    },
    exited: () => exitPromise,
  };
}
