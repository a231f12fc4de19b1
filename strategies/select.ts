import { windowsBindAgainst, type CompiledProblem } from "./core/problem.js";
import { identicalVehiclesMismatch } from "./search/identical-vehicles-model.js";
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
   * Match only identical-vehicles problems (true: one depot, identical vehicles, hard windows if any) or
   * only the others (false: mixed fleets, several depots or start/end nodes, speeds, soft windows).
   */
  identicalVehicles?: boolean;
  /** Match only problems with (true) or without (false) rules (optional stops, skills, shifts, route limits); omitted: either. */
  rules?: boolean;
  /** Match only problems with (true) or without (false) load rules (pickups, backhauls, shipments, extra dimensions). */
  loadRules?: boolean;
  /** Match only problems with (true) or without (false) locked stops (vehicle_locked_stops). */
  lockedStops?: boolean;
  /** Match only problems with (true) or without (false) travel rules (constraints.md, third table); omitted: either. */
  travelRules?: boolean;
  /** Match only problems with (true) or without (false) ride-time limits, incompatible goods or same-vehicle groups; omitted: either. */
  visitRules?: boolean;
  /** Match only problems with (true) or without (false) a balance term (balance); omitted: either. */
  balance?: boolean;
  strategy: string;
}

/**
 * Defaults: each row gives a kind of problem to the strategy that came out ahead on it in the
 * benchmarks (BENCHMARKS.md), and a size limit is where that was last shown.
 * - Identical-vehicles problems (one depot, identical vehicles, hard windows if any): hgs, up to 1,000
 *   customers with binding windows and 2,000 without, where it beat ALNS. Inside hgs the size
 *   decides between its genetic search and its identical-vehicles iterated local search (hgs/index.ts,
 *   strategies/settings.ts).
 * - Everything else (mixed fleets, several depots or different start and end nodes, speeds, soft
 *   windows) up to 1,000 customers: hgs's general search (ils/per-vehicle-ils.ts), ahead of ALNS.
 * - Above 1,000 customers, rich problems and identical-vehicles ones with binding windows, and above 2,000
 *   every other identical-vehicles problem: the decomposition (strategies/large), sub-problems of whole
 *   routes that keep their vehicles, depots and windows, searched by hgs. It beat ALNS and the
 *   savings construction there, and hgs on the whole problem, whose distance matrix alone costs
 *   more memory than the decomposition's peak. ALNS stays selectable by name.
 */
export const DEFAULT_SELECTION: readonly SelectionRule[] = [
  // Tiny problems (a handful of stops): exhaustive search, a proven optimum in well under a
  // millisecond; it declines (supports) any problem with more than EXACT_MAX_SOLUTIONS solutions.
  { maxCustomers: 8, strategy: "exact" },
  { maxCustomers: 1000, bindingWindows: true, identicalVehicles: true, strategy: "hgs" },
  { maxCustomers: 2000, bindingWindows: false, identicalVehicles: true, strategy: "hgs" },
  { maxCustomers: 1000, identicalVehicles: false, strategy: "hgs" },
  // Optional stops, skills, shifts and route limits (constraints.md): only hgs prices them (its
  // general search, search/route-rules.ts; optional stops alone, its identical-vehicles iterated search,
  // hgs/index.ts); the other strategies refuse them.
  { maxCustomers: Number.POSITIVE_INFINITY, rules: true, strategy: "hgs" },
  // Load rules (constraints.md, second table) at any size: only hgs knows them (the others refuse
  // them in `supports`): backhauls on one depot and identical vehicles through its identical-vehicles
  // iterated search (search/backhaul-model.ts), the rest through its general search; measured on
  // VRPB and PDPTW in BENCHMARKS.md.
  { maxCustomers: Number.POSITIVE_INFINITY, loadRules: true, strategy: "hgs" },
  // Locked stops at any size: only hgs's general search keeps them (search/route-locks.ts).
  { maxCustomers: Number.POSITIVE_INFINITY, lockedStops: true, strategy: "hgs" },
  // Travel rules (duration matrices, profiles, time costs, open routes, several windows, breaks)
  // at any size the submission takes them at: only hgs's general search prices them.
  { maxCustomers: Number.POSITIVE_INFINITY, travelRules: true, strategy: "hgs" },
  // Ride-time limits, incompatible goods and same-vehicle groups at any size: only hgs's general
  // search prices them (search/route-visits.ts).
  { maxCustomers: Number.POSITIVE_INFINITY, visitRules: true, strategy: "hgs" },
  // Balanced workloads at any size: only hgs's general search prices the largest workload.
  { maxCustomers: Number.POSITIVE_INFINITY, balance: true, strategy: "hgs" },
  // Several depots, mixed fleets, speeds or soft windows above 1,000 customers: decomposition
  // into sub-problems of whole routes searched by hgs (strategies/large); see the comment above.
  { maxCustomers: Number.POSITIVE_INFINITY, identicalVehicles: false, strategy: "large" },
  // Identical-vehicles problems with binding windows above 1,000 customers: the decomposition, whose
  // sub-problems hgs searches with its identical-vehicles windows search; see the comment above the table.
  { maxCustomers: Number.POSITIVE_INFINITY, bindingWindows: true, identicalVehicles: true, strategy: "large" },
  // Above 2,000 customers, identical-vehicles problems without binding windows too: decomposition
  // (strategies/large) where it applies, ahead of ALNS, of hgs on the whole problem and of the
  // savings construction at that size (BENCHMARKS.md). The savings alone remain for what the decomposition's sub-problems
  // do not carry yet (optional stops, skills, shifts, route limits, pickups, shipments, extra
  // load dimensions).
  { maxCustomers: Number.POSITIVE_INFINITY, strategy: "large" },
  { maxCustomers: Number.POSITIVE_INFINITY, strategy: "clarke-wright" },
];

/** One depot, identical vehicles, hard windows if any: where hgs runs its genetic search. */
export function isIdenticalVehicles(p: CompiledProblem): boolean {
  return identicalVehiclesMismatch(p) === null;
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
    if (rule.identicalVehicles !== undefined && rule.identicalVehicles !== isIdenticalVehicles(p)) continue;
    if (rule.rules !== undefined && rule.rules !== (p.rules != null)) continue;
    if (rule.loadRules !== undefined && rule.loadRules !== (p.loads != null)) continue;
    if (rule.lockedStops !== undefined && rule.lockedStops !== (p.locks != null)) continue;
    if (rule.travelRules !== undefined && rule.travelRules !== (p.travel != null)) continue;
    if (rule.visitRules !== undefined && rule.visitRules !== (p.visits != null)) continue;
    if (rule.balance !== undefined && rule.balance !== (p.balance != null)) continue;
    const strategy = findStrategy(rule.strategy);
    if (p.locks && !strategy.features.includes("locked_stops")) continue;
    if (p.balance && !strategy.features.includes("balance")) continue;
    if (strategy.supports(p).ok) return strategy;
  }
  return findStrategy("clarke-wright");
}
