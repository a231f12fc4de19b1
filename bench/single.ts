/**
 * One strategy (or the automatic selection) on a set: per instance the best known value, ours
 * (re-scored by the evaluator), the gap, the time, the strategy chosen and the vehicles used; per
 * set the feasible count and the mean, median and max gap.
 */
import { entryRequest, type Benchmarks, type ManifestEntry } from "./benchmark-folder.js";
import type { CompiledSolver } from "./compiled-solver.js";
import type { SettingsOverride } from "../strategies/settings.js";

/** What a run solves and with what: the set's entries, where they come from, the settings and the solver. */
export interface BenchRun {
  entries: readonly ManifestEntry[];
  benchmarks: Benchmarks;
  settings: RunSettings;
  solver: CompiledSolver;
}

export interface RunSettings {
  /** Seconds per instance; undefined: the protocol's (benchmarkSeconds). */
  seconds: number | undefined;
  seed: number;
  /** Turns hard windows into soft ones at this price per late minute. */
  latePenalty: number | undefined;
  /** Adds iterations per second. */
  iterations: boolean;
  /** Adds the CPU seconds this process spent on each instance. */
  cpu: boolean;
  /** Search settings replacing the families' own (bench/settings-env.ts), passed to every solve. */
  override: SettingsOverride;
}

/** The protocol's time per instance: 10 s up to 200 customers, 30 s above; XXL 60 s up to 10,000 customers, 120 s above. */
export function benchmarkSeconds(entry: ManifestEntry, settings: RunSettings): number {
  if (settings.seconds !== undefined) return settings.seconds;
  if (entry.set === "XXL") return entry.n_customers <= 10_000 ? 60 : 120;
  return entry.n_customers <= 200 ? 10 : 30;
}

/**
 * Solves one entry as the protocol does (a fresh request, so a solve never sees what another did to
 * it; the set's late penalty, seed, time and settings), with the strategy named or the selection's;
 * the wall and CPU seconds are the solve's alone, without building the request.
 */
export function solveEntry(entry: ManifestEntry, { benchmarks, settings, solver }: BenchRun, strategy: string | undefined) {
  const request = entryRequest(entry, benchmarks);
  if (settings.latePenalty !== undefined) request.late_penalty_per_min = settings.latePenalty;
  const stats = { iterations: 0 };
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const outcome = solver.solveRequest(request, {
    settings: settings.override,
    requestId: entry.name,
    timeLimitSeconds: benchmarkSeconds(entry, settings),
    seed: settings.seed,
    stats,
    ...(strategy ? { strategy } : {}),
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    outcome,
    iterations: stats.iterations,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

const pad = (s: string | number, w: number) => String(s).padStart(w);

export function runSingle(strategy: string | undefined, run: BenchRun): void {
  const { entries, settings } = run;
  const iterHead = (settings.iterations ? " iter/s |" : "") + (settings.cpu ? " cpu s |" : "");
  // Vehicles used by our solution (the best known solution's in brackets): PDPTW's best known
  // solutions minimise vehicles first, the requests distance only, so the two go together.
  // Prize-collecting sets: the gap is on total_cost, skip penalties of unserved clients included;
  // the served count is shown beside it.
  const prizes = entries.some((e) => e.bks_objective === "distance_plus_penalties");
  if (prizes) console.log("objective distance_plus_penalties: total_cost = distance + skip_penalty_total; served = clients on a route");
  const served = prizes ? " served |" : "";
  console.log(`| instance | customers | best known | ours | gap % | time s | strategy |${iterHead}${served} vehicles (bks) |`);
  const extra = (settings.iterations ? "---:|" : "") + (settings.cpu ? "---:|" : "") + (prizes ? "---:|" : "");
  console.log(`|---|---:|---:|---:|---:|---:|---|${extra}---:|`);
  const gaps: number[] = [];
  let feasible = 0;
  for (const entry of entries) {
    const { outcome, iterations, seconds: took, cpuSeconds } = solveEntry(entry, run, strategy);
    const iterCell =
      (settings.iterations ? ` ${pad(Math.round(iterations / took), 6)} |` : "") +
      (settings.cpu ? ` ${pad(cpuSeconds.toFixed(1), 5)} |` : "");
    const head = `| ${entry.name} | ${pad(entry.n_customers, 4)} | ${pad(entry.bks, 9)} |`;
    const vehicles = (used: number | string) => `${used} (${entry.bks_routes ?? "-"}) |`;
    if (outcome.status === "solved") {
      feasible++;
      const gap = (100 * (outcome.result.total_cost - entry.bks)) / entry.bks;
      gaps.push(gap);
      const used = Object.keys(outcome.result.routes).length;
      // Each used route lists its start node, its customers and its end node.
      const served = Object.values(outcome.result.routes).reduce((sum, nodes) => sum + Math.max(0, nodes.length - 2), 0);
      const servedCell = prizes ? ` ${pad(served, 5)} |` : "";
      const cost = pad(outcome.result.total_cost.toFixed(2), 10);
      const gapTime = `${pad(gap.toFixed(2), 6)} | ${pad(took.toFixed(1), 5)}`;
      console.log(`${head} ${cost} | ${gapTime} | ${outcome.result.strategy} |${iterCell}${servedCell} ${vehicles(used)}`);
    } else {
      const servedCell = prizes ? " - |" : "";
      const strategyCell = outcome.strategy ?? "-";
      console.log(`${head} infeasible | - | ${pad(took.toFixed(1), 5)} | ${strategyCell} |${iterCell}${servedCell} ${vehicles("-")}`);
    }
  }
  const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
  const sorted = [...gaps].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
  const max = (sorted[sorted.length - 1] ?? 0).toFixed(2);
  const set = entries[0]?.set ?? "-";
  const summary = `mean gap ${mean.toFixed(2)}%, median gap ${median.toFixed(2)}%, max gap ${max}%`;
  console.log(`\nset ${set}: feasible ${feasible}/${entries.length}, ${summary}`);
}
