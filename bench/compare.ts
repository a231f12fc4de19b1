/**
 * Several strategies side by side, paired: on each instance every strategy solves the same
 * request with the same seed and the same time limit, one after another in this process, which
 * run.ts pins to one core. The order rotates from one instance to the next, so no strategy always
 * runs first (on a cold process) or last.
 */
import { entryRequest } from "./benchmark-folder.js";
import { compareHeader, compareLine, compareMean, type CompareCell, type CompareRow } from "./compare-table.js";
import { benchmarkSeconds, type BenchRun } from "./single.js";

export function runCompared(strategies: readonly string[], { entries, benchmarks, settings, solver }: BenchRun): void {
  for (const line of compareHeader(strategies)) console.log(line);
  const rows: CompareRow[] = [];
  entries.forEach((entry, index) => {
    const cells: CompareCell[] = new Array(strategies.length);
    for (let turn = 0; turn < strategies.length; turn++) {
      const k = (index + turn) % strategies.length;
      // A fresh copy per strategy: a solve must not see what another did to the request.
      const request = entryRequest(entry, benchmarks);
      if (settings.latePenalty !== undefined) request.late_penalty_per_min = settings.latePenalty;
      const stats = { iterations: 0 };
      const outcome = solver.solveRequest(request, {
        settings: settings.override,
        requestId: entry.name,
        timeLimitSeconds: benchmarkSeconds(entry, settings),
        seed: settings.seed,
        strategy: strategies[k]!,
        stats,
      });
      cells[k] =
        outcome.status === "solved"
          ? { solved: true, gap: (100 * (outcome.result.total_cost - entry.bks)) / entry.bks, iterations: stats.iterations }
          : { solved: false, why: outcome.code === "strategy_declined" ? "declined" : "no solution", error: outcome.error };
    }
    const row = { instance: entry.name, customers: entry.n_customers, bks: entry.bks, cells };
    rows.push(row);
    console.log(compareLine(row));
  });
  for (const line of compareMean(strategies, rows)) console.log(line);
}
