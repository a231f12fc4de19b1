/**
 * Where the bench finds its instances: the benchmark folder (a manifest.json and ready requests
 * under requests/, the layout of ../shared/benchmarks; see its README) named by `--bench-dir`,
 * else `BENCH_DIR`, else ../shared/benchmarks beside the repository when it is there; and the
 * repository's own hold-out instances in bench/instances/, which need no folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import { vrplibRequest } from "./vrplib.js";

export interface ManifestEntry {
  name: string;
  set: string;
  n_customers: number;
  bks: number;
  request?: string;
  /** The raw instance file; local hold-out instances (bench/instances/, no `request`) are converted from it when run. */
  raw?: string;
  vehicles?: number;
  /** Routes of the best known solution, when the manifest records them. */
  bks_routes?: number;
  /**
   * What `bks` measures: `distance` (also the default), `hierarchical`, `cost`, or
   * `distance_plus_penalties` (PCVRPTW: distance plus the skip penalties of unserved clients,
   * which the result's `total_cost` includes, constraints.md).
   */
  bks_objective?: string;
}

/** The instances the bench knows, and the folder the shared ones came from (null: none found). */
export interface Benchmarks {
  folder: string | null;
  entries: ManifestEntry[];
  /** Where the folder was looked for, for the message when a set is not found. */
  lookedFor: string;
}

const LOCAL_DIR = join(REPO_ROOT, "bench", "instances");
const SIBLING_DIR = resolve(REPO_ROOT, "..", "shared", "benchmarks");

/** A command-line mistake or missing input: the bench prints the message and exits 2. */
export class BenchSetupError extends Error {}

/**
 * The manifests: the benchmark folder's (when found) and the local hold-out one. A folder named
 * explicitly must hold a manifest.json; the sibling default may be absent.
 */
export function loadBenchmarks(
  benchDirOption: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  sibling = SIBLING_DIR,
): Benchmarks {
  const named = benchDirOption ?? env.BENCH_DIR;
  const local = JSON.parse(readFileSync(join(LOCAL_DIR, "manifest.json"), "utf8")) as ManifestEntry[];
  if (named !== undefined) {
    const folder = resolve(named);
    const how = benchDirOption !== undefined ? "--bench-dir" : "BENCH_DIR";
    if (!existsSync(join(folder, "manifest.json"))) {
      const layout = "expected the layout of a benchmark folder: manifest.json and requests/";
      throw new BenchSetupError(`bench: ${how} ${folder} has no manifest.json (${layout})`);
    }
    return { folder, entries: [...readManifest(folder), ...local], lookedFor: `${how} ${folder}` };
  }
  const found = existsSync(join(sibling, "manifest.json"));
  const lookedFor = `${join(sibling, "manifest.json")}, as neither --bench-dir nor BENCH_DIR is given`;
  return { folder: found ? sibling : null, entries: [...(found ? readManifest(sibling) : []), ...local], lookedFor };
}

function readManifest(folder: string): ManifestEntry[] {
  return JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as ManifestEntry[];
}

/** The message when the set asked for is not among the known ones. */
export function unknownSetMessage(set: string | undefined, benchmarks: Benchmarks): string {
  const sets = [...new Set(benchmarks.entries.map((e) => e.set))].join(", ");
  if (benchmarks.folder === null) {
    return (
      `bench: no benchmark folder found (looked for ${benchmarks.lookedFor}); ` +
      `set one with --bench-dir DIR or BENCH_DIR=DIR (a folder with manifest.json and requests/); sets without one: ${sets}`
    );
  }
  return `bench: ${set === undefined ? "no --set given" : `no set '${set}'`} in ${benchmarks.folder} or bench/instances; sets: ${sets}`;
}

/** An entry's request: the folder's ready request, or a local hold-out instance converted from its raw file. */
export function entryRequest(entry: ManifestEntry, benchmarks: Benchmarks): SolveRequestInput {
  if (entry.request) return JSON.parse(readFileSync(join(benchmarks.folder!, entry.request), "utf8")) as SolveRequestInput;
  return vrplibRequest(join(LOCAL_DIR, entry.raw!), entry.name, entry.vehicles!);
}
