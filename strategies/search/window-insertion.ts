import { distanceBetween, hasDenseMatrix, type CompiledProblem } from "../core/problem.js";
import type { RouteScore } from "../core/evaluator.js";
import type { Workspace } from "../core/workspace.js";
import { TimeSegment } from "./time-segment.js";

/** Time warp below this is none, as the evaluator rounds lateness (core/schedule.ts). */
const NO_WARP = 1e-7;
/** Fields of one time segment in the typed arrays: duration, time warp, earliest and latest start. */
const FIELDS = 4;

/**
 * Whether a route's feasibility is its load and its hard windows alone (with the duration cap):
 * the time dimension with hard windows and none of the rules, loads, travel, trips, locks or
 * reassignment, on a dense matrix. There the time segments price every insertion in O(1).
 */
export function windowsOnly(p: CompiledProblem): boolean {
  return (
    p.time !== null &&
    p.time.latePenaltyPerMin <= 0 &&
    !p.rules &&
    !p.loads &&
    !p.travel &&
    !p.trips &&
    !p.locks &&
    !p.reassignment &&
    hasDenseMatrix(p)
  );
}

/** The segment two others make end to end, the route model's own concatenation (time-segment.ts). */
const merged = new TimeSegment();

function merge(d1: number, w1: number, e1: number, l1: number, travel: number, d2: number, w2: number, e2: number, l2: number): void {
  merged.set(d1, w1, e1, l1, -1, -1).append(travel, d2, w2, e2, l2, -1);
}

/** A cheapest insertion found by WindowRoute: before customer index `position`, `added` distance. */
export interface WindowInsertion {
  position: number;
  added: number;
}

/**
 * One route under hard windows alone (`windowsOnly`): its visits from depot to depot with the
 * prefix and suffix time segments (Vidal et al. 2013) and the distance up to each visit in typed
 * arrays, so that once built (O(length)) every insertion position of a customer is priced in O(1):
 * the forward and backward slack of Nagata and Bräysy's insertion test. Some customers of the
 * route can be left out when building, which prices an insertion after an ejection.
 */
export class WindowRoute {
  private nodes = new Int32Array(8);
  private prefix = new Float64Array(8 * FIELDS);
  private suffix = new Float64Array(8 * FIELDS);
  private reach = new Float64Array(8);
  /** Visits, the two depots included. */
  private visits = 0;
  private p: CompiledProblem | null = null;
  private vehicle = -1;
  /** Total demand of the customers built. */
  load = 0;

  /** Customers on the built route. */
  get customers(): number {
    return this.visits - 2;
  }

  /** The built route's distance, depot to depot. */
  get distance(): number {
    return this.reach[this.visits - 1]!;
  }

  /** Builds vehicle v's `route` (customers only) without its customers at indexes `skipA` and `skipB` (-1: none). */
  build(p: CompiledProblem, v: number, route: readonly number[], skipA = -1, skipB = -1): this {
    this.p = p;
    this.vehicle = v;
    const m = route.length + 2;
    if (this.nodes.length < m) this.grow(m);
    const nodes = this.nodes;
    let k = 0;
    nodes[k++] = p.startNode[v]!;
    this.load = 0;
    for (let i = 0; i < route.length; i++) {
      if (i === skipA || i === skipB) continue;
      nodes[k++] = route[i]!;
      this.load += p.demand[route[i]!]!;
    }
    nodes[k++] = p.endNode[v]!;
    this.visits = k;
    const t = p.time!;
    const speed = t.speed[v]!;
    const pre = this.prefix;
    const suf = this.suffix;
    this.setVisit(pre, 0, nodes[0]!, true);
    this.reach[0] = 0;
    for (let j = 1; j < k; j++) {
      const leg = distanceBetween(p, nodes[j - 1]!, nodes[j]!);
      this.reach[j] = this.reach[j - 1]! + leg;
      const node = nodes[j]!;
      const service = j === k - 1 ? 0 : t.serviceMin[node]!;
      const b = (j - 1) * FIELDS;
      merge(pre[b]!, pre[b + 1]!, pre[b + 2]!, pre[b + 3]!, leg / speed, service, 0, t.twStartMin[node]!, t.twEndMin[node]!);
      this.store(pre, j);
    }
    this.setVisit(suf, k - 1, nodes[k - 1]!, true);
    for (let j = k - 2; j >= 0; j--) {
      const node = nodes[j]!;
      const service = j === 0 ? 0 : t.serviceMin[node]!;
      const a = (j + 1) * FIELDS;
      const leg = distanceBetween(p, node, nodes[j + 1]!) / speed;
      merge(service, 0, t.twStartMin[node]!, t.twEndMin[node]!, leg, suf[a]!, suf[a + 1]!, suf[a + 2]!, suf[a + 3]!);
      this.store(suf, j);
    }
    return this;
  }

  /** Whether the built route keeps every window, the duration cap and the capacity. */
  feasible(): boolean {
    const p = this.p!;
    const at = (this.visits - 1) * FIELDS;
    return (
      this.prefix[at + 1]! < NO_WARP && this.prefix[at]! <= p.time!.maxRouteMin + 1e-9 && this.load <= p.capacity[this.vehicle]! + 1e-9
    );
  }

  /**
   * The cheapest position of `c` in the built route that keeps the windows, the duration cap and
   * the capacity (unless `withLoad` is false; the fewest added distance, the first of equal
   * ones), or null.
   */
  cheapest(c: number, withLoad = true): WindowInsertion | null {
    const p = this.p!;
    const v = this.vehicle;
    if (withLoad && this.load + p.demand[c]! > p.capacity[v]! + 1e-9) return null;
    const t = p.time!;
    const speed = t.speed[v]!;
    const cap = t.maxRouteMin + 1e-9;
    const nodes = this.nodes;
    const pre = this.prefix;
    const suf = this.suffix;
    const service = t.serviceMin[c]!;
    const open = t.twStartMin[c]!;
    const close = t.twEndMin[c]!;
    let best: WindowInsertion | null = null;
    for (let k = 0; k < this.visits - 1; k++) {
      const a = nodes[k]!;
      const b = nodes[k + 1]!;
      const into = distanceBetween(p, a, c);
      const out = distanceBetween(p, c, b);
      const added = into + out - distanceBetween(p, a, b);
      if (best && added >= best.added) continue;
      const f = k * FIELDS;
      merge(pre[f]!, pre[f + 1]!, pre[f + 2]!, pre[f + 3]!, into / speed, service, 0, open, close);
      if (merged.timeWarp >= NO_WARP) continue;
      const g = (k + 1) * FIELDS;
      merge(merged.duration, merged.timeWarp, merged.earliest, merged.latest, out / speed, suf[g]!, suf[g + 1]!, suf[g + 2]!, suf[g + 3]!);
      if (merged.timeWarp >= NO_WARP || merged.duration > cap) continue;
      best = { position: k, added };
    }
    return best;
  }

  private setVisit(into: Float64Array, j: number, node: number, depot: boolean): void {
    const t = this.p!.time!;
    const at = j * FIELDS;
    into[at] = depot ? 0 : t.serviceMin[node]!;
    into[at + 1] = 0;
    into[at + 2] = t.twStartMin[node]!;
    into[at + 3] = t.twEndMin[node]!;
  }

  private store(into: Float64Array, j: number): void {
    const at = j * FIELDS;
    into[at] = merged.duration;
    into[at + 1] = merged.timeWarp;
    into[at + 2] = merged.earliest;
    into[at + 3] = merged.latest;
  }

  private grow(m: number): void {
    const size = Math.max(m, 2 * this.nodes.length);
    this.nodes = new Int32Array(size);
    this.prefix = new Float64Array(size * FIELDS);
    this.suffix = new Float64Array(size * FIELDS);
    this.reach = new Float64Array(size);
  }
}

const scratch = new WindowRoute();

/**
 * The cheapest position of `c` in `route` (customers only) on vehicle v that keeps the windows
 * and the duration cap, and the route's cost then (fixed + unit x distance), or null. The load is
 * the caller's to check. Only where `windowsOnly(p)`.
 */
export function cheapestWindowPosition(
  p: CompiledProblem,
  v: number,
  route: readonly number[],
  c: number,
): { position: number; cost: number } | null {
  const built = scratch.build(p, v, route);
  const found = built.cheapest(c, false);
  if (!found) return null;
  return { position: found.position, cost: p.fixedCost[v]! + p.unitCost[v]! * (built.distance + found.added) };
}

/**
 * The WindowRoutes of a workspace's routes, each built again only when its route changed: the
 * workspace scores a route anew on every change, so a score other than the one a route was
 * built for marks it stale.
 */
export class WindowRouteCache {
  private readonly routes: WindowRoute[] = [];
  private readonly builtFor: (RouteScore | null)[] = [];

  constructor(readonly ws: Workspace) {}

  /** Vehicle v's route as it is now. */
  of(v: number): WindowRoute {
    const score = this.ws.scores[v]!;
    let route = this.routes[v];
    if (!route) route = this.routes[v] = new WindowRoute();
    else if (this.builtFor[v] === score) return route;
    this.builtFor[v] = score;
    return route.build(this.ws.p, v, this.ws.routes[v]!);
  }
}
