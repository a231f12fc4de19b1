import { solverNow } from "../core/clock.js";
import { evaluateSolution } from "../core/evaluator.js";
import { HELP_ROUND_TRIP_MS, type HelpVerdict, type Helpers } from "../core/helpers.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import { pickRouteGroup } from "../decomposition/group.js";
import type { RouteRotation } from "../decomposition/rotation.js";
import { extractSubProblem, liftRoutes, type SubProblem } from "../decomposition/subproblem.js";

/**
 * An item is worth a NATS round trip (a few milliseconds) only when it searches for much longer:
 * groups whose own search is shorter (the general search's 10 ms groups) go out larger and longer.
 */
export const MIN_ITEM_SECONDS = 0.5;
/** Items stay short, so a helper checks the task queue between them at least this often. */
export const MAX_ITEM_SECONDS = 1.5;
/** Customers of an item grown from a group shorter than MIN_ITEM_SECONDS. */
const GROWN_ITEM_CUSTOMERS = 200;
/**
 * Items out per available helper: the second waits in the stream while the first is searched, so
 * a helper goes on to its next item at once instead of waiting for the owner's next iteration.
 */
const ITEMS_PER_HELPER = 2;
/** No item is due later than this before the owner's own deadline (its merge must still fit). */
const END_MARGIN_MS = 300;

/** A group's standing: routes that break a hard rule first, then cost. */
export interface Standing {
  broken: number;
  cost: number;
  complete: boolean;
}

export function standing(p: CompiledProblem, s: Solution): Standing {
  const score = evaluateSolution(p, s);
  return {
    broken: score.routes.filter((r) => !r.feasible).length,
    cost: score.cost,
    complete: score.missing.length === 0 && score.duplicated.length === 0,
  };
}

export function better(after: Standing, before: Standing): boolean {
  if (!after.complete) return false;
  if (after.broken !== before.broken) return after.broken < before.broken;
  return after.cost < before.cost - 1e-7;
}

/** What the owner's loop shares with the items it offers. */
export interface GroupContext {
  p: CompiledProblem;
  current: Solution;
  routeOf: Int32Array;
  near: readonly Int32Array[];
  target: number;
  /** hgs seconds of an own group of `target` customers. */
  seconds: number;
  rng: Rng;
  deadlineMs: number;
  rotation: RouteRotation | null;
  spares(group: readonly number[]): number[];
}

interface Offered {
  vehicles: number[];
  /** The vehicles' routes when offered: an answer counts only if they are still the same. */
  routes: number[][];
  sub: SubProblem;
  before: Standing;
}

/**
 * The large strategy's groups searched by other workers (budget.helpers): while helpers are
 * available, groups of routes that the owner's own groups then leave alone are offered as items,
 * and each answer replaces its routes when they are unchanged and the shared evaluator finds the
 * whole plan better. With no helper available it offers nothing and draws nothing from the
 * random stream, so the owner's own search is exactly the single worker's.
 */
export class HelperGroups {
  private readonly offered = new Map<number, Offered>();
  private readonly reserved: Uint8Array;

  constructor(
    private readonly helpers: Helpers,
    vehicleCount: number,
  ) {
    this.reserved = new Uint8Array(vehicleCount);
  }

  isReserved(v: number): boolean {
    return v >= 0 && this.reserved[v] === 1;
  }

  /** `routeOf` with the offered routes hidden, so the owner's own groups grow around them. */
  visible(routeOf: Int32Array): Int32Array {
    if (this.offered.size === 0) return routeOf;
    const masked = Int32Array.from(routeOf);
    for (let i = 0; i < masked.length; i++) if (masked[i]! >= 0 && this.reserved[masked[i]!]) masked[i] = -1;
    return masked;
  }

  /** Offers groups while more helpers are available than items are out. */
  offer(c: GroupContext): void {
    const grow = c.seconds < MIN_ITEM_SECONDS;
    const itemTarget = grow ? Math.max(c.target, GROWN_ITEM_CUSTOMERS) : c.target;
    while (this.offered.size < ITEMS_PER_HELPER * this.helpers.available()) {
      const baseSeconds = grow ? MIN_ITEM_SECONDS : (c.seconds * itemTarget) / c.target;
      const seconds = Math.min(MAX_ITEM_SECONDS, Math.max(MIN_ITEM_SECONDS, baseSeconds));
      const now = solverNow();
      // Due after both of a helper's items could have been searched.
      const dueMs = Math.min(now + ITEMS_PER_HELPER * seconds * 1000 + HELP_ROUND_TRIP_MS, c.deadlineMs - END_MARGIN_MS);
      if (dueMs - now < seconds * 1000 + HELP_ROUND_TRIP_MS / 2) return;
      const seed = c.rotation ? c.rotation.next(c.current.routes, c.rng) : -1;
      if (this.isReserved(seed)) return;
      const group = pickRouteGroup(c.current.routes, this.visible(c.routeOf), c.near, itemTarget, c.rng, seed);
      if (group.length === 0 || group.some((v) => this.isReserved(v))) return;
      c.rotation?.cover(group);
      const vehicles = [...group, ...c.spares(group)];
      const routes = vehicles.map((v) => c.current.routes[v]!.slice());
      // No shared matrix pool: the sub-problem is kept until its answer is judged.
      const sub = extractSubProblem(c.p, vehicles, routes);
      if (sub.problem.customers.length < 2) return;
      const item = { problem: sub.problem, start: sub.start, strategy: "hgs", seed: c.rng.int(2 ** 31), seconds };
      const ticket = this.helpers.offer(item, dueMs);
      this.offered.set(ticket, { vehicles, routes, sub, before: standing(sub.problem, sub.start) });
      for (const v of group) this.reserved[v] = 1;
    }
  }

  /**
   * Judges the answers that came in: `adopt` is called with the routes of each that improves the
   * whole plan (and how many broken routes it mends), after the checks that make that so.
   */
  merge(c: GroupContext, adopt: (vehicles: number[], routes: number[][], mended: number) => void): void {
    for (const answer of this.helpers.collect()) {
      const offered = this.offered.get(answer.ticket);
      if (!offered) continue;
      this.offered.delete(answer.ticket);
      for (const v of offered.vehicles) this.reserved[v] = 0;
      if (!answer.solution) continue;
      const verdict = this.judge(c, offered, answer.solution, adopt);
      this.helpers.settled(answer.ticket, verdict);
    }
  }

  private judge(
    c: GroupContext,
    offered: Offered,
    solution: Solution,
    adopt: (vehicles: number[], routes: number[][], mended: number) => void,
  ): HelpVerdict {
    const unchanged = offered.vehicles.every((v, k) => sameRoute(c.current.routes[v]!, offered.routes[k]!));
    if (!unchanged) return "stale";
    if (!wellFormed(solution, offered.sub)) return "not_better";
    const after = standing(offered.sub.problem, solution);
    if (!better(after, offered.before)) return "not_better";
    const lifted = liftRoutes(offered.sub, solution);
    // The whole plan, scored by the shared evaluator, decides: not the helper's word, nor the group's.
    const candidate: Solution = { routes: c.current.routes.slice() };
    offered.vehicles.forEach((v, k) => (candidate.routes[v] = lifted[k]!));
    if (!better(standing(c.p, candidate), standing(c.p, c.current))) return "not_better";
    adopt(offered.vehicles, lifted, offered.before.broken - after.broken);
    return "merged";
  }
}

function sameRoute(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** An answer shaped as a solution of the item: one route per vehicle, known customer nodes only. */
function wellFormed(solution: Solution, sub: SubProblem): boolean {
  const p = sub.problem;
  if (!Array.isArray(solution.routes) || solution.routes.length !== p.vehicleCount) return false;
  return solution.routes.every(
    (r) => Array.isArray(r) && r.every((c) => Number.isInteger(c) && c >= 0 && c < p.nodeCount && p.isDepot[c] === 0),
  );
}
