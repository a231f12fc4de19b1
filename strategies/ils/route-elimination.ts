import type { Rng } from "../core/rng.js";
import type { GeneralLocalSearch } from "../search/general/local-search.js";
import { recreate } from "./ruin-recreate.js";

/**
 * Route elimination for the general iterated search on problems with rules (skills, shifts,
 * route caps). On site-dependent VRPTWs the best known solutions use fewer vehicles than the
 * search's (PR06 26 against 27-28, PR17B 31 against 32-33): with distance as the objective a
 * route costs two depot legs, but the ordinary ruin and recreate seldom empties one, since the
 * other routes' windows and working hours leave no single place for all of its customers. So now
 * and then the best solution's route with the fewest customers (the victim) is emptied, its
 * customers are inserted into the other routes (time warp, overload and excess hours allowed, at
 * the search's prices), and a short search on those routes alone (no vehicle may be opened) ruins
 * the neighbourhoods of the violations and recreates them until the routes are feasible. The same
 * idea as the route squeeze of the large strategy (large/squeeze.ts) and the route-minimisation
 * phases of Nagata and Bräysy (2009) and FILO (Accorsi and Vigo 2021), here on the search's own
 * route model, so every rule is priced as in the ordinary search.
 */

/** An attempt is due when the best solution has not improved for OFFSET, OFFSET + INTERVAL, ... iterations. */
const INTERVAL = 500;
const OFFSET = 250;
/** Ruin-recreate-educate steps an attempt may take to make the reduced fleet feasible. */
const STEPS = 60;
/**
 * A feasible reduced solution is kept (and the fleet held) only within this share of the best's
 * cost. Fewer routes are not always shorter: held whatever their cost, reduced solutions 1.4-3%
 * dearer than the best took most of the search's time on PR06, PR14 and PR16 and left it 1-2
 * points worse there (set mean 2.03% against 1.67%), while PR11A gained (BENCHMARKS.md, issue 21).
 */
const MARGIN = Number(process.env.SD2_MARGIN ?? 0.01);
/** Customers removed around a violation per step. */
const RUIN_SIZE = 8;

/** What the iterated search lends an attempt: its education, and how it judges an outcome. */
export interface EliminationHooks<T> {
  /** Local search (and repair) of the loaded routes without recording the outcome in the prices. */
  educate(): T;
  /** Feasible and serving every required customer. */
  complete(outcome: T): boolean;
  /** Penalised cost at the current prices. */
  cost(outcome: T): number;
  routes(outcome: T): number[][];
}

export class RouteElimination {
  /** Vehicles whose route was already tried as the victim of the current best (reset when it changes). */
  private readonly tried: Uint8Array;
  private triedFor = Number.NaN;
  /**
   * After a success the ordinary search goes on with the reduced fleet (no vehicle may be opened)
   * until it next goes back to the best: a reduced solution is dearer than the best at first (its
   * routes were only made feasible), and with a vehicle free the search would open it again at once
   * (PR06: 13 of 16 attempts feasible, none cheaper than the best, when the fleet opened after 400
   * iterations).
   */
  private holding = false;
  attempts = 0;
  successes = 0;

  constructor(private readonly ls: GeneralLocalSearch) {
    this.tried = new Uint8Array(ls.m.routes);
  }

  /** The search goes back to the best (a restart): the fleet opens again. */
  release(): void {
    this.holding = false;
    this.ls.closedFleet = false;
  }

  /**
   * Recreates `removed` (as ruin-recreate.ts does); with the fleet closed, a customer no used
   * route may take (skills, or no route left) is then recreated with the fleet open: the reduced
   * fleet cannot serve it, and the local search needs every required customer on a route.
   */
  recreate(rng: Rng, removed: number[]): void {
    recreate(this.ls, rng, removed);
    if (!this.ls.closedFleet) return;
    const stranded = removed.filter((c) => this.ls.rs.routeOf[c]! < 0);
    if (stranded.length === 0) return;
    this.ls.closedFleet = false;
    recreate(this.ls, rng, stranded);
    this.ls.closedFleet = true;
  }

  due(sinceBest: number): boolean {
    return !this.holding && sinceBest >= OFFSET && (sinceBest - OFFSET) % INTERVAL === 0;
  }

  /**
   * One attempt from `best` (costing `bestCost`): the routes without its smallest untried route,
   * made feasible when the short search manages; null when there is no victim left or it fails.
   */
  attempt<T>(rng: Rng, best: readonly (readonly number[])[], bestCost: number, hooks: EliminationHooks<T>, stop: () => boolean): T | null {
    const ls = this.ls;
    const rs = ls.rs;
    if (bestCost !== this.triedFor) {
      this.tried.fill(0);
      this.triedFor = bestCost;
    }
    let victim = -1;
    let used = 0;
    for (let r = 0; r < best.length; r++) {
      const size = best[r]?.length ?? 0;
      if (size === 0) continue;
      used++;
      if (!this.tried[r] && (victim < 0 || size < best[victim]!.length)) victim = r;
    }
    if (victim < 0 || used < 2) return null;
    this.tried[victim] = 1;
    this.attempts++;
    this.release();
    rs.loadRoutes(best);
    const removed = Array.from(best[victim]!);
    rs.setRoute(victim, removed, 0);
    ls.closedFleet = true;
    try {
      this.recreate(rng, removed);
      let current = hooks.educate();
      let currentCost = hooks.cost(current);
      for (let step = 0; step < STEPS && !hooks.complete(current) && !stop(); step++) {
        rs.loadRoutes(hooks.routes(current));
        this.recreate(rng, ruinNearViolation(ls, rng, RUIN_SIZE));
        const candidate = hooks.educate();
        const candidateCost = hooks.cost(candidate);
        if (candidateCost < currentCost) {
          current = candidate;
          currentCost = candidateCost;
        }
      }
      if (process.env.SD2_LOG) console.error(`attempt: victim ${removed.length} customers of ${used} routes, ${hooks.complete(current) ? "feasible" : "infeasible"}, cost ${hooks.cost(current).toFixed(1)} against ${bestCost.toFixed(1)}`);
      if (!hooks.complete(current) || hooks.cost(current) > (1 + MARGIN) * bestCost) return null;
      this.successes++;
      this.holding = true;
      return current;
    } finally {
      ls.closedFleet = this.holding;
    }
  }
}

/**
 * Removes about `size` customers around a customer of a route that breaks a rule (or a customer
 * left unserved: around its nearest routed neighbours), breadth first over granular neighbours.
 * Returns the removed customers together with the unserved ones, for the recreate.
 */
export function ruinNearViolation(ls: GeneralLocalSearch, rng: Rng, size: number): number[] {
  const rs = ls.rs;
  const m = rs.m;
  const unserved: number[] = [];
  for (const c of m.customers) if (rs.routeOf[c]! < 0) unserved.push(c);
  const violating: number[] = [];
  for (let r = 0; r < m.routes; r++) {
    if (rs.length[r]! > 0 && (rs.loadExcess[r]! > 0 || rs.timeWarp[r]! > 0 || rs.durationExcess[r]! > 0 || rs.distanceExcess[r]! > 0 || rs.stopsExcess[r]! > 0)) violating.push(r);
  }
  let seed: number;
  if (violating.length > 0 && (unserved.length === 0 || rng.next() < 0.5)) {
    const r = violating[rng.int(violating.length)]!;
    seed = rs.seq[r]![1 + rng.int(rs.length[r]!)]!;
  } else if (unserved.length > 0) seed = unserved[rng.int(unserved.length)]!;
  else seed = m.customers[rng.int(m.customers.length)]!;
  const picked = new Set<number>();
  const queue = [seed];
  const target = Math.min(size, m.customers.length);
  while (queue.length > 0 && picked.size < target) {
    const c = queue.shift()!;
    if (picked.has(c)) continue;
    if (rs.routeOf[c]! >= 0) picked.add(c);
    for (const w of m.neighbours[c]!) if (!picked.has(w) && rng.next() < 0.7) queue.push(w);
  }
  const touched = new Set<number>();
  for (const c of picked) touched.add(rs.routeOf[c]!);
  for (const r of touched) {
    const kept = Array.from(rs.seq[r]!.subarray(1, rs.length[r]! + 1)).filter((c) => !picked.has(c));
    rs.setRoute(r, kept, kept.length);
  }
  return [...picked, ...unserved];
}
