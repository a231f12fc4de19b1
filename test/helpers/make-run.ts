import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { freePort } from "../../src/infra/free-port.js";
import { portIsFree } from "../../src/infra/port-check.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";

/** A real `make run`, started in its own process group as a terminal would start it. */
export interface MakeRun {
  child: ChildProcess;
  /** Process group id (the make process's pid). */
  pgid: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  /** Resolves with stdout once `pattern` appears in it. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

export function startMakeRun(env: Record<string, string>): MakeRun {
  const child = spawn("make", ["-s", "run"], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    pgid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern, timeoutMs = 90_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${pattern} within ${timeoutMs} ms; stdout:\n${out}\nstderr:\n${err}`)),
          timeoutMs,
        );
        const check = () => {
          if (pattern.test(out)) {
            clearTimeout(timer);
            child.stdout!.off("data", check);
            resolve(out);
          }
        };
        child.stdout!.on("data", check);
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`make run exited (${code}) before ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
        });
        check();
      }),
  };
}

/** Every live descendant of `pid` (whatever process group it put itself in), from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name in (...) may hold spaces; the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z") parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) if (parent === p) (found.push(child), walk(child));
  };
  walk(pid);
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A free port whose +100 (the first worker's metrics) is free as well. */
export async function freeApiPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 101 < 65535 && (await portIsFree(port + 100)) && (await portIsFree(port + 101))) return port;
  }
}

/** Last-resort clean-up for a test that failed half-way: the group and every descendant seen. */
export function killAll(run: MakeRun | undefined, seen: number[]): void {
  for (const pid of seen) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  if (run && run.child.exitCode === null) {
    try {
      process.kill(-run.pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
