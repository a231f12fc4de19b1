/**
 * The few public benchmark instances the strategy tests read, carried in test/fixtures/benchmarks/
 * so the tests run the same in a fresh clone as beside the benchmark folder. Each fixture is the
 * benchmark folder's request, except that a full distance matrix is replaced by the coordinates it
 * was computed from (`distance_from`) and rebuilt here exactly, and the XXL files keep only the
 * fields bench/rich-xxl-instance.ts reads. `fixturesMatchBenchmarks` checks both claims against
 * the benchmark folder when it is present.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { REPO_ROOT } from "../../src/infra/repo-root.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "benchmarks");

/** The matrix conventions of the benchmark folder's README that the fixtures use, from the Euclidean distance. */
const CONVENTIONS = {
  /** Full double precision (CMT, whose requests also carry the coordinates). */
  real: (d: number) => d,
  /** Euclidean distance truncated to one decimal (Solomon). */
  trunc1: (d: number) => Math.floor(10 * d) / 10,
  /** Euclidean distance rounded to three decimals (PyVRP's exact scale: MDVRPTW, SDVRPTW). */
  round3: (d: number) => Math.round(1000 * d) / 1000,
} as const;

interface DistanceFrom {
  convention: keyof typeof CONVENTIONS;
  /** Absent: the request's node_positions. */
  positions?: [number, number][];
}

/** A benchmark request by its path under requests/ without `.json`, e.g. `Solomon/C101`. */
export function benchmarkRequest(name: string): SolveRequestInput {
  const { distance_from: from, ...request } = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8")) as SolveRequestInput & {
    distance_from?: DistanceFrom;
  };
  if (!from) return request;
  const round = CONVENTIONS[from.convention];
  const p = from.positions ?? (request.node_positions as [number, number][]);
  // sqrt of the sum of squares, as the folder's converter computed them (Math.hypot differs in the last bit).
  request.distance_matrix = p.map(([xi, yi]) => p.map(([xj, yj]) => round(Math.sqrt((xi - xj) ** 2 + (yi - yj) ** 2))));
  return request;
}

/** The file of an XXL instance's positions and demands, for bench/rich-xxl-instance.ts's generator. */
export function xxlFixture(name: string): string {
  return join(FIXTURES, "XXL", `${name}.json`);
}

/** Every fixture, by its path under requests/. */
export const BENCHMARK_FIXTURES = [
  "Solomon/C101",
  "CMT/CMT13",
  "HFVRP/X110-HD",
  "HFVRP/X101-FSMFD",
  "MDVRPTW/PR11A",
  "XXL/Leuven1",
  "XXL/Leuven2",
  "XXL/Antwerp1",
];

/**
 * The benchmark folder (BENCH_DIR, else ../shared/benchmarks beside the repository) when it
 * holds a manifest, else null: only optional checks use it.
 */
export function benchmarkFolder(): string | null {
  const dir = process.env.BENCH_DIR ?? join(REPO_ROOT, "..", "shared", "benchmarks");
  return existsSync(join(dir, "manifest.json")) ? dir : null;
}

/** Fields of the benchmark folder's request that the fixture differs in, as `name.field` (empty: the same). */
export function fixtureDifferences(dir: string, name: string): string[] {
  const original = JSON.parse(readFileSync(join(dir, "requests", `${name}.json`), "utf8")) as Record<string, unknown>;
  const xxl = name.startsWith("XXL/");
  const fixture = (xxl ? JSON.parse(readFileSync(xxlFixture(name.slice(4)), "utf8")) : benchmarkRequest(name)) as Record<string, unknown>;
  // The XXL fixtures carry a subset of the fields; the others the whole request.
  const fields = xxl ? Object.keys(fixture) : [...new Set([...Object.keys(original), ...Object.keys(fixture)])];
  return fields.filter((f) => JSON.stringify(original[f]) !== JSON.stringify(fixture[f])).map((f) => `${name}.${f}`);
}
