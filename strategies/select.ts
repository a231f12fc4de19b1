import { windowsBindAgainst, type CompiledProblem } from "./core/problem.js";
import { textbookMismatch } from "./search/textbook-model.js";
import type { Strategy } from "./core/strategy.js";
import { findStrategy } from "./registry.js";

/** One row of the selection table: the first row that matches and whose strategy supports the problem wins. */
export interface SelectionRule {
  maxCustomers: number;
  /** Match only problems with (true) or without (false) a time dimension; omitted: either. */
  timeDimension?: boolean;
  /** Match only problems with coordinates; omitted: either. */
  needsCoordinates?: boolean;
  /**
   * Match only problems with (true) or without (false) customer time windows that can bind
   * (some customer opens later or closes earlier than its vehicles' start node); omitted: either.
   */
  bindingWindows?: boolean;
  /**
   * Match only textbook problems (true: one depot, identical vehicles, hard windows if any) or
   * only the others (false: mixed fleets, several depots or start/end nodes, speeds, soft windows).
   */
  textbook?: boolean;
  /** Match only problems with (true) or without (false) rules (optional stops, skills, shifts, route limits); omitted: either. */
  rules?: boolean;
  /** Match only problems with (true) or without (false) load rules (pickups, backhauls, shipments, extra dimensions). */
  loadRules?: boolean;
  strategy: string;
}

/**
 * Defaults. Hybrid genetic search where it applies (one depot, identical vehicles, hard windows
 * if any). Binding (Solomon-type) windows, priced by time warp: hgs up to 200 customers, where it
 * was measured (seed 1, 10 s, BENCHMARKS.md): Solomon 29/29 feasible, mean gap 0.14% and max
 * 0.81% (every instance within 1%) vs ALNS's 1.38% and 4.56%; Gehring-Homberger 200 (6
 * instances) 6/6 feasible, mean 1.79% and max 4.36% vs ALNS's 2.31% and 4.92% (ALNS still ahead
 * on R1_2_1 and R1_2_2). Above 100 customers with such windows hgs runs its textbook iterated
 * local search with time-warp pricing in ruin, recreate and re-search instead of its genetic
 * search (strategies/settings.ts; issue 20: GH200 0.86% vs the genetic search's 3.50% in the same
 * conditions), chosen up to 1,000 customers by measurement (BENCHMARKS.md, GH-large: 12
 * Gehring-Homberger instances of 400-1,000 customers, 30 s, seed 1, one pinned core each, machine
 * heavily loaded, so gaps are far above a quiet machine's): mean gap 3.50%, 12/12 feasible,
 * vs ALNS 13.32%, hgs's general search 14.30% and the genetic search 4 of 12 infeasible; on six
 * generated GH-like instances (bench/gh-like.ts) cheaper than ALNS on all six. PyVRP 0.14's
 * 2.64% on GH-large was measured on a quieter machine (shared/benchmarks/README.md).
 * Without binding windows: in BENCHMARKS.md it beats ALNS on every set it supports (seed 1, 10 s up to
 * 200 customers, 30 s above; mean gap hgs vs alns: A 0.01% vs 0.37%, CMT 0.30% vs 1.06% with all
 * 14 feasible where ALNS missed CMT10, X 0.50% vs 1.41%). Its size limit is where it was
 * measured to stay ahead of ALNS (random uniform CVRPs of 1,000 and 2,000 customers, 5 s and 30 s:
 * 0.2-0.6% cheaper; not measured beyond 2,000, where ALNS keeps its place). Above 300 customers
 * (past the shared X set's largest, 297) hgs runs its textbook iterated local search instead of
 * the genetic search (hgs/index.ts, ITERATED_SEARCH_ABOVE), measured at 30 s, seed 1
 * (BENCHMARKS.md, issue 16): five hold-out X instances of 366-818 customers, mean gap 0.49% vs
 * the genetic search's 1.51% in the same run; six random X-like CVRPs of 415-940 customers 0.83%
 * cheaper on average (five of six); two of 1,500 customers 2.95% and 1.87% cheaper.
 * Everything else (mixed fleets, several depots or different start and end nodes, speeds, soft
 * windows): hgs's general search (iterated local search, ils.ts) up to 1,000 customers, measured
 * (seed 1, 10 s up to 200 customers, 30 s above, machine loaded; BENCHMARKS.md) against ALNS, the
 * previous default: HFVRP (25 mixed fleets, cost objective, 100-326 customers) mean gap 2.35% vs
 * 4.10%, better on 19 of 25; MDVRPTW (14 instances, 4-6 depots, windows, working hours, 360-960
 * customers) 14/14 feasible, mean 5.98% vs ALNS's 8 of 14 feasible at 8.83%. Since then (issue 12,
 * SWAP* and string ruins, quieter machine) HFVRP 1.38% (PyVRP 0.14: 1.44%); soft windows
 * (Solomon R1/RC1 with late_penalty_per_min 1, 10 instances, 10 s) mean cost 2.16% below the
 * hard-window best known vs ALNS's 1.14%, cheaper on 8 of 10. Above 1,000 customers (issue 20,
 * step 4): the decomposition (strategies/large: sub-problems of whole routes that keep their
 * vehicles, depots and windows, searched by hgs), instead of ALNS up to 3,000 customers and the
 * savings alone above. Measured on generated instances on XXL coordinates with windows, 3-4
 * depots and three vehicle types (bench/rich-xxl.ts, 30 s, seed 1, one pinned core, machine
 * heavily loaded, load 12-27; BENCHMARKS.md): cheaper than the previous selection on all six
 * instances of 1,200-5,000 customers in both runs (3-38% cheaper in the final one). Textbook
 * problems with binding windows above 1,000 customers go there too (issue 20; before: ALNS up to
 * 3,000 customers, the savings alone above), its sub-problems searched by hgs's textbook windows
 * search, measured with the CPU clock (SOLVER_CLOCK=cpu, 30 CPU s, seed 1, one pinned core, load
 * 6-9; bench/tw-large.ts, BENCHMARKS.md): on five identical-vehicle instances on XXL coordinates
 * of 1,200-5,000 customers 8.5-16% cheaper than the previous selection (0.915, 0.860, 0.840,
 * 0.892, 0.872), and ahead of hgs's textbook iterated local search on the whole problem (which
 * builds its own matrix up to 5,001 nodes, hgs/whole-matrix.ts) on all four compared (1.5% at
 * 1,200, 0.7% at 2,000, 3.2% at 2,900, 2.8% at 3,999 customers, whose matrix costs 424 MB of
 * peak RSS against the decomposition's 243-286); on four GH-like instances (bench/gh-like.ts,
 * 1,500-2,500 customers) 3-5% cheaper than ALNS with short routes (R1, RC1: 0.968, 0.951) and
 * 35-38% with long ones (C2, R2: 0.623, 0.654); every run feasible.
 */
export const DEFAULT_SELECTION: readonly SelectionRule[] = [
  // Tiny problems (a handful of stops): exhaustive search, a proven optimum in well under a
  // millisecond; it declines (supports) any problem with more than EXACT_MAX_SOLUTIONS solutions.
  { maxCustomers: 8, strategy: "exact" },
  { maxCustomers: 1000, bindingWindows: true, textbook: true, strategy: "hgs" },
  { maxCustomers: 2000, bindingWindows: false, textbook: true, strategy: "hgs" },
  { maxCustomers: 1000, textbook: false, strategy: "hgs" },
  // Optional stops, skills, shifts and route limits (constraints.md): only hgs prices them (its
  // general search, search/route-rules.ts; optional stops alone, its textbook iterated search,
  // hgs/index.ts); the other strategies refuse them. Measured on PCVRPTW and SDVRPTW (BENCHMARKS.md, issue 21).
  { maxCustomers: Number.POSITIVE_INFINITY, rules: true, strategy: "hgs" },
  // Load rules (constraints.md, second table) at any size: only hgs knows them (the others refuse
  // them in `supports`): backhauls on one depot and identical vehicles through its textbook
  // iterated search (search/backhaul-model.ts), the rest through its general search; measured on
  // VRPB and PDPTW in BENCHMARKS.md.
  { maxCustomers: Number.POSITIVE_INFINITY, loadRules: true, strategy: "hgs" },
  // Several depots, mixed fleets, speeds or soft windows above 1,000 customers: decomposition
  // into sub-problems of whole routes searched by hgs (strategies/large); see the comment above.
  { maxCustomers: Number.POSITIVE_INFINITY, textbook: false, strategy: "large" },
  // Textbook problems with binding windows above 1,000 customers: the decomposition, whose
  // sub-problems hgs searches with its textbook windows search; see the comment above the table.
  { maxCustomers: Number.POSITIVE_INFINITY, bindingWindows: true, textbook: true, strategy: "large" },
  { maxCustomers: 3000, strategy: "alns" },
  // Above 3,000 customers: decomposition (strategies/large) where it applies (capacity-only, one
  // depot, identical vehicles): on XXL (3,000-30,000 customers, 60/120 s, BENCHMARKS.md) it beats
  // the savings construction on all 7 instances (mean gap 3.03% vs 6.01%). Not below: on five
  // hold-out X instances of 366-818 customers (30 s) it was no better than hgs (2.37% vs 2.25%).
  // Since issue 20 (step 4) it also takes windows, several depots and mixed fleets; the savings
  // alone remain for what its sub-problems do not carry yet (optional stops, skills, shifts,
  // route limits, pickups, shipments, extra load dimensions: issues 21/22).
  { maxCustomers: Number.POSITIVE_INFINITY, strategy: "large" },
  { maxCustomers: Number.POSITIVE_INFINITY, strategy: "clarke-wright" },
];

/** One depot, identical vehicles, hard windows if any: where hgs runs its genetic search. */
export function isTextbook(p: CompiledProblem): boolean {
  return textbookMismatch(p) === null;
}

/** Whether some customer's window is narrower than a start node's (Solomon-like windows). */
export function hasBindingWindows(p: CompiledProblem): boolean {
  if (!p.time) return false;
  return [...new Set(p.startNode)].some((depot) => windowsBindAgainst(p, depot));
}

export function selectStrategy(p: CompiledProblem, table: readonly SelectionRule[] = DEFAULT_SELECTION): Strategy {
  const customers = p.customers.length;
  for (const rule of table) {
    if (customers > rule.maxCustomers) continue;
    if (rule.timeDimension !== undefined && rule.timeDimension !== (p.time !== null)) continue;
    if (rule.needsCoordinates && !p.coords) continue;
    if (rule.bindingWindows !== undefined && rule.bindingWindows !== hasBindingWindows(p)) continue;
    if (rule.textbook !== undefined && rule.textbook !== isTextbook(p)) continue;
    if (rule.rules !== undefined && rule.rules !== (p.rules != null)) continue;
    if (rule.loadRules !== undefined && rule.loadRules !== (p.loads != null)) continue;
    const strategy = findStrategy(rule.strategy);
    if (strategy.supports(p).ok) return strategy;
  }
  return findStrategy("clarke-wright");
}
