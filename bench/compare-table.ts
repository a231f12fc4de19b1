/**
 * The side-by-side table of `npm run bench -- --strategies a,b,c`: per instance each strategy's
 * gap to the best known value and its iterations, then a mean row over the instances every
 * strategy solved (a paired mean: the same instances behind each column).
 */

/** One strategy's outcome on one instance. */
export type CompareCell =
  { solved: true; gap: number; iterations: number } | { solved: false; why: "declined" | "no solution"; error: string };

export interface CompareRow {
  instance: string;
  customers: number;
  bks: number;
  /** One cell per strategy, in the table's column order. */
  cells: CompareCell[];
}

const pad = (s: string | number, w: number) => String(s).padStart(w);

export function compareHeader(strategies: readonly string[]): string[] {
  const heads = strategies.map((s) => ` ${s} gap % | ${s} iterations |`).join("");
  return [`| instance | customers | best known |${heads}`, `|---|---:|---:|${"---:|---:|".repeat(strategies.length)}`];
}

export function compareLine(row: CompareRow): string {
  const cells = row.cells.map((c) => (c.solved ? ` ${pad(c.gap.toFixed(2), 7)} | ${pad(c.iterations, 9)} |` : ` ${c.why} | - |`)).join("");
  return `| ${row.instance} | ${pad(row.customers, 5)} | ${pad(row.bks, 10)} |${cells}`;
}

/** The mean row, and a line saying which instances it covers and how many each strategy solved. */
export function compareMean(strategies: readonly string[], rows: readonly CompareRow[]): string[] {
  const paired = rows.filter((r) => r.cells.every((c) => c.solved));
  const cells = strategies
    .map((_, k) => {
      if (paired.length === 0) return " - | - |";
      const solved = paired.map((r) => r.cells[k] as Extract<CompareCell, { solved: true }>);
      const gap = solved.reduce((sum, c) => sum + c.gap, 0) / solved.length;
      const iterations = Math.round(solved.reduce((sum, c) => sum + c.iterations, 0) / solved.length);
      return ` **${gap.toFixed(2)}** | ${pad(iterations, 9)} |`;
    })
    .join("");
  const counts = strategies.map((s, k) => `${s} ${rows.filter((r) => r.cells[k]!.solved).length}/${rows.length}`).join(", ");
  // The first failure of each strategy that failed, so a refusal's reason is on screen.
  const failures = strategies.flatMap((s, k) => {
    const failed = rows.find((r) => !r.cells[k]!.solved);
    const cell = failed?.cells[k] as Extract<CompareCell, { solved: false }> | undefined;
    return cell ? [`${s}, ${cell.why} on ${failed!.instance}: ${cell.error}`] : [];
  });
  const covers = `mean over the ${paired.length} of ${rows.length} instances every strategy solved; solved: ${counts}`;
  return [`| **mean** | | |${cells}`, "", covers, ...failures];
}
