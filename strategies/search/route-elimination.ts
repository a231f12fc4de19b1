import { evaluateRoute } from "../core/evaluator.js";
import { lexLess } from "../core/ejection-repair.js";
import { nearestNeighbours } from "../core/neighbours.js";
import { usedVehicles } from "../core/plan-order.js";
import { hasDenseMatrix, type CompiledProblem, type Solution } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import { keepBest, Workspace, type Insertion } from "../core/workspace.js";
import { WindowRoute, WindowRouteCache, windowsOnly } from "./window-insertion.js";

/** Longest route whose pairs of customers are tried for a double ejection (cubic in its length). */
const PAIR_EJECTION_MAX_ROUTE = 30;
/** Random feasible relocations after each ejection, so that the pool does not cycle. */
const PERTURBATION_MOVES = 8;
/** Pool steps of one attempt per customer, before the attempt is given up. */
const STEPS_PER_CUSTOMER = 40;
/** Attempts in a row that remove no route, after which the phase ends early. */
const MAX_FAILED_ATTEMPTS = 40;
/** Ejections are looked for in the routes of a customer's nearest customers, this many of them. */
const EJECTION_NEIGHBOURS = 20;

/**
 * The route-elimination phase of the hierarchical objective, after Nagata and Bräysy (2009): a
 * feasible plan loses one route, whose customers go into an ejection pool; the last one in is
 * placed at its cheapest feasible position in the remaining routes, or else (its penalty counter
 * raised) in the position that needs the ejection of one or two customers of the smallest total
 * penalty, which go into the pool in turn; a few random feasible relocations follow each
 * ejection. An empty pool is a feasible plan with one route fewer, and the next route is tried;
 * the phase ends at `stop` (told the attempts in vain since the last removal), at the load's
 * lower bound, or after many attempts in vain. Each plan with a route fewer goes to `onRemoved`
 * as it is found. Returns the feasible plan with the fewest routes found (`start` itself when
 * none has fewer).
 */
export function eliminateRoutes(
  p: CompiledProblem,
  start: Solution,
  rng: Rng,
  stop: (vainAttempts: number, routes: number) => boolean,
  onRemoved: (plan: Solution) => void = () => {},
): Solution {
  let best = start;
  const floor = loadLowerBound(p);
  let failures = 0;
  let order: number[] = [];
  while (!stop(failures, order.length) && failures < MAX_FAILED_ATTEMPTS && usedVehicles(best.routes) > floor) {
    const ws = new Workspace(p, best);
    const removable = ws.routes.flatMap((r, v) => (r.length > 0 && ws.lockedCount(v) === 0 ? [v] : []));
    if (removable.length === 0) break;
    // The shortest route on the first attempt after a success (the smallest pool), then every
    // route in a random order before any is tried again: a small fleet's one removable route is
    // not left to chance.
    const shortest = removable.reduce((a, b) => (ws.routes[b]!.length < ws.routes[a]!.length ? b : a));
    if (failures === 0) order = shuffled(removable, rng);
    const gone = failures === 0 ? shortest : order[(failures - 1) % order.length]!;
    const open = ws.routes.flatMap((r, v) => (r.length > 0 && v !== gone ? [v] : []));
    const pooled = ws.scores[gone]!.load;
    for (const c of ws.routes[gone]!.slice()) ws.remove(c);
    if (pooled > spareCapacity(ws, open) + 1e-9) moveToRoomierVehicle(ws, open, gone);
    if (emptyPool(ws, open, rng, () => stop(failures, order.length)) && ws.isFeasible()) {
      best = ws.solution();
      failures = 0;
      onRemoved(best);
    } else {
      failures++;
    }
  }
  return best;
}

function shuffled(items: readonly number[], rng: Rng): number[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** At least this many routes carry the total demand (on the largest vehicle). */
function loadLowerBound(p: CompiledProblem): number {
  let demand = 0;
  for (const c of p.customers) demand += p.demand[c]!;
  let capacity = 0;
  for (let v = 0; v < p.vehicleCount; v++) capacity = Math.max(capacity, p.capacity[v]!);
  return capacity > 0 ? Math.max(1, Math.ceil(demand / capacity - 1e-9)) : 1;
}

function spareCapacity(ws: Workspace, open: number[]): number {
  let spare = 0;
  for (const v of open) spare += ws.p.capacity[v]! - ws.scores[v]!.load;
  return spare;
}

/**
 * With a mixed fleet the routes left may lack the room for the pool even where the fleet has it:
 * one open route moves whole to the unused vehicle that adds the most room (when it is feasible
 * there), and `open` names that vehicle instead.
 */
function moveToRoomierVehicle(ws: Workspace, open: number[], gone: number): void {
  const p = ws.p;
  let best: { at: number; to: number; gain: number } | null = null;
  for (let to = 0; to < p.vehicleCount; to++) {
    if (to === gone || ws.routes[to]!.length > 0 || ws.lockedCount(to) > 0) continue;
    open.forEach((from, at) => {
      const gain = p.capacity[to]! - p.capacity[from]!;
      if (gain <= 1e-9 || ws.lockedCount(from) > 0 || (best && gain <= best.gain)) return;
      if (evaluateRoute(p, to, ws.routes[from]!).feasible) best = { at, to, gain };
    });
  }
  if (!best) return;
  const { at, to } = best;
  const from = open[at]!;
  const route = ws.routes[from]!;
  ws.setRoute(from, []);
  ws.setRoute(to, route);
  open[at] = to;
}

/** Places the pool (ws.unassigned, last in first out) into the `open` routes; whether it emptied. */
function emptyPool(ws: Workspace, open: number[], rng: Rng, stop: () => boolean): boolean {
  const penalty = new Float64Array(ws.p.nodeCount).fill(1);
  const windows = windowsOnly(ws.p) ? new WindowRouteCache(ws) : null;
  const steps = STEPS_PER_CUSTOMER * ws.p.customers.length;
  for (let step = 0; step < steps && ws.unassigned.length > 0; step++) {
    if (stop()) return false;
    const c = ws.unassigned[ws.unassigned.length - 1]!;
    const direct = bestPlaces(ws, windows, c, open, 1)[0];
    if (direct) {
      ws.insert(c, direct.vehicle, direct.position);
      continue;
    }
    penalty[c] = penalty[c]! + 1;
    const chosen = cheapestEjection(ws, windows, c, open, penalty);
    if (!chosen) {
      // Fits nowhere even with an ejection: try it again after the others.
      ws.unassigned.unshift(ws.unassigned.pop()!);
      continue;
    }
    for (const e of chosen.ejected) ws.remove(e);
    ws.insert(c, chosen.vehicle, chosen.position);
    perturb(ws, windows, open, rng);
  }
  return ws.unassigned.length === 0;
}

interface Ejection {
  vehicle: number;
  ejected: number[];
  position: number;
  /** Penalty sum of the ejected, then the route's cost change: smaller is better. */
  key: [number, number];
}

/**
 * The ejection of one or two customers of the least penalty that lets `c` into an open route
 * near it (one holding one of its nearest customers; any open route when none does). A pair is
 * tried only where it weighs less than the best single ejection found. Under hard windows alone
 * the route without the ejected is built as time segments (`windows`), each insertion then O(1).
 */
function cheapestEjection(
  ws: Workspace,
  windows: WindowRouteCache | null,
  c: number,
  open: number[],
  penalty: Float64Array,
): Ejection | null {
  const p = ws.p;
  let best: Ejection | null = null;
  const consider = (v: number, i: number, j: number) => {
    const route = ws.routes[v]!;
    const weight = penalty[route[i]!]! + (j >= 0 ? penalty[route[j]!]! : 0);
    if (best && (weight > best.key[0] || (j >= 0 && weight >= best.key[0]))) return;
    const out = p.demand[route[i]!]! + (j >= 0 ? p.demand[route[j]!]! : 0);
    if (ws.scores[v]!.load - out + p.demand[c]! > p.capacity[v]! + 1e-9) return;
    const at = windows ? windowEjection(windows, v, route, i, j, c) : evaluatedEjection(ws, v, route, i, j, c);
    if (!at) return;
    const key: [number, number] = [weight, at.delta];
    const ejected = j >= 0 ? [route[i]!, route[j]!] : [route[i]!];
    if (!best || lexLess(key, best.key)) best = { vehicle: v, ejected, position: at.position, key };
  };
  const near = nearRoutes(ws, c, open);
  for (const v of near) for (let i = ws.lockedCount(v); i < ws.routes[v]!.length; i++) consider(v, i, -1);
  for (const v of near) {
    const length = ws.routes[v]!.length;
    if (length > PAIR_EJECTION_MAX_ROUTE) continue;
    for (let i = ws.lockedCount(v); i < length; i++) for (let j = i + 1; j < length; j++) consider(v, i, j);
  }
  return best;
}

const withoutEjected = new WindowRoute();

/** The cheapest insertion of `c` into v's route without its customers at i and j (-1: none), from time segments. */
function windowEjection(windows: WindowRouteCache, v: number, route: number[], i: number, j: number, c: number): Placement | null {
  const rest = withoutEjected.build(windows.ws.p, v, route, i, j);
  const found = rest.cheapest(c);
  if (!found) return null;
  return { position: found.position, delta: windows.ws.p.unitCost[v]! * (rest.distance + found.added - windows.of(v).distance) };
}

/** The open routes that hold one of c's nearest customers (all open routes when none does, or without a matrix). */
function nearRoutes(ws: Workspace, c: number, open: number[]): number[] {
  if (!hasDenseMatrix(ws.p)) return open;
  const isOpen = new Set(open);
  const found = new Set<number>();
  for (const m of nearestNeighbours(ws.p, EJECTION_NEIGHBOURS)[c]!) {
    const v = ws.routeOf[m]!;
    if (v >= 0 && isOpen.has(v)) found.add(v);
  }
  return found.size > 0 ? [...found] : open;
}

interface Placement {
  position: number;
  /** The route's cost change. */
  delta: number;
}

/** The cheapest feasible insertion of `c` into v's route without its customers at i and j (-1: none), scored by the evaluator. */
function evaluatedEjection(ws: Workspace, v: number, route: number[], i: number, j: number, c: number): Placement | null {
  const trial = route.filter((_, k) => k !== i && k !== j);
  let best: Placement | null = null;
  const head = ws.lockedCount(v);
  trial.splice(head, 0, c);
  for (let pos = head; pos < trial.length; pos++) {
    if (pos > head) [trial[pos - 1], trial[pos]] = [trial[pos]!, trial[pos - 1]!];
    const s = evaluateRoute(ws.p, v, trial);
    const delta = s.cost - ws.scores[v]!.cost;
    if (s.feasible && (!best || delta < best.delta)) best = { position: pos, delta };
  }
  return best;
}

/**
 * The best `k` feasible insertions of `c` into the open routes, at most one per route: under hard
 * windows alone from the routes' time segments (O(route length) a route), otherwise from the
 * workspace's evaluator-priced insertions.
 */
function bestPlaces(ws: Workspace, windows: WindowRouteCache | null, c: number, open: number[], k: number): Insertion[] {
  if (!windows) return ws.bestInsertions(c, k, open);
  const out: Insertion[] = [];
  for (const v of open) {
    const found = windows.of(v).cheapest(c);
    if (found) keepBest(out, { vehicle: v, position: found.position, delta: ws.p.unitCost[v]! * found.added }, k);
  }
  return out;
}

/** A few random feasible relocations between the open routes (a customer goes back when none is). */
function perturb(ws: Workspace, windows: WindowRouteCache | null, open: number[], rng: Rng): void {
  for (let k = 0; k < PERTURBATION_MOVES; k++) {
    const v = open[rng.int(open.length)]!;
    const route = ws.routes[v]!;
    const head = ws.lockedCount(v);
    if (route.length <= head) continue;
    const at = head + rng.int(route.length - head);
    const c = route[at]!;
    ws.remove(c);
    const options = bestPlaces(ws, windows, c, open, 3);
    const pick = options[rng.int(Math.max(1, options.length))];
    if (pick) ws.insert(c, pick.vehicle, pick.position);
    else ws.insert(c, v, at);
  }
}
