/**
 * Time and cost as partners measure them: the generated families of travel-family-instance.ts
 * (duration matrices, two profiles, two windows per customer, breaks, open routes, cost per
 * hour), each instance built around a planted feasible plan. Reports, per instance, the planted
 * plan's cost, ours, and the gap to the reference: the best of the planted plan and of the long
 * runs stored in bench/instances/travel-families-SEED.json (travel-references.ts;
 * `--write-reference` makes them: `--reference-time` seconds for each of `--reference-seeds`,
 * keeping the best, also of earlier runs; runs on different `--families` may share the file).
 *
 * `--first-window` solves each two-windows instance twice, with its several windows and with only
 * the window the planted plan serves each customer in (every plan of the second is a plan of the
 * first, so the first should never cost more), and prints both.
 *
 * `node --import tsx bench/travel-families.ts [--families a,b] [--count K] [--time S] [--seed N]
 * [--instance-seed N] [--write-reference] [--reference-time S] [--reference-seeds 1,2,3] [--first-window]`
 * (default time: the protocol's, 10 s up to 200 customers and 30 s above)
 */
import { parseArgs } from "node:util";
import { solveRequest } from "../src/problem/solve-request.js";
import { benchSettings } from "./settings-env.js";
import { readReferences, recordReference } from "./travel-references.js";
import { TRAVEL_FAMILIES, travelInstance, type TravelFamily, type TravelInstance } from "./travel-family-instance.js";

const { values } = parseArgs({
  options: {
    families: { type: "string", default: TRAVEL_FAMILIES.join(",") },
    count: { type: "string", default: "3" },
    time: { type: "string" },
    seed: { type: "string", default: "1" },
    "instance-seed": { type: "string", default: "2026" },
    "write-reference": { type: "boolean", default: false },
    "reference-time": { type: "string", default: "60" },
    "reference-seeds": { type: "string", default: "1,2,3" },
    "first-window": { type: "boolean", default: false },
  },
});

const families = values.families.split(",") as TravelFamily[];
for (const f of families) if (!TRAVEL_FAMILIES.includes(f)) throw new Error(`unknown family '${f}' (${TRAVEL_FAMILIES.join(", ")})`);
const instanceSeed = Number(values["instance-seed"]);
const references = readReferences(instanceSeed);

/** Our cost on one instance, or null when the answer is not a solution. */
function solve(instance: TravelInstance, seconds: number, seed: number): { cost: number | null; note: string } {
  const outcome = solveRequest(instance.request, { settings: benchSettings, requestId: instance.name, timeLimitSeconds: seconds, seed });
  if (outcome.status !== "solved") return { cost: null, note: outcome.error };
  const unassigned = outcome.result.unassigned?.length ?? 0;
  return { cost: unassigned > 0 ? null : outcome.result.total_cost, note: unassigned > 0 ? `${unassigned} unassigned` : "" };
}

const instances = families.flatMap((f) => Array.from({ length: Number(values.count) }, (_, i) => travelInstance(f, i, instanceSeed)));

/**
 * The instance with only the window the planted plan serves each customer in. A first window alone
 * is often one no vehicle can reach (the drawn extra one), leaving no plan to compare; the planted
 * window keeps the variant feasible, and every plan of it is still a plan of the several-window
 * instance, so that one should never cost more.
 */
function plantedWindowOnly(instance: TravelInstance): TravelInstance {
  const sets = instance.request.node_time_window_sets as ([number, number][] | null)[];
  const windows = instance.request.node_time_windows!.map((w, i) => (sets[i] ? instance.plantedWindows[i]! : w));
  const { node_time_window_sets: _sets, ...rest } = instance.request;
  return { ...instance, name: `${instance.name}-one`, request: { ...rest, node_time_windows: windows } };
}

if (values["first-window"]) {
  const seed = Number(values.seed);
  console.log(`several windows against the planted window only, seed ${seed}`);
  console.log("| instance | several windows | planted window only | several - one % |");
  console.log("|---|---:|---:|---:|");
  for (const instance of instances.filter((i) => i.family === "two-windows")) {
    const seconds = values.time ? Number(values.time) : instance.request.node_num - 1 <= 200 ? 10 : 30;
    const several = solve(instance, seconds, seed).cost;
    const first = solve(plantedWindowOnly(instance), seconds, seed).cost;
    const diff = several !== null && first !== null ? ((100 * (several - first)) / first).toFixed(2) : "-";
    console.log(`| ${instance.name} | ${several?.toFixed(1) ?? "-"} | ${first?.toFixed(1) ?? "-"} | ${diff} |`);
  }
} else if (values["write-reference"]) {
  const seeds = values["reference-seeds"].split(",").map(Number);
  for (const instance of instances) {
    let best = instance.plantedCost;
    for (const seed of seeds) {
      const { cost } = solve(instance, Number(values["reference-time"]), seed);
      if (cost !== null) best = Math.min(best, cost);
    }
    const reference = recordReference(instanceSeed, instance.name, best);
    console.log(
      `${instance.name}: best of these runs ${best.toFixed(2)}, reference ${reference.toFixed(2)} ` +
        `(planted ${instance.plantedCost.toFixed(2)})`,
    );
  }
} else {
  const seed = Number(values.seed);
  console.log(`travel families (instance seed ${instanceSeed}), seed ${seed}, ${values.time ? `${values.time} s` : "protocol times"}`);
  console.log("| instance | customers | planted | reference | ours | gap % | note |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  const gaps = new Map<TravelFamily, number[]>();
  for (const instance of instances) {
    const customers = instance.request.node_num - 1;
    const seconds = values.time ? Number(values.time) : customers <= 200 ? 10 : 30;
    const reference = Math.min(instance.plantedCost, references[instance.name] ?? Number.POSITIVE_INFINITY);
    const { cost, note } = solve(instance, seconds, seed);
    const gap = cost === null ? null : (100 * (cost - reference)) / reference;
    if (gap !== null) gaps.set(instance.family, [...(gaps.get(instance.family) ?? []), gap]);
    console.log(
      `| ${instance.name} | ${customers} | ${instance.plantedCost.toFixed(1)} | ${reference.toFixed(1)} | ` +
        `${cost === null ? "-" : cost.toFixed(1)} | ${gap === null ? "-" : gap.toFixed(2)} | ${note} |`,
    );
  }
  console.log("\n| family | solved | mean gap % |\n|---|---:|---:|");
  for (const f of families) {
    const g = gaps.get(f) ?? [];
    const mean = g.length ? g.reduce((a, b) => a + b, 0) / g.length : NaN;
    console.log(`| ${f} | ${g.length}/${values.count} | ${mean.toFixed(2)} |`);
  }
}
