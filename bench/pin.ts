/**
 * Pins this process, all its threads, to one core with `taskset` (util-linux), so strategies
 * compared one after another run on the same core and none gets a second one from the garbage
 * collector's helper threads. A process that is already limited to one core (started under
 * `taskset -c N`) is left where it is.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** The cores this process may run on, from /proc (Linux), e.g. "0-1" or "1"; null elsewhere. */
function allowedCores(): string | null {
  try {
    return /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Pins to `core` (default: the last core this process may use) and says where the process runs,
 * for the table's header; a machine without taskset runs unpinned and the header says so.
 */
export function pinToOneCore(core: number | undefined): string {
  const allowed = allowedCores();
  if (allowed !== null && /^\d+$/.test(allowed) && core === undefined) return `pinned to core ${allowed} (already)`;
  const last = allowed?.split(/[,-]/).at(-1);
  const target = core ?? (last !== undefined ? Number(last) : availableParallelism() - 1);
  try {
    execFileSync("taskset", ["-a", "-cp", String(target), String(process.pid)], { stdio: "ignore" });
  } catch {
    return "not pinned (taskset failed or is not installed)";
  }
  return `pinned to core ${target} (taskset)`;
}
