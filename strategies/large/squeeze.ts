import { Budget } from "../core/budget.js";
import { evaluateRoute, evaluateSolution } from "../core/evaluator.js";
import { distanceBetween, type CompiledProblem, type Solution } from "../core/problem.js";
import type { Strategy } from "../core/strategy.js";
import { solverNow } from "../core/clock.js";
import { MIN_GROUP_ROUTES, pickRouteGroup } from "../decomposition/group.js";
import { extractSubProblem, liftRoutes, type MatrixPool } from "../decomposition/subproblem.js";

/**
 * Route elimination for the decomposition (fleet squeeze). On long-route instances a route
 * costs its two depot legs, which is why the best known solutions there use the fewest routes
 * the demand allows (each route a noticeable share of the cost), while
 * the group search seldom empties a route by itself: a group of a few full routes has no room
 * for another route's load, and its search is rewarded only for distance. So now and then the
 * least-loaded route (the victim) is taken out: its nearest routes join a group until they have
 * room for its load, its customers are inserted where they cost least (overloading a route
 * when none has room), and the group's search, with one vehicle fewer, looks for a feasible
 * set of routes, which replaces the group's (victim included) when it is cheaper. Route-
 * minimisation phases of the same kind open the large-scale methods (the route minimisation
 * of FILO, Accorsi and Vigo 2021; ejection of a route's customers in the fleet-minimisation
 * literature); here it runs inside the improvement loop on identical vehicles without windows.
 */

/** Attempts are spaced by this many ordinary groups at first, twice as many after each failure, up to MAX_INTERVAL. */
const FIRST_INTERVAL = 8;
const MAX_INTERVAL = 64;
/** A squeeze group's search gets this many times the seconds of an ordinary group of its size. */
const TIME_FACTOR = 2;
/** A squeeze group holds at most this many times the ordinary target of customers. */
const MAX_GROUP_FACTOR = 3;

/** The fewest routes the total demand needs, when every vehicle is the same and there is no time dimension; else null. */
export function fleetFloor(p: CompiledProblem): number | null {
  if (p.time || p.vehicleCount === 0) return null;
  for (let v = 1; v < p.vehicleCount; v++) {
    if (p.capacity[v] !== p.capacity[0] || p.fixedCost[v] !== p.fixedCost[0] || p.unitCost[v] !== p.unitCost[0]) return null;
    if (p.startNode[v] !== p.startNode[0] || p.endNode[v] !== p.endNode[0]) return null;
  }
  let demand = 0;
  for (const c of p.customers) demand += p.demand[c]!;
  return Math.ceil(demand / p.capacity[0]! - 1e-9);
}

function loadOf(p: CompiledProblem, route: readonly number[]): number {
  let load = 0;
  for (const c of route) load += p.demand[c]!;
  return load;
}

/**
 * The victim's customers inserted one by one at their cheapest position in `routes` (driven by
 * `vehicles`): among routes with room for the customer first, else in the route it overloads
 * least. Returns the routes with every customer; the search repairs overloads under its prices.
 */
export function insertCheapest(
  p: CompiledProblem,
  vehicles: readonly number[],
  routes: number[][],
  customers: readonly number[],
): number[][] {
  const out = routes.map((r) => r.slice());
  const loads = out.map((r) => loadOf(p, r));
  for (const c of customers) {
    let best = -1;
    let bestAt = 0;
    let bestExcess = Number.POSITIVE_INFINITY;
    let bestDelta = Number.POSITIVE_INFINITY;
    out.forEach((route, k) => {
      const v = vehicles[k]!;
      const excess = Math.max(0, loads[k]! + p.demand[c]! - p.capacity[v]!);
      if (excess > bestExcess) return;
      for (let at = 0; at <= route.length; at++) {
        const prev = at === 0 ? p.startNode[v]! : route[at - 1]!;
        const next = at === route.length ? p.endNode[v]! : route[at]!;
        const delta = distanceBetween(p, prev, c) + distanceBetween(p, c, next) - distanceBetween(p, prev, next);
        if (excess < bestExcess || delta < bestDelta) {
          best = k;
          bestAt = at;
          bestExcess = excess;
          bestDelta = delta;
        }
      }
    });
    out[best]!.splice(bestAt, 0, c);
    loads[best]! += p.demand[c]!;
  }
  return out;
}

export interface SqueezeContext {
  p: CompiledProblem;
  current: Solution;
  routeOf: Int32Array;
  near: readonly Int32Array[];
  /** Customers of an ordinary group, and the seconds it gets. */
  target: number;
  seconds: number;
  solver: Strategy;
  pool: MatrixPool;
  budget: Budget;
}

/** When to try a squeeze, which victim, and the routes a failed attempt leaves alone until they change. */
export class FleetSqueeze {
  private interval = FIRST_INTERVAL;
  private groupsSince = 0;
  private readonly tried: Uint8Array;
  attempts = 0;
  successes = 0;

  constructor(
    private readonly floor: number,
    vehicles: number,
  ) {
    this.tried = new Uint8Array(vehicles);
  }

  /** Counts an ordinary group; true when a squeeze is due (more routes than the floor). */
  due(routes: readonly number[][]): boolean {
    if (++this.groupsSince < this.interval) return false;
    let used = 0;
    for (const r of routes) if (r.length > 0) used++;
    return used > this.floor;
  }

  /** Routes a group rewrote: worth trying again. */
  changed(vehicles: readonly number[]): void {
    for (const v of vehicles) this.tried[v] = 0;
  }

  /** One attempt: true when a route was eliminated (the solution changed). */
  attempt(ctx: SqueezeContext): boolean {
    this.groupsSince = 0;
    const { p, current } = ctx;
    let victim = -1;
    let victimLoad = Number.POSITIVE_INFINITY;
    current.routes.forEach((route, v) => {
      if (route.length === 0 || this.tried[v]) return;
      const load = loadOf(p, route);
      if (load < victimLoad) {
        victim = v;
        victimLoad = load;
      }
    });
    if (victim < 0) return false;
    this.tried[victim] = 1;
    this.attempts++;
    const eliminated = squeezeRoute(ctx, victim, victimLoad);
    if (eliminated) {
      this.successes++;
      this.interval = FIRST_INTERVAL;
    } else this.interval = Math.min(MAX_INTERVAL, 2 * this.interval);
    return eliminated;
  }
}

/** Takes route `victim` out if its group can carry its customers at a lower cost; true when it did. */
function squeezeRoute(ctx: SqueezeContext, victim: number, victimLoad: number): boolean {
  const { p, current, budget } = ctx;
  const routes = current.routes;
  const maxCustomers = MAX_GROUP_FACTOR * ctx.target;
  const roomOf = (group: readonly number[]) => {
    let room = 0;
    for (const v of group) if (v !== victim) room += p.capacity[v]! - loadOf(p, routes[v]!);
    return room;
  };
  const enough = (group: readonly number[], size: number) =>
    size > maxCustomers || (size >= ctx.target && group.length > MIN_GROUP_ROUTES && roomOf(group) >= victimLoad);
  const group = pickRouteGroup(routes, ctx.routeOf, ctx.near, ctx.target, budget.rng, victim, enough);
  const others = group.filter((v) => v !== victim);
  if (others.length === 0 || roomOf(group) < victimLoad) return false;
  let before = 0;
  for (const v of group) {
    const score = evaluateRoute(p, v, routes[v]!);
    if (!score.feasible) return false;
    before += score.cost;
  }
  const start = insertCheapest(
    p,
    others,
    others.map((v) => routes[v]!),
    routes[victim]!,
  );
  const sub = extractSubProblem(p, others, start, ctx.pool);
  const size = sub.problem.customers.length;
  const seconds = (TIME_FACTOR * ctx.seconds * Math.max(ctx.target, size)) / ctx.target;
  const subBudget = new Budget(
    Math.min(budget.deadlineMs, solverNow() + seconds * 1000),
    budget.rng.int(2 ** 31),
    Number.POSITIVE_INFINITY,
    () => budget.exhausted(),
    budget.overrides,
  );
  const found = ctx.solver.solve(sub.problem, subBudget, sub.start);
  const score = evaluateSolution(sub.problem, found);
  if (budget.overrides.trace) {
    budget.overrides.trace(
      `squeeze: victim load ${victimLoad}, ${group.length} routes, ${size} customers, ` +
        `room ${roomOf(group)}, ${seconds.toFixed(2)} s: ` +
        `${score.feasible ? `cost ${score.cost.toFixed(0)} against ${before.toFixed(0)}` : "infeasible"}`,
    );
  }
  if (!score.feasible || score.missing.length > 0 || score.duplicated.length > 0 || score.cost >= before - 1e-7) return false;
  liftRoutes(sub, found).forEach((route, k) => {
    const v = others[k]!;
    routes[v] = route;
    for (const c of route) ctx.routeOf[c] = v;
  });
  routes[victim] = [];
  return true;
}
