/**
 * Rich problems at scale: 2,000-5,000 customers on XXL coordinates with time
 * windows, several depots and a mixed fleet (bench/rich-xxl-instance.ts), each solved by the
 * previous default selection (ALNS up to 3,000 customers, the savings construction alone above)
 * and by `large` (decomposition), one after the other in the same process and run. `known` is the
 * feasible construction each instance was built around.
 *
 * `--also C:S` runs `large` a second time with other decomposition settings (C customers and S
 * seconds per group, strategies/settings.ts) to compare them.
 *
 * `npm run bench:rich -- [--time S] [--seed N] [--only NAME,...] [--after STRATEGY] [--also C:S]`
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compileRequest } from "../src/problem/compile-request.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { selectStrategy } from "../strategies/select.js";
import { generateRichXxl } from "./rich-xxl-instance.js";
import { benchSettings } from "./settings-env.js";
import type { SettingsOverride } from "../strategies/settings.js";

const { values } = parseArgs({
  options: {
    time: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
    only: { type: "string" },
    after: { type: "string", default: "large" },
    also: { type: "string" },
  },
});
const xxlDir = join(
  process.env.BENCH_DIR ?? resolve(fileURLToPath(new URL("../", import.meta.url)), "../shared/benchmarks"),
  "requests/XXL",
);
/** XXL source, customers, depots, mixed fleet. */
const PLAN: [string, number, number, boolean][] = [
  ["Leuven1", 1200, 3, true],
  ["Leuven1", 2000, 3, true],
  ["Antwerp1", 2500, 4, true],
  ["Leuven1", 2900, 4, true],
  ["Leuven2", 3500, 3, true],
  ["Antwerp1", 5000, 4, true],
  ["Antwerp1", 2000, 1, false],
  ["Leuven2", 3999, 1, false],
];
const only = values.only ? new Set(values.only.split(",")) : null;

function run(
  request: Parameters<typeof solveRequest>[0],
  name: string,
  strategy: string,
  settings: SettingsOverride = benchSettings,
): { cost: number | null; routes: number; seconds: number } {
  const started = performance.now();
  const outcome = solveRequest(request, {
    settings,
    requestId: name,
    timeLimitSeconds: Number(values.time),
    seed: Number(values.seed),
    strategy,
  });
  const seconds = (performance.now() - started) / 1000;
  if (outcome.status !== "solved") return { cost: null, routes: 0, seconds };
  return { cost: outcome.result.total_cost, routes: Object.keys(outcome.result.routes).length, seconds };
}

console.log(`rich-xxl: seed ${values.seed}, ${values.time} s per run, after = ${values.after}`);
const also = values.also ? `large ${values.also}` : null;
console.log(
  `| instance | customers | depots | vehicles | construction | default now | ` +
    `before | before cost | after cost | after / before | after / construction ` +
    `|${also ? ` ${also} | ${also} / before |` : ""}`,
);
console.log(`|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|${also ? "---:|---:|" : ""}`);
const ratios: number[] = [];
for (const [file, customers, depots, mixed] of PLAN) {
  const instance = generateRichXxl(join(xxlDir, `${file}.json`), customers, depots, Number(values.seed), mixed);
  if (only && !only.has(instance.name)) continue;
  const { request } = instance;
  const selected = selectStrategy(compileRequest(request).problem).name;
  const beforeName = customers <= 3000 ? "alns" : "clarke-wright";
  const before = run(request, instance.name, beforeName);
  const after = run(request, instance.name, values.after);
  let extra = "";
  if (values.also) {
    const [customersPerGroup, seconds] = values.also.split(":");
    const decomposition = { ...benchSettings.decomposition, customers: Math.round(Number(customersPerGroup)), seconds: Number(seconds) };
    const other = run(request, instance.name, "large", { ...benchSettings, decomposition });
    extra =
      ` ${other.cost === null ? "infeasible" : other.cost.toFixed(0)} | ` +
      `${other.cost !== null && before.cost !== null ? (other.cost / before.cost).toFixed(4) : "-"} |`;
  }
  const fmt = (c: number | null) => (c === null ? "infeasible" : c.toFixed(0));
  const ratio = before.cost !== null && after.cost !== null ? after.cost / before.cost : null;
  if (ratio !== null) ratios.push(ratio);
  console.log(
    `| ${instance.name} | ${customers} | ${depots} | ${request.vehicle_num} | ` +
      `${instance.known.toFixed(0)} | ${selected} | ${beforeName} | ` +
      `${fmt(before.cost)} | ${fmt(after.cost)} | ${ratio?.toFixed(4) ?? "-"} | ` +
      `${after.cost !== null ? (after.cost / instance.known).toFixed(4) : "-"} |${extra}`,
  );
}
const mean = ratios.reduce((a, b) => a + b, 0) / Math.max(1, ratios.length);
console.log(`\nafter / before: mean ${mean.toFixed(4)} over ${ratios.length} instances (below 1: after is cheaper)`);
