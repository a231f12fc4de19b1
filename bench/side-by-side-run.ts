/**
 * What every side-by-side run with PyVRP shares: ours (`bin/vrp-solve.mjs`, the compiled service
 * solver) pinned to core 1 and a PyVRP script pinned to core 0, started together by the caller,
 * the protocol's time limits, and the table's number formats. Under `SOLVER_CLOCK=cpu` both sides
 * count their limit in their own process's CPU seconds (ours through bench/vrp-solve-cpu.ts, PyVRP
 * through bench/peers/pyvrp-cpu.py), so a busy machine shortens neither run.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";

/** Whether this bench was started under `SOLVER_CLOCK=cpu`: both sides then count CPU seconds. */
const onCpuClock = () => process.env.SOLVER_CLOCK === "cpu";

/** Runs a command to its end; its standard output, and its exit code. */
export function run(command: string, args: string[]): Promise<{ out: string; code: number }> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("close", (code) => done({ out, code: code ?? 1 }));
  });
}

/** The protocol's time limit: 10 s up to 200 customers, 30 s above, unless `override` (seconds) says otherwise. */
export function protocolSeconds(request: SolveRequestInput, override?: string): number {
  if (override) return Number(override);
  const customers = request.node_num - new Set([...request.start_nodes, ...request.end_nodes]).size;
  return customers <= 200 ? 10 : 30;
}

/**
 * Our solver on core 1: its answer (the solved result, or the error envelope) and exit code. The
 * compiled CLI on the wall clock; the same CLI from source on the CPU clock under `SOLVER_CLOCK=cpu`.
 */
export function runOursPinned(file: string, seconds: number, seed: number): Promise<{ out: string; code: number }> {
  const limits = [file, "--time-limit", String(seconds), "--seed", String(seed)];
  if (onCpuClock()) {
    const cli = join(REPO_ROOT, "bench", "vrp-solve-cpu.ts");
    return run("taskset", ["-c", "1", process.execPath, "--import", "tsx", cli, ...limits]);
  }
  return run("taskset", ["-c", "1", process.execPath, join(REPO_ROOT, "bin", "vrp-solve.mjs"), ...limits]);
}

/**
 * A PyVRP script (the peers' pyvrp-eval.py or bench/peers/pyvrp-travel.py) on core 0: its last
 * line, parsed, or why there is none. Both print one JSON line with total_cost and feasible.
 */
export async function runPyvrpPinned(
  python: string,
  script: string,
  file: string,
  seconds: number,
  seed: number,
): Promise<{ line: Record<string, unknown> & { total_cost?: number | null; feasible?: boolean }; code: number } | { error: string }> {
  const limits = [file, "-l", String(seconds), "--seed", String(seed)];
  const cpuWrapper = join(REPO_ROOT, "bench", "peers", "pyvrp-cpu.py");
  const command = onCpuClock() ? [cpuWrapper, script, ...limits] : [script, ...limits];
  const { out, code } = await run("taskset", ["-c", "0", python, ...command]);
  const last = out.trim().split("\n").at(-1) ?? "";
  if (!last.startsWith("{")) return { error: `PyVRP: ${last.slice(0, 120)}` };
  return { line: JSON.parse(last), code };
}

export const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

/** A table cell: the number to `digits` places, or "-" when there is none. */
export const show = (x: number | null, digits: number) => (x === null ? "-" : x.toFixed(digits));
