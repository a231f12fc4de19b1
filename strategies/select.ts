import type { CompiledProblem } from "./core/problem.js";
import type { Strategy } from "./core/strategy.js";
import { findStrategy } from "./registry.js";

/** One row of the selection table: the first row that matches and whose strategy supports the problem wins. */
export interface SelectionRule {
  maxCustomers: number;
  /** Match only problems with (true) or without (false) a time dimension; omitted: either. */
  timeDimension?: boolean;
  /** Match only problems with coordinates; omitted: either. */
  needsCoordinates?: boolean;
  strategy: string;
}

/**
 * Defaults: ALNS wherever its search has room to pay off within typical time limits (see
 * BENCHMARKS.md: it beats the constructions on every benchmark set); on very large problems the
 * savings construction alone, since one ALNS iteration there costs too much to iterate usefully.
 */
export const DEFAULT_SELECTION: readonly SelectionRule[] = [
  { maxCustomers: 3000, strategy: "alns" },
  { maxCustomers: Number.POSITIVE_INFINITY, strategy: "clarke-wright" },
];

export function selectStrategy(p: CompiledProblem, table: readonly SelectionRule[] = DEFAULT_SELECTION): Strategy {
  const customers = p.customers.length;
  for (const rule of table) {
    if (customers > rule.maxCustomers) continue;
    if (rule.timeDimension !== undefined && rule.timeDimension !== (p.time !== null)) continue;
    if (rule.needsCoordinates && !p.coords) continue;
    const strategy = findStrategy(rule.strategy);
    if (strategy.supports(p).ok) return strategy;
  }
  return findStrategy("clarke-wright");
}
