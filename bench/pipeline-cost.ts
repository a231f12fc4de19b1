import { readFileSync } from "node:fs";

/**
 * What a phase of the pipeline bench cost, independent of how loaded the machine is: the CPU time
 * each process of the stack used (utime + stime from /proc, all threads, so a worker's solver
 * thread counts) and the messages each NATS client sent to the server (nats-server's /connz
 * `in_msgs`: every KV read or write, publish, pull and ack is one; a request's reply is not).
 * On a shared machine wall-clock figures swing with the neighbours; these do not.
 */
export interface CostSnapshot {
  cpuMs: Record<string, number>;
  msgs: Record<string, number>;
}

export interface CostProcesses {
  api: number;
  workers: number[];
  nats: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU ms a process used so far, all its threads (utime + stime from /proc). */
export function cpuMsOf(pid: number): number {
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th overall.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * Write system calls a process made so far (`syscw` of /proc/<pid>/io, all threads): on loopback a
 * small write also runs the receiver's side of TCP, so their count weighs more than their bytes.
 */
export function writeCallsOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/io`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("syscw:"));
  return line ? Number(line.slice("syscw:".length)) : NaN;
}

interface Connz {
  connections: { name?: string; in_msgs: number }[];
}

/** The CPU and message counters now; `monitorUrl` is nats-server's monitoring endpoint. */
export async function costSnapshot(processes: CostProcesses, monitorUrl: string): Promise<CostSnapshot> {
  const connz = (await (await fetch(`${monitorUrl}/connz?limit=1000`)).json()) as Connz;
  const msgs: Record<string, number> = { api: 0, workers: 0 };
  for (const c of connz.connections) {
    if (c.name === "vrp-api") msgs.api! += c.in_msgs;
    else if (c.name?.startsWith("vrp-worker-")) msgs.workers! += c.in_msgs;
  }
  return {
    cpuMs: {
      api: cpuMsOf(processes.api),
      workers: processes.workers.reduce((sum, pid) => sum + cpuMsOf(pid), 0),
      nats: cpuMsOf(processes.nats),
    },
    msgs,
  };
}

/** One markdown row per phase: CPU ms and NATS messages per task between two snapshots. */
export function costRow(phase: string, tasks: number, before: CostSnapshot, after: CostSnapshot, note = ""): string {
  const per = (a: number, b: number) => ((b - a) / tasks).toFixed(2);
  const cpu = (k: string) => per(before.cpuMs[k]!, after.cpuMs[k]!);
  const msg = (k: string) => per(before.msgs[k]!, after.msgs[k]!);
  const total = (["api", "workers", "nats"] as const).reduce((s, k) => s + (after.cpuMs[k]! - before.cpuMs[k]!), 0) / tasks;
  return (
    `| ${phase} | ${tasks} | ${cpu("api")} | ${cpu("workers")} | ${cpu("nats")} | ` +
    `${total.toFixed(2)} | ${msg("api")} | ${msg("workers")} | ${note} |`
  );
}

export const COST_HEADER = [
  "| phase | tasks | API CPU ms/task | workers CPU ms/task | nats-server CPU " +
    "ms/task | total | API NATS msgs/task | worker NATS msgs/task | note |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---|",
].join("\n");
