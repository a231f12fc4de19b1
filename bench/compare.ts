/**
 * Several strategies side by side, paired: on each instance every strategy solves the same
 * request with the same seed and the same time limit, one after another in this process, which
 * run.ts pins to one core. The order rotates from one instance to the next, so no strategy always
 * runs first (on a cold process) or last.
 */
import { compareHeader, compareLine, compareMean, type CompareCell, type CompareRow } from "./compare-table.js";
import { solveEntry, type BenchRun } from "./single.js";

export function runCompared(strategies: readonly string[], run: BenchRun): void {
  for (const line of compareHeader(strategies)) console.log(line);
  const rows: CompareRow[] = [];
  run.entries.forEach((entry, index) => {
    const cells: CompareCell[] = new Array(strategies.length);
    for (let turn = 0; turn < strategies.length; turn++) {
      const k = (index + turn) % strategies.length;
      const { outcome, iterations } = solveEntry(entry, run, strategies[k]!);
      cells[k] =
        outcome.status === "solved"
          ? { solved: true, gap: (100 * (outcome.result.total_cost - entry.bks)) / entry.bks, iterations }
          : { solved: false, why: outcome.code === "strategy_declined" ? "declined" : "no solution", error: outcome.error };
    }
    const row = { instance: entry.name, customers: entry.n_customers, bks: entry.bks, cells };
    rows.push(row);
    console.log(compareLine(row));
  });
  for (const line of compareMean(strategies, rows)) console.log(line);
}
