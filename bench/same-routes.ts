/**
 * Same seed, same iteration budget, same routes: runs the `hgs` strategy (pinned; a case may name
 * another) with seed 1 and a fixed `max_iterations` on one instance per path of the search (genetic
 * search, windows, duration cap, identical-vehicles iterated local search with and without optional stops,
 * backhauls, long routes under windows (three quarters of the customers windowed, and all), general
 * iterated local search on a mixed fleet, several depots with windows, shipments, skills, soft
 * windows, several windows, breaks, and ALNS) and prints a digest of each solution's routes. The
 * decomposition (`large`) runs its groups on the clock, so it has no digest. `--write FILE`
 * stores the digests, `--check FILE` compares with stored ones and exits 1 on any difference, so a
 * refactoring that must not change behaviour can show that it did not:
 * `node --import tsx bench/same-routes.ts --write /tmp/routes-before.json` on the old commit,
 * `... --check /tmp/routes-before.json` on the new one.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { findStrategy } from "../strategies/registry.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { generateXLike } from "./x-like-instance.js";
import { ghLike } from "./gh-like.js";
import { travelInstance } from "./travel-family-instance.js";
import { benchSettings } from "./settings-env.js";
import type { WindowsMethod } from "../strategies/settings.js";

const { values } = parseArgs({ options: { write: { type: "string" }, check: { type: "string" }, only: { type: "string" } } });
const benchDir = process.env.BENCH_DIR ?? join(import.meta.dirname, "..", "..", "shared", "benchmarks");

interface Case {
  name: string;
  path: string;
  iterations: number;
  request: () => SolveRequestInput;
  strategy?: string;
  /** hgs's method for binding windows when not the one its settings choose (the genetic search on Solomon). */
  windowsMethod?: WindowsMethod;
}

const read = (file: string) => JSON.parse(readFileSync(join(benchDir, "requests", file), "utf8")) as SolveRequestInput;
const shared = (name: string, file: string, path: string, iterations: number, strategy?: string): Case => ({
  name,
  path,
  iterations,
  request: () => read(file),
  ...(strategy ? { strategy } : {}),
});

const CASES: Case[] = [
  shared("X-n101-k25", "X/X-n101-k25.json", "genetic", 400),
  shared("X-n294-k50", "X/X-n294-k50.json", "genetic", 150),
  { ...shared("C101", "Solomon/C101.json", "genetic, windows", 300), windowsMethod: "genetic" },
  shared("RC1_2_1", "GH200/RC1_2_1.json", "identical-vehicles iterated local search, windows", 1500),
  shared("CMT13", "CMT/CMT13.json", "genetic, duration cap", 300),
  {
    name: "xl0-320",
    path: "identical-vehicles iterated local search",
    iterations: 4000,
    request: () => generateXLike(0, 2026, 320).request,
  },
  shared("X110-HD", "HFVRP/X110-HD.json", "general iterated local search, limited mixed fleet", 1500),
  shared("X101-FSMFD", "HFVRP/X101-FSMFD.json", "general iterated local search, free mixed fleet", 1500),
  shared("PR11A", "MDVRPTW/PR11A.json", "general iterated local search, depots and windows", 800),
  shared("PC-C1_10_1", "PCVRPTW/C1_10_1.json", "identical-vehicles iterated local search, optional stops", 1500),
  shared("VRPB-548-50", "VRPB/X-n548-50-k25.json", "identical-vehicles iterated local search, backhauls", 1200),
  shared("lrc101", "PDPTW/lrc101.json", "general iterated local search, shipments", 1200),
  shared("SD-PR02", "SDVRPTW/PR02.json", "general iterated local search, skills", 1500),
  {
    name: "RC101-soft",
    path: "general iterated local search, soft windows",
    iterations: 1500,
    request: () => ({ ...read("Solomon/RC101.json"), late_penalty_per_min: 1 }),
  },
  { name: "gh2-400", path: "long routes under windows", iterations: 1000, request: () => ghLike(4, 2026, [400]).request },
  {
    name: "ghrc2-400-d100",
    path: "long routes, windows everywhere",
    iterations: 1000,
    request: () => ghLike(5, 2053, [400]).request,
  },
  {
    name: "two-windows-1",
    path: "several windows",
    iterations: 800,
    request: () => travelInstance("two-windows", 1, 2026).request as SolveRequestInput,
  },
  { name: "breaks-2", path: "breaks", iterations: 300, request: () => travelInstance("breaks", 2, 2026).request as SolveRequestInput },
  shared("A-n80-alns", "A/A-n80-k10.json", "alns", 2000, "alns"),
  shared("RC101-alns", "Solomon/RC101.json", "alns, windows", 500, "alns"),
];

const only = values.only ? new Set(values.only.split(",")) : null;
const digests: Record<string, { digest: string; cost: number; feasible: boolean }> = {};
for (const c of CASES) {
  if (only && !only.has(c.name)) continue;
  const { problem } = compileRequest(c.request());
  const started = performance.now();
  // CPU time as well as wall time: on a shared machine the process's own CPU seconds for the same
  // iterations compare two versions far better than the wall clock does.
  const cpuBefore = process.cpuUsage();
  const settings = c.windowsMethod ? { ...benchSettings, hgs: { ...benchSettings.hgs, windowsMethod: c.windowsMethod } } : benchSettings;
  const solution = findStrategy(c.strategy ?? "hgs").solve(problem, Budget.forSeconds(3600, 1, c.iterations, undefined, settings));
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const seconds = (performance.now() - started) / 1000;
  const score = evaluateSolution(problem, solution);
  const digest = createHash("sha256").update(JSON.stringify(solution.routes)).digest("hex").slice(0, 16);
  digests[c.name] = { digest, cost: Number(score.cost.toFixed(6)), feasible: score.feasible };
  console.log(
    `${c.name.padEnd(12)} ${c.path.padEnd(52)} ${String(c.iterations).padStart(5)} ` +
      `it  ${digest}  cost ${score.cost.toFixed(2)}${score.feasible ? "" : " (infeasible)"} ` +
      ` ${seconds.toFixed(1)} s, cpu ${cpuSeconds.toFixed(2)} s`,
  );
}
if (values.write) writeFileSync(values.write, JSON.stringify(digests, null, 2) + "\n");
if (values.check) {
  const stored = JSON.parse(readFileSync(values.check, "utf8")) as typeof digests;
  const differ = Object.keys(digests).filter((name) => stored[name]?.digest !== digests[name]!.digest);
  for (const name of differ)
    console.log(
      `DIFFERENT ${name}: stored ${stored[name]?.digest} cost ${stored[name]?.cost}, ` +
        `now ${digests[name]!.digest} cost ${digests[name]!.cost}`,
    );
  console.log(differ.length === 0 ? "same routes on every instance" : `${differ.length} instance(s) differ`);
  if (differ.length > 0) process.exitCode = 1;
}
