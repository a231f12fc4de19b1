import { evaluateRoute, type RouteScore } from "./evaluator.js";
import { nearestNeighbours } from "./neighbours.js";
import { distanceBetween, hasDenseMatrix, type CompiledProblem, type Solution } from "./problem.js";

/** Search cost of leaving a customer out: dominates any real cost difference. */
export function unassignedPenalty(p: CompiledProblem): number {
  let maxD = 0;
  if (hasDenseMatrix(p)) {
    for (let i = 0; i < p.dist.length; i++) if (p.dist[i]! > maxD) maxD = p.dist[i]!;
  } else {
    maxD = boundingBoxDiagonal(p.coords!);
  }
  let maxUnit = 0;
  let maxFixed = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    maxUnit = Math.max(maxUnit, p.unitCost[v]!);
    maxFixed = Math.max(maxFixed, p.fixedCost[v]!);
  }
  return 1e3 + 10 * (2 * maxD * Math.max(1, maxUnit) + maxFixed) * Math.max(1, p.time ? 10 : 1);
}

/** The longest possible distance between two of the points: the diagonal of their bounding box. */
function boundingBoxDiagonal(coords: Float64Array): number {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < coords.length; i += 2) {
    minX = Math.min(minX, coords[i]!);
    maxX = Math.max(maxX, coords[i]!);
    minY = Math.min(minY, coords[i + 1]!);
    maxY = Math.max(maxY, coords[i + 1]!);
  }
  return Math.hypot(maxX - minX, maxY - minY);
}

export interface Insertion {
  vehicle: number;
  position: number;
  delta: number;
}

/** Adds `ins` to `best` (cheapest first, at most `k`; on a tie the earlier route stays first). */
export function keepBest(best: Insertion[], ins: Insertion, k: number): void {
  let i = best.length;
  while (i > 0 && best[i - 1]!.delta > ins.delta) i--;
  if (i < k) {
    best.splice(i, 0, ins);
    if (best.length > k) best.pop();
  }
}

/** Granular candidate lists are used above this many customers; below, every position is tried. */
const EXACT_INSERTION_LIMIT = 200;

/**
 * Mutable search state shared by constructions and ALNS: routes with cached scores, the
 * unassigned customers, and insertion evaluation. Costs always come from `evaluateRoute`; the
 * O(1) distance delta used without a time dimension is property-tested against it.
 */
export class Workspace {
  routes: number[][];
  scores: RouteScore[];
  unassigned: number[] = [];
  readonly penalty: number;
  readonly neighbours: Int32Array[] | null;
  /** Route index of each customer (-1 when unassigned). */
  readonly routeOf: Int32Array;
  /**
   * Price per minute of hard-window lateness or working-hours excess. 0 (the default) keeps the
   * search inside the feasible space; ALNS raises it on tightly constrained time problems so it
   * can cross infeasible solutions on the way to feasible ones (PyVRP's penalised cost).
   */
  violationWeight = 0;
  private scratch: Int32Array;

  constructor(
    readonly p: CompiledProblem,
    initial?: Solution,
  ) {
    this.routes = initial ? initial.routes.map((r) => r.slice()) : Array.from({ length: p.vehicleCount }, () => []);
    this.scores = this.routes.map((r, v) => evaluateRoute(p, v, r));
    this.routeOf = new Int32Array(p.nodeCount).fill(-1);
    this.routes.forEach((r, v) => r.forEach((c) => (this.routeOf[c] = v)));
    for (const c of p.customers) if (this.routeOf[c] === -1) this.unassigned.push(c);
    this.penalty = unassignedPenalty(p);
    this.neighbours = p.customers.length > EXACT_INSERTION_LIMIT ? nearestNeighbours(p, 40) : null;
    this.scratch = new Int32Array(p.customers.length + 2);
  }

  /** How many stops at the head of vehicle v's route are locked there (vehicle_locked_stops): nothing goes before them. */
  lockedCount(v: number): number {
    return this.p.locks?.stops[v]?.length ?? 0;
  }

  /** Time-constraint violation of a route in minutes (soft-window lateness is priced in cost instead). */
  violation(s: RouteScore): number {
    const hardWindows = this.p.time !== null && this.p.time.latePenaltyPerMin <= 0;
    return (hardWindows ? s.lateMinutes : 0) + s.durationExcessMin;
  }

  searchCost(s: RouteScore): number {
    return s.cost + (this.violationWeight > 0 ? this.violationWeight * this.violation(s) : 0);
  }

  /** The search objective: cost, priced violations, and a dominating price per unassigned customer. */
  cost(): number {
    let total = 0;
    for (const s of this.scores) total += this.searchCost(s);
    return total + this.penalty * this.unassigned.length;
  }

  /** Every customer placed and every route feasible under the hard constraints. */
  isFeasible(): boolean {
    return this.unassigned.length === 0 && this.scores.every((s) => s.feasible);
  }

  solution(): Solution {
    return { routes: this.routes.map((r) => r.slice()) };
  }

  load(from: Solution): void {
    this.routes = from.routes.map((r) => r.slice());
    this.scores = this.routes.map((r, v) => evaluateRoute(this.p, v, r));
    this.routeOf.fill(-1);
    this.routes.forEach((r, v) => r.forEach((c) => (this.routeOf[c] = v)));
    this.unassigned = Array.from(this.p.customers).filter((c) => this.routeOf[c] === -1);
  }

  /** Replaces route v by `route` (scored `score`); its customers are registered on v. */
  setRoute(v: number, route: number[], score: RouteScore = evaluateRoute(this.p, v, route)): void {
    this.routes[v] = route;
    this.scores[v] = score;
    for (const c of route) this.routeOf[c] = v;
  }

  refresh(v: number): void {
    this.scores[v] = evaluateRoute(this.p, v, this.routes[v]!);
  }

  /** Cost change of inserting `c` into route `v` before index `pos`, or Infinity if infeasible. */
  insertionDelta(c: number, v: number, pos: number): number {
    const p = this.p;
    if (pos < this.lockedCount(v)) return Number.POSITIVE_INFINITY;
    const route = this.routes[v]!;
    const score = this.scores[v]!;
    if (score.load + p.demand[c]! > p.capacity[v]! + 1e-9) return Number.POSITIVE_INFINITY;
    if (!p.time) {
      const prev = pos === 0 ? p.startNode[v]! : route[pos - 1]!;
      const next = pos === route.length ? p.endNode[v]! : route[pos]!;
      const dDist = distanceBetween(p, prev, c) + distanceBetween(p, c, next) - distanceBetween(p, prev, next);
      return p.unitCost[v]! * dDist + (route.length === 0 ? p.fixedCost[v]! : 0);
    }
    const len = route.length + 1;
    const buf = this.scratch;
    for (let k = 0, j = 0; k < len; k++) buf[k] = k === pos ? c : route[j++]!;
    const next = evaluateRoute(p, v, buf, len);
    if (next.feasible) return next.cost - this.searchCost(score);
    if (this.violationWeight <= 0 || next.capacityExcess > 1e-9) return Number.POSITIVE_INFINITY;
    return this.searchCost(next) - this.searchCost(score);
  }

  /** Positions worth trying for `c` in route `v`: all, or those next to its near neighbours. */
  private candidatePositions(c: number, v: number, out: number[]): void {
    const route = this.routes[v]!;
    out.length = 0;
    if (!this.neighbours || route.length <= 8) {
      for (let pos = 0; pos <= route.length; pos++) out.push(pos);
      return;
    }
    const near = this.neighbours[c]!;
    for (let i = 0; i < near.length; i++) {
      const m = near[i]!;
      if (this.routeOf[m] !== v) continue;
      const idx = route.indexOf(m);
      out.push(idx, idx + 1);
    }
    out.push(0, route.length);
  }

  /** The best `k` insertions of `c`, at most one per route, cheapest first. */
  bestInsertions(c: number, k: number, vehicles?: number[]): Insertion[] {
    const best: Insertion[] = [];
    const positions: number[] = [];
    for (const v of vehicles ?? this.vehicleCandidates(c)) {
      const routeBest = this.bestInRoute(c, v, positions);
      if (routeBest) keepBest(best, routeBest, k);
    }
    return best;
  }

  /** The cheapest feasible insertion of `c` into route `v` (the first of equal ones), or null; `positions` is scratch. */
  bestInRoute(c: number, v: number, positions: number[]): Insertion | null {
    this.candidatePositions(c, v, positions);
    let routeBest: Insertion | null = null;
    for (const pos of positions) {
      const delta = this.insertionDelta(c, v, pos);
      if (delta < (routeBest?.delta ?? Number.POSITIVE_INFINITY)) routeBest = { vehicle: v, position: pos, delta };
    }
    return routeBest;
  }

  /**
   * Routes to try for `c`: every used route near it (or all, on small problems) plus one empty
   * vehicle of each distinct kind, since identical empty vehicles give identical insertions.
   */
  vehicleCandidates(c: number): number[] {
    const p = this.p;
    const out: number[] = [];
    const seenKinds = new Set<string>();
    const nearRoutes = this.neighbours ? new Set<number>() : null;
    if (nearRoutes) for (const m of this.neighbours![c]!) if (this.routeOf[m]! >= 0) nearRoutes.add(this.routeOf[m]!);
    for (let v = 0; v < p.vehicleCount; v++) {
      if (this.routes[v]!.length === 0) {
        const kind =
          `${p.startNode[v]}|${p.endNode[v]}|${p.capacity[v]}|${p.fixedCost[v]}|` + `${p.unitCost[v]}|${p.time ? p.time.speed[v] : 0}`;
        if (seenKinds.has(kind)) continue;
        seenKinds.add(kind);
        out.push(v);
      } else if (!nearRoutes || nearRoutes.has(v)) {
        out.push(v);
      }
    }
    return out;
  }

  insert(c: number, v: number, pos: number): void {
    this.routes[v]!.splice(pos, 0, c);
    this.routeOf[c] = v;
    const i = this.unassigned.indexOf(c);
    if (i >= 0) this.unassigned.splice(i, 1);
    this.refresh(v);
  }

  remove(c: number): void {
    const v = this.routeOf[c]!;
    if (v < 0) return;
    const route = this.routes[v]!;
    route.splice(route.indexOf(c), 1);
    this.routeOf[c] = -1;
    this.unassigned.push(c);
    this.refresh(v);
  }
}
