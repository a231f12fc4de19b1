/**
 * Ours and PyVRP 0.14 side by side on the travel families (travel-family-instance.ts) that PyVRP
 * models the same way: duration matrices, two profiles, two windows per customer, open routes and
 * cost per hour (breaks: PyVRP has none). For every instance and seed both solve the same request
 * at the same time, one instance at a time, at the protocol's limits unless `--time` says
 * otherwise: ours pinned to core 1 (`bin/vrp-solve.mjs`), PyVRP to core 0
 * (`bench/peers/pyvrp-travel.py`). Both answers are priced by our evaluator alone (the routes as
 * initial_routes with max_iterations 0): the peers' checker does not know these fields. Gaps are
 * to the better of the two on each run and to the planted plan.
 *
 * `node --import tsx bench/travel-side-by-side.ts [--families a,b] [--count K] [--instance-seed N]
 * [--only NAME,...] [--seeds 1,2,3] [--time S] [--pyvrp PYTHON] [--update-reference]`
 * `--update-reference` records the better plan of each run as the instance's reference when it
 * improves on it (travel-references.ts), for travel-families.ts's gaps.
 * PYTHON (or PYVRP_PYTHON) is the venv's python that `../shared/peers/build-pyvrp.sh` built.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import { BenchSetupError } from "./benchmark-folder.js";
import { evaluateRoutes, initialRoutesFromResult } from "./peers/pyvrp-routes.js";
import { mean, protocolSeconds, runOursPinned, runPyvrpPinned, show } from "./side-by-side-run.js";
import { travelInstance, type TravelFamily, type TravelInstance } from "./travel-family-instance.js";
import { recordReference } from "./travel-references.js";

/** The families PyVRP 0.14 models as we do; `breaks` is left out (pyvrp-travel.py refuses it). */
const PYVRP_FAMILIES: TravelFamily[] = ["durations", "profiles", "two-windows", "open", "time-cost"];

const { values } = parseArgs({
  options: {
    families: { type: "string", default: PYVRP_FAMILIES.join(",") },
    count: { type: "string", default: "3" },
    "instance-seed": { type: "string", default: "2026" },
    only: { type: "string" },
    seeds: { type: "string", default: "1" },
    time: { type: "string" },
    pyvrp: { type: "string" },
    "update-reference": { type: "boolean", default: false },
  },
});

interface Outcome {
  cost: number | null;
  note: string;
}

/** Ours, its routes priced again by the evaluator (the same path as PyVRP's). */
async function ours(instance: TravelInstance, file: string, seconds: number, seed: number): Promise<Outcome> {
  const { out, code } = await runOursPinned(file, seconds, seed);
  if (code !== 0) return { cost: null, note: `ours failed: ${out.slice(0, 120)}` };
  const result = JSON.parse(out) as { total_cost: number; routes: Record<string, number[]> };
  const verdict = evaluateRoutes(instance.request, initialRoutesFromResult(instance.request, result.routes));
  if (!verdict.feasible) return { cost: null, note: `ours refused by the evaluator: ${verdict.error?.slice(0, 120)}` };
  const drift = Math.abs(verdict.total_cost! - result.total_cost);
  return { cost: verdict.total_cost, note: drift > 1e-6 ? `ours reported ${result.total_cost}` : "" };
}

/**
 * PyVRP's answer as our evaluator prices it. PyVRP's own objective (its integer model over the
 * cost unit) is shown beside a plan our evaluator refuses, and when it differs from our price on
 * one it accepts: on exact data the two agree, so a difference is a conversion or rule mismatch.
 */
async function pyvrp(python: string, file: string, seconds: number, seed: number): Promise<Outcome> {
  const answer = await runPyvrpPinned(python, join(REPO_ROOT, "bench", "peers", "pyvrp-travel.py"), file, seconds, seed);
  if ("error" in answer) return { cost: null, note: answer.error };
  const line = answer.line as {
    total_cost?: number | null;
    feasible?: boolean;
    error?: string | null;
    pyvrp_feasible?: boolean;
    pyvrp_objective?: number | null;
  };
  const own = `PyVRP's own verdict: ${line.pyvrp_feasible ? "feasible" : "infeasible"}, objective ${show(line.pyvrp_objective ?? null, 1)}`;
  if (answer.code !== 0 || !line.feasible)
    return { cost: null, note: `PyVRP refused: ${String(line.error ?? "infeasible").slice(0, 160)} (${own})` };
  const cost = line.total_cost ?? null;
  const agree = cost !== null && line.pyvrp_objective != null && Math.abs(cost - line.pyvrp_objective) <= 1e-6 * Math.max(1, cost);
  return { cost, note: agree ? "" : own };
}

const pct = (cost: number | null, reference: number | null) =>
  cost === null || reference === null ? null : (100 * (cost - reference)) / reference;

async function main(): Promise<void> {
  const python = values.pyvrp ?? process.env.PYVRP_PYTHON;
  if (!python) throw new BenchSetupError("bench: give PyVRP's python with --pyvrp or PYVRP_PYTHON (see ../shared/peers/README.md)");
  const families = values.families.split(",") as TravelFamily[];
  for (const f of families)
    if (!PYVRP_FAMILIES.includes(f)) throw new BenchSetupError(`bench: '${f}' is not a family PyVRP models (${PYVRP_FAMILIES.join(", ")})`);
  const only = values.only ? new Set(values.only.split(",")) : null;
  const seeds = values.seeds.split(",").map(Number);
  const instances = families
    .flatMap((f) => Array.from({ length: Number(values.count) }, (_, i) => travelInstance(f, i, Number(values["instance-seed"]))))
    .filter((instance) => !only || only.has(instance.name));

  // Per family: gaps to the better of the two and to the planted plan, over paired runs only.
  const gaps = new Map<TravelFamily, { ours: number[]; pyvrp: number[]; oursPlanted: number[]; pyvrpPlanted: number[] }>();
  const bySeed = new Map<number, { ours: number[]; pyvrp: number[] }>();
  let better = 0;
  let worse = 0;
  let compared = 0;
  const dir = mkdtempSync(join(tmpdir(), "travel-side-by-side-"));
  console.log(`travel families side by side with PyVRP 0.14 (instance seed ${values["instance-seed"]}), seeds ${seeds.join(", ")}`);
  console.log("| instance | seed | s | planted | ours | PyVRP | ours gap % | PyVRP gap % | ours - planted % | PyVRP - planted % | note |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  try {
    for (const instance of instances) writeFileSync(join(dir, `${instance.name}.json`), JSON.stringify(instance.request));
    // Seed by seed, so that a run cut short still has every instance at the first seeds.
    for (const seed of seeds) {
      for (const instance of instances) {
        const file = join(dir, `${instance.name}.json`);
        const seconds = protocolSeconds(instance.request, values.time);
        const [a, b] = await Promise.all([ours(instance, file, seconds, seed), pyvrp(python, file, seconds, seed)]);
        const found = [a.cost, b.cost].filter((c): c is number => c !== null);
        const best = found.length > 0 ? Math.min(...found) : null;
        if (best !== null && values["update-reference"]) recordReference(Number(values["instance-seed"]), instance.name, best);
        const [ga, gb] = [pct(a.cost, best), pct(b.cost, best)];
        const [pa, pb] = [pct(a.cost, instance.plantedCost), pct(b.cost, instance.plantedCost)];
        if (ga !== null && gb !== null && pa !== null && pb !== null) {
          const g = gaps.get(instance.family) ?? { ours: [], pyvrp: [], oursPlanted: [], pyvrpPlanted: [] };
          g.ours.push(ga);
          g.pyvrp.push(gb);
          g.oursPlanted.push(pa);
          g.pyvrpPlanted.push(pb);
          gaps.set(instance.family, g);
          const s = bySeed.get(seed) ?? { ours: [], pyvrp: [] };
          s.ours.push(ga);
          s.pyvrp.push(gb);
          bySeed.set(seed, s);
          compared++;
          if (ga < gb - 1e-9) better++;
          if (gb < ga - 1e-9) worse++;
        }
        console.log(
          `| ${instance.name} | ${seed} | ${seconds} | ${show(instance.plantedCost, 1)} | ${show(a.cost, 1)} | ${show(b.cost, 1)} | ` +
            `${show(ga, 2)} | ${show(gb, 2)} | ${show(pa, 2)} | ${show(pb, 2)} | ${[a.note, b.note].filter(Boolean).join("; ")} |`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log("\n| family | paired runs | ours mean gap % | PyVRP mean gap % | ours - planted % | PyVRP - planted % |");
  console.log("|---|---:|---:|---:|---:|---:|");
  const all = { ours: [] as number[], pyvrp: [] as number[], oursPlanted: [] as number[], pyvrpPlanted: [] as number[] };
  for (const f of families) {
    const g = gaps.get(f) ?? { ours: [], pyvrp: [], oursPlanted: [], pyvrpPlanted: [] };
    for (const key of ["ours", "pyvrp", "oursPlanted", "pyvrpPlanted"] as const) all[key].push(...g[key]);
    console.log(
      `| ${f} | ${g.ours.length} | ${mean(g.ours).toFixed(2)} | ${mean(g.pyvrp).toFixed(2)} | ` +
        `${mean(g.oursPlanted).toFixed(2)} | ${mean(g.pyvrpPlanted).toFixed(2)} |`,
    );
  }
  console.log(
    `| all | ${all.ours.length} | ${mean(all.ours).toFixed(2)} | ${mean(all.pyvrp).toFixed(2)} | ` +
      `${mean(all.oursPlanted).toFixed(2)} | ${mean(all.pyvrpPlanted).toFixed(2)} |`,
  );
  console.log("\n| seed | paired runs | ours mean gap % | PyVRP mean gap % |\n|---:|---:|---:|---:|");
  for (const [seed, s] of bySeed) console.log(`| ${seed} | ${s.ours.length} | ${mean(s.ours).toFixed(2)} | ${mean(s.pyvrp).toFixed(2)} |`);
  console.log(`\nours strictly better on ${better}, PyVRP on ${worse}, of ${compared} paired runs`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof BenchSetupError ? 2 : 1);
});
