/**
 * The objective min_vehicles against the literature's hierarchical best known solutions:
 *   npm run -s bench -- fewest-vehicles [--time S] [--seed N] [--only NAME,...] [--core N]
 *     [--generated K] [--generated-base B] [--generated-fewest-only] [--fleet-at-count]
 * Every shared Solomon (29) and GH200 (6) request, its `objective` set to `min_vehicles`, solved
 * by the compiled service solver on one pinned core (10 s each by default, seed 1): vehicles used
 * against the hierarchical best known's (bench/hierarchical-references.ts), and at equal vehicles
 * the distance gap against its distance, measured alike. `--generated K` adds K windowed
 * instances of bench/gh-like.ts (200 customers, seeds 1..K of a base the shared sets never
 * used; `--generated-base` another, to judge on instances a change was not developed on), each
 * solved under min_total_distance and min_vehicles: vehicles and distance of both
 * (`--generated-fewest-only`: min_vehicles alone, the distance objective's cells left "failed").
 * `--fleet-at-count` also solves each shared instance under min_total_distance with only the
 * best known's count of vehicles: the distance search's own result on that fleet, the measure of
 * what the fixed-fleet phase of min_vehicles could reach in the time.
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { entryRequest, loadBenchmarks, type ManifestEntry } from "./benchmark-folder.js";
import { compiledSolver, type CompiledSolver } from "./compiled-solver.js";
import { ghLike } from "./gh-like.js";
import { hierarchicalAlt, hierarchicalReference, type AltBks } from "./hierarchical-references.js";
import { pinToOneCore } from "./pin.js";
import { solvePlan, type SolvedPlan } from "./plan-routes.js";

const SETS = ["Solomon", "GH200"];
/** The generated instances' seed base: none of the benches' own (gh-like.ts, tw-large.ts) uses it. */
const GENERATED_SEED_BASE = 6800;
const GENERATED_CUSTOMERS = [200];

/** The request with only its first `count` vehicles (the shared sets' fleets are uniform). */
function withFleet(request: SolveRequestInput, count: number): SolveRequestInput {
  const first = <T>(xs: T[] | undefined) => xs?.slice(0, count);
  return {
    ...request,
    vehicle_num: count,
    start_nodes: first(request.start_nodes)!,
    end_nodes: first(request.end_nodes)!,
    vehicles_capacity: first(request.vehicles_capacity)!,
    vehicle_speeds: first(request.vehicle_speeds),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: {
      time: { type: "string", default: "10" },
      seed: { type: "string", default: "1" },
      only: { type: "string" },
      generated: { type: "string", default: "0" },
      "generated-base": { type: "string", default: String(GENERATED_SEED_BASE) },
      "generated-fewest-only": { type: "boolean", default: false },
      core: { type: "string" },
      "fleet-at-count": { type: "boolean", default: false },
    },
  });
  const seconds = Number(values.time);
  const seed = Number(values.seed);
  const where = pinToOneCore(values.core === undefined ? undefined : Number(values.core));
  const solver = await compiledSolver();
  const benchmarks = loadBenchmarks(undefined);
  const only = values.only ? new Set(values.only.split(",")) : null;
  const entries = benchmarks.entries.filter((e) => SETS.includes(e.set) && (!only || only.has(e.name))) as (ManifestEntry & {
    alt_bks?: AltBks[];
  })[];
  console.log(
    `fewest-vehicles: ${entries.length} instances, objective min_vehicles, ${seconds} s, seed ${seed}, ${where}, ` +
      new Date().toISOString(),
  );
  const atCount = values["fleet-at-count"];
  console.log(
    "| instance | vehicles (BKS) | distance | distance, as the BKS's | BKS distance | gap at equal vehicles | basis |" +
      (atCount ? " distance objective, BKS fleet: vehicles, gap |" : ""),
  );
  console.log("|---|---|---|---|---|---|---|" + (atCount ? "---|" : ""));
  const tally = new Map<string, { at: number; total: number; gaps: number[]; fleetGaps: number[] }>();
  for (const entry of entries) {
    const request = { ...entryRequest(entry, benchmarks), objective: "min_vehicles" as const };
    const alt = hierarchicalAlt(entry.alt_bks);
    const ref = alt && benchmarks.folder ? hierarchicalReference(benchmarks.folder, entry.set, entry.name, alt, request) : null;
    const solved = solvePlan(solver, request, seconds, seed);
    const t = tally.get(entry.set) ?? { at: 0, total: 0, gaps: [], fleetGaps: [] };
    tally.set(entry.set, t);
    t.total++;
    if (!solved || !ref) {
      console.log(`| ${entry.name} | ${solved ? solved.vehicles : "failed"} (${ref?.vehicles ?? "?"}) | | | | | |`);
      continue;
    }
    const measured = ref.measure(solved.routes);
    const equal = solved.vehicles === ref.vehicles;
    if (solved.vehicles <= ref.vehicles) t.at++;
    const gap = (measured - ref.distance) / ref.distance;
    if (equal) t.gaps.push(gap);
    let fleetCell = "";
    if (atCount) {
      const plain = solvePlan(solver, withFleet({ ...request, objective: "min_total_distance" }, ref.vehicles), seconds, seed);
      const fleetGap = plain ? (ref.measure(plain.routes) - ref.distance) / ref.distance : null;
      if (plain && fleetGap !== null && plain.vehicles === ref.vehicles) t.fleetGaps.push(fleetGap);
      fleetCell = plain ? ` ${plain.vehicles}, ${pct(fleetGap!)} |` : " failed |";
    }
    console.log(
      `| ${entry.name} | ${solved.vehicles} (${ref.vehicles}) | ${solved.distance.toFixed(1)} | ${measured.toFixed(2)} | ` +
        `${ref.distance.toFixed(2)} | ${equal ? pct(gap) : "-"} | ${ref.basis} |${fleetCell}`,
    );
  }
  for (const [set, t] of tally) {
    const mean = t.gaps.length > 0 ? pct(t.gaps.reduce((a, b) => a + b, 0) / t.gaps.length) : "-";
    const fleetMean = t.fleetGaps.length > 0 ? pct(t.fleetGaps.reduce((a, b) => a + b, 0) / t.fleetGaps.length) : "-";
    console.log(
      `${set}: at the BKS's vehicle count (or fewer) ${t.at} of ${t.total}; ` +
        `mean gap at equal vehicles ${mean} (${t.gaps.length} instances)` +
        (atCount ? `; distance objective on the BKS fleet: mean gap ${fleetMean} (${t.fleetGaps.length} at the count)` : ""),
    );
  }
  const generated = Number(values.generated);
  if (generated > 0) generatedTable(solver, generated, Number(values["generated-base"]), seconds, seed, values["generated-fewest-only"]);
}

/** Generated windowed instances: min_total_distance against min_vehicles, vehicles and distance. */
function generatedTable(solver: CompiledSolver, count: number, base: number, seconds: number, seed: number, fewestOnly: boolean): void {
  console.log(`\ngenerated (bench/gh-like.ts, ${GENERATED_CUSTOMERS.join("/")} customers, seed base ${base})`);
  console.log("| instance | load bound | vehicles, distance objective | distance | vehicles, min_vehicles | distance |");
  console.log("|---|---|---|---|---|---|");
  for (let i = 0; i < count; i++) {
    const { name, request } = ghLike(i, base, GENERATED_CUSTOMERS);
    const demand = request.node_demands.reduce((a, b) => a + b, 0);
    const bound = Math.ceil(demand / Math.max(...request.vehicles_capacity));
    const plain = fewestOnly ? null : solvePlan(solver, { ...request, objective: "min_total_distance" }, seconds, seed);
    const fewest = solvePlan(solver, { ...request, objective: "min_vehicles" }, seconds, seed);
    const cell = (s: SolvedPlan | null) => (s ? `${s.vehicles} | ${s.distance.toFixed(1)}` : "failed | -");
    console.log(`| ${name} | ${bound} | ${cell(plain)} | ${cell(fewest)} |`);
  }
}

await main();
