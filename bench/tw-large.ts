/**
 * Identical-vehicles VRPTW above 1,000 customers (one depot, identical vehicles, binding hard
 * windows): generated instances, each solved by several strategies one after the other, every
 * run in its own process (bench/solve-one.ts) so that its peak RSS is its own.
 * - `rich-*-identical`: bench/rich-xxl-instance.ts on XXL coordinates (one depot, one vehicle type,
 *   fixed cost; 70% of the customers with a 60-180-minute window around a known routing);
 * - `gl*`: bench/gh-like.ts (Gehring-Homberger-like, R / C / RC, type 1 short routes and type 2 long
 *   routes) at 1,500-2,500 customers (given as a matrix, so at most 2,999).
 * `default` is the selection (strategies/select.ts); `before` is what it chose before this work
 * (ALNS up to 3,000 customers, the savings above). Costs are the shared evaluator's; "infeasible"
 * when the solution breaks a rule.
 *
 * `node --import tsx bench/tw-large.ts [--time S] [--only NAME,...] [--strategies before,default,hgs,large@VAR=VALUE,...]`
 * (`before`: the previous selection; `default`: today's; NAME@VAR=VALUE: a strategy run with an
 * internal measurement switch set, e.g. `large@LARGE_WINDOW_GROUPS=1`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ghLike } from "./gh-like.js";
import { generateRichXxl } from "./rich-xxl-instance.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";

const { values } = parseArgs({
  options: {
    time: { type: "string", default: "30" },
    only: { type: "string" },
    strategies: { type: "string", default: "before,default" },
    list: { type: "boolean", default: false },
  },
});
const root = resolve(fileURLToPath(new URL("../", import.meta.url)));
const xxlDir = join(process.env.BENCH_DIR ?? join(root, "../shared/benchmarks"), "requests/XXL");

/** Rich identical instances: XXL source and customers. */
const RICH: [string, number][] = [
  ["Leuven1", 1200],
  ["Antwerp1", 2000],
  ["Leuven1", 2900],
  ["Leuven2", 3999],
  ["Antwerp1", 5000],
];
/** GH-like instances: index (class and type follow it: C1, R1, RC1, C2, R2, RC2) and customers. */
const GH: [number, number][] = [
  [1, 1500],
  [2, 2000],
  [3, 2000],
  [4, 2500],
  [5, 1500],
  [0, 2500],
];

function instances(): { name: string; customers: number; request: SolveRequestInput }[] {
  const out: { name: string; customers: number; request: SolveRequestInput }[] = [];
  for (const [file, customers] of RICH) {
    const { name, request } = generateRichXxl(join(xxlDir, `${file}.json`), customers, 1, 1, false);
    out.push({ name, customers, request });
  }
  for (const [index, customers] of GH) {
    const { name, request } = ghLike(index, 2026, [customers]);
    out.push({ name, customers, request });
  }
  return out;
}

const only = values.only ? new Set(values.only.split(",")) : null;
const strategies = values.strategies.split(",");
const dir = join(tmpdir(), "tw-large-bench");
mkdirSync(dir, { recursive: true });
console.log(`tw-large: ${values.time} s per run, seed 1, SOLVER_CLOCK=${process.env.SOLVER_CLOCK ?? "wall"}`);
console.log(`| instance | customers | ${strategies.map((s) => `${s} | strategy | peak RSS MB`).join(" | ")} |`);
console.log(`|---|---:|${strategies.map(() => "---:|---|---:|").join("")}`);
for (const { name, customers, request } of instances()) {
  if (only && !only.has(name)) continue;
  if (values.list) {
    console.log(name);
    continue;
  }
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(request));
  const cells: string[] = [];
  for (const s of strategies) {
    // NAME@VAR=VALUE: strategy NAME with an internal measurement switch set (e.g. large@LARGE_WINDOW_GROUPS=1).
    const [strategy, setting] = s.split("@") as [string, string | undefined];
    const pinned = strategy === "default" ? [] : strategy === "before" ? [customers <= 3000 ? "alns" : "clarke-wright"] : [strategy];
    const env = { ...process.env, ...(setting ? Object.fromEntries([setting.split("=") as [string, string]]) : {}) };
    const out = execFileSync(process.execPath, ["--import", "tsx", join(root, "bench/solve-one.ts"), file, values.time, ...pinned], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
      env,
    });
    const line = JSON.parse(out.trim().split("\n").pop()!) as { strategy: string; feasible: boolean; cost: number; peakRssMb: number };
    cells.push(`${line.feasible ? line.cost.toFixed(0) : "infeasible"} | ${line.strategy} | ${line.peakRssMb}`);
  }
  console.log(`| ${name} | ${customers} | ${cells.join(" | ")} |`);
}
