/**
 * Where min_vehicles loses distance, instance by instance:
 *   npm run -s bench -- fewest-trace --only NAME,... [--time S] [--seed N] [--core N]
 * Each shared Solomon / GH200 request (by name) is solved twice by the compiled solver on one
 * pinned core: under min_total_distance and under min_vehicles. Printed: vehicles and distance
 * (measured as the hierarchical best known's) of both answers and of the best known, then the
 * min_vehicles run's trace, each new best by the hierarchical order with its CPU (or wall) time,
 * so that one sees when each count was reached and how the distance at the count went.
 */
import { parseArgs } from "node:util";
import { entryRequest, loadBenchmarks, type ManifestEntry } from "./benchmark-folder.js";
import { compiledSolver } from "./compiled-solver.js";
import { hierarchicalAlt, hierarchicalReference, type AltBks, type HierarchicalReference } from "./hierarchical-references.js";
import { pinToOneCore } from "./pin.js";
import { solvePlan, type SolvedPlan } from "./plan-routes.js";

/** Seconds of the process's CPU (SOLVER_CLOCK=cpu) or of the wall since `from`. */
function clock(cpu: boolean): () => number {
  const wall = performance.now();
  const used = process.cpuUsage();
  return () => {
    if (!cpu) return (performance.now() - wall) / 1000;
    const u = process.cpuUsage(used);
    return (u.user + u.system) / 1e6;
  };
}

function describe(s: SolvedPlan | null, ref: HierarchicalReference): string {
  if (!s) return "failed";
  const d = ref.measure(s.routes);
  return `${s.vehicles} veh ${d.toFixed(2)} (${((100 * (d - ref.distance)) / ref.distance).toFixed(2)}%)`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: {
      time: { type: "string", default: "10" },
      seed: { type: "string", default: "1" },
      only: { type: "string" },
      core: { type: "string" },
      "fewest-only": { type: "boolean", default: false },
    },
  });
  const seconds = Number(values.time);
  const seed = Number(values.seed);
  const where = pinToOneCore(values.core === undefined ? undefined : Number(values.core));
  const solver = await compiledSolver();
  const benchmarks = loadBenchmarks(undefined);
  const only = new Set((values.only ?? "").split(","));
  const entries = benchmarks.entries.filter((e) => only.has(e.name)) as (ManifestEntry & { alt_bks?: AltBks[] })[];
  console.log(`fewest-trace: ${entries.length} instances, ${seconds} s, seed ${seed}, ${where}, ${new Date().toISOString()}`);
  for (const entry of entries) {
    const request = entryRequest(entry, benchmarks);
    const alt = hierarchicalAlt(entry.alt_bks);
    const ref = alt && benchmarks.folder ? hierarchicalReference(benchmarks.folder, entry.set, entry.name, alt, request) : null;
    if (!ref) continue;
    const plain = values["fewest-only"] ? null : solvePlan(solver, { ...request, objective: "min_total_distance" }, seconds, seed);
    const now = clock(solver.cpuClock);
    const lines: string[] = [];
    const fewest = solvePlan(solver, { ...request, objective: "min_vehicles" }, seconds, seed, (routes) =>
      lines.push(`${now().toFixed(2)}s ${routes.length} ${ref.measure(routes).toFixed(1)}`),
    );
    console.log(
      `${entry.name}: best known ${ref.vehicles} veh ${ref.distance.toFixed(2)}; ` +
        `min_total_distance ${plain ? describe(plain, ref) : "-"}; min_vehicles ${describe(fewest, ref)}`,
    );
    console.log(`  trace: ${lines.join(" | ")}`);
  }
}

await main();
